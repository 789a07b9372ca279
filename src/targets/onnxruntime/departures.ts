/**
 * onnxruntime-web's documented semantics where they are not PyTorch's: what the ONNX operator spec
 * (onnx.ai/onnx/operators) defines differently, declared once with the reason, kept apart from the departures the
 * oracles find (and from its bugs: tools/targets/ort-wasm). Instances these cover are expected to depart (xfail);
 * each is declared only for the dtypes where the golden samples were measured to depart.
 */
import type { Departure } from '../target.ts';

const FLOATS = ['float32', 'float64'] as const;
const SORTABLE = ['float32', 'float64', 'int32', 'int64'] as const;

export const ORT_DEPARTURES: readonly Departure[] = [
  {
    op: 'sign',
    dtypes: [...FLOATS],
    reason:
      'ONNX Sign defines 1, -1 and 0 for positive, negative and zero inputs and leaves NaN unspecified (onnxruntime gives NaN); PyTorch 1.13 gives sign(NaN) = 0',
  },
  {
    op: 'nn.functional.hardshrink',
    dtypes: [...FLOATS],
    reason:
      'hardshrink is ONNX Shrink(bias=0), which gives 0 for every input not beyond +-lambd, NaN included (spec: "Otherwise, y = 0"); PyTorch propagates NaN',
  },
  {
    op: 'mean',
    dtypes: [...FLOATS],
    reason:
      'ONNX ReduceMean over an empty set is not defined by the spec (onnxruntime gives 0); PyTorch gives NaN (0/0)',
  },
  {
    op: 'sort',
    dtypes: [...SORTABLE],
    reason:
      'sort is ONNX TopK with k = the size of the dim: TopK orders equal values by index (spec: "if two elements are equal, the element with the lower index appears first"); PyTorch\'s sort is not stable, so tied indices differ',
  },
  {
    op: 'topk',
    dtypes: [...SORTABLE],
    reason:
      'ONNX TopK orders equal values by lower index first (spec) and leaves NaN unspecified; PyTorch orders ties as its kernel does and ranks NaN above every number',
  },
  {
    op: 'native_layer_norm',
    dtypes: ['float64'],
    reason:
      "ONNX LayerNormalization computes and returns Mean and InvStdDev in stash_type, float32 by default (spec), and onnxruntime has no float64 stash_type; PyTorch's are in the input's dtype",
  },
  {
    op: 'nn.functional.local_response_norm',
    dtypes: [...FLOATS],
    reason:
      "ONNX LRN sums the squares over channels [c - floor((size-1)/2), c + ceil((size-1)/2)]; PyTorch's window is [c - floor(size/2), c + floor((size-1)/2)]: they differ for an even size",
  },
];
