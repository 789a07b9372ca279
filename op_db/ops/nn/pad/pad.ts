/**
 * OpInfos for constant_pad_nd and nn.functional.pad (its four modes; reflect and replicate only for floating and
 * complex inputs, as PyTorch's kernels). The float64 reference reads each output element from the definition in
 * PyTorch's docs: constant fills, reflect mirrors without repeating the edge, replicate repeats the edge, and
 * circular wraps the input that negative pads leave.
 */
import { DTYPE_GROUPS, DTYPE_INFO, type DType, type Tensor } from '../../../../src/runtime/index.ts';
import { errorCase, f32, pyScalar, sample } from '../../../families/shape.ts';
import { opInfo } from '../../../info.ts';
import { maker } from '../../../make.ts';
import { numelOf, type RefTensor, refTensor, unravel } from '../../../refs/tensor.ts';
import type { ErrorInput, OpInfo, RefSample, SampleContext, SampleInput } from '../../../types.ts';

const ALL: readonly DType[] = DTYPE_GROUPS.all;
const isFloating = (d: DType) => ['float', 'complex'].includes(DTYPE_INFO[d].kind);

/** The input index output index `i` of a dim reads, or -1 for the constant. */
function source(mode: string, i: number, n: number, l: number, r: number): number {
  const j = i - l;
  if (mode === 'constant') return j >= 0 && j < n ? j : -1;
  if (mode === 'replicate') return Math.min(Math.max(j, 0), n - 1);
  if (mode === 'reflect') {
    if (j < 0) return -j;
    return j >= n ? 2 * (n - 1) - j : j;
  }
  // circular: the window left by negative pads, wrapped.
  const start = Math.max(-l, 0);
  const size = n - start - Math.max(-r, 0);
  return start + ((((i - Math.max(l, 0)) % size) + size) % size);
}

function padRef(x: RefTensor, pad: readonly number[], mode: string, value: number): RefTensor {
  const nd = x.shape.length;
  const pairs = x.shape.map((_, d) => {
    const k = nd - 1 - d;
    return 2 * k < pad.length ? [pad[2 * k], pad[2 * k + 1]] : [0, 0];
  });
  const shape = x.shape.map((n, d) => n + pairs[d][0] + pairs[d][1]);
  const n = numelOf(shape);
  const re = new Float64Array(n);
  const im = x.im ? new Float64Array(n) : null;
  for (let o = 0; o < n; o++) {
    const idx = unravel(o, shape);
    let flat = 0;
    for (let d = 0; d < nd && flat >= 0; d++) {
      const j = source(mode, idx[d], x.shape[d], pairs[d][0], pairs[d][1]);
      flat = j < 0 ? -1 : flat * x.shape[d] + j;
    }
    re[o] = flat < 0 ? value : x.re[flat];
    if (im) im[o] = flat < 0 ? 0 : x.im![flat];
  }
  return refTensor(shape, x.dtype, re, im ?? undefined);
}

const constantPadRef = (s: RefSample) =>
  padRef(s.input, s.args[0] as number[], 'constant', Number(s.args[1] ?? s.kwargs.value ?? 0));

const fPadRef = (s: RefSample) =>
  padRef(
    s.input,
    s.args[0] as number[],
    String(s.args[1] ?? s.kwargs.mode ?? 'constant'),
    Number(s.args[2] ?? s.kwargs.value ?? 0),
  );

function constantPadSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const v = pyScalar(ctx.dtype, 2);
  return [
    sample(make([2, 3, 2]), [[1, 2]], {}, { name: 'last dim' }),
    sample(make([2, 2, 3]), [[1, -1, 0, 2], v], {}, { name: 'crop and pad, value' }),
    sample(make([1, 1, 3, 3]), [[-1, 1, 2, 0, 1, 0]], { value: v }, { name: '3 dims' }),
    sample(make([4]), [[-1, -2]], {}, { name: 'crop only' }),
    ...(ctx.requiresGrad
      ? []
      : [
          sample(make([0, 3]), [[1, 1, 1, 0]], {}, { name: 'zero-size' }),
          sample(make([]), [[]], {}, { name: '0-dim' }),
        ]),
  ];
}

function constantPadErrors(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  const arg = 'E_INVALID_ARGUMENT';
  return [
    errorCase(f([2, 3]), [[1, 2, 3]], {}, arg, /Length of pad must be even but instead it equals 3/),
    errorCase(
      f([2, 3]),
      [[1, 1, 1, 1, 1, 1]],
      {},
      arg,
      /Length of pad should be no more than twice the number of dimensions of the input. Pad length is 6while the input has 2dimensions./,
    ),
    errorCase(
      f([2, 3]),
      [[-3, 0, 1, 0]],
      {},
      'E_SHAPE_MISMATCH',
      /The input size 3, plus negative padding -3 and 0 resulted in a negative output size, which is invalid. Check dimension 1 of your input./,
    ),
  ];
}

/** Reflect and replicate samples for floating and complex dtypes; constant and circular for all. */
function padSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const grad = ctx.requiresGrad;
  const all = [
    ...(grad ? [] : [sample(make([2, 3, 2]), [[1, 2]], {}, { name: 'constant, default' })]),
    sample(make([1, 1, 3, 2]), [[1, -1, 2, 0], 'constant', 2.5], {}, { name: 'constant, crop, value' }),
    sample(make([1, 2, 3]), [[2, -1]], { mode: 'circular' }, { name: 'circular 1-d' }),
    sample(make([1, 1, 3, 3]), [[1, -1, 3, 2], 'circular'], {}, { name: 'circular 2-d' }),
    ...(grad
      ? []
      : [sample(make([1, 2, 2, 3, 2]), [[1, 1, -1, 2, 0, 1], 'circular'], {}, { name: 'circular 3-d' })]),
  ];
  if (!isFloating(ctx.dtype)) return all;
  return [
    ...all,
    sample(make([1, 2, 4]), [[3, 1]], { mode: 'reflect' }, { name: 'reflect 1-d' }),
    sample(make([1, 3, 3]), [[1, 2, -1, 2], 'reflect'], {}, { name: 'reflect 2-d, unbatched' }),
    sample(make([1, 2, 2, 3]), [[1, 2, 1, 1, 1, 0], 'reflect'], {}, { name: 'reflect 3-d, unbatched' }),
    sample(make([2, 3]), [[2, -1], 'replicate'], {}, { name: 'replicate 1-d, unbatched' }),
    // Negative pads that leave exactly one column: the smallest output width 1-d padding allows.
    sample(make([1, 2, 3]), [[-1, -1], 'reflect'], {}, { name: 'reflect 1-d, output width 1' }),
    sample(make([1, 1, 2, 3]), [[2, 1, 1, 2]], { mode: 'replicate', value: 0 }, { name: 'replicate 2-d' }),
    sample(make([1, 1, 2, 2, 2]), [[1, 0, 2, 1, -1, 1], 'replicate'], {}, { name: 'replicate 3-d' }),
    // Unbatched with no channels: PyTorch requires only the padded dims to be non-empty.
    sample(make([0, 5]), [[2, 1], 'reflect'], {}, { name: 'reflect 1-d, unbatched, no channels' }),
    sample(make([0, 3, 4]), [[2, 1, 1, 2], 'reflect'], {}, { name: 'reflect 2-d, unbatched, no channels' }),
  ];
}

function padErrors(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  const [arg, shape, todo] = ['E_INVALID_ARGUMENT', 'E_SHAPE_MISMATCH', 'E_NOT_IMPLEMENTED'] as const;
  return [
    errorCase(f([1, 2, 3]), [[1]], {}, arg, /Padding length must be divisible by 2/),
    errorCase(f([2, 3]), [[1, 1, 1, 1, 1, 1]], {}, arg, /Padding length too large/),
    errorCase(f([1, 2, 3]), [[1, 1], 'foo'], {}, todo, /Unrecognised padding mode foo/),
    errorCase(
      f([1, 2, 3]),
      [[1, 1], 'reflect', 1.5],
      {},
      arg,
      /Padding mode "reflect" doesn't take in value argument/,
    ),
    errorCase(
      f([1, 2, 3]),
      [[1, 1, 1, 1, 1, 1], 'replicate'],
      {},
      todo,
      /Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now/,
    ),
    errorCase(
      f([1, 2, 3]),
      [[3, 3], 'reflect'],
      {},
      arg,
      /Argument #4: Padding size should be less than the corresponding input dimension, but got: padding \(3, 3\) at dimension 2 of input \[1, 2, 3\]/,
    ),
    errorCase(
      f([1, 2, 3, 4]),
      [[1, 1, 1, 3], 'reflect'],
      {},
      arg,
      /Argument #6: Padding size should be less than the corresponding input dimension, but got: padding \(1, 3\) at dimension 2 of input 4/,
    ),
    errorCase(
      f([2, 0, 4]),
      [[1, 1], 'reflect'],
      {},
      shape,
      /2D or 3D \(batch mode\) tensor expected for input, but got: \[ torch.FloatTensor\{2,0,4\} \]/,
    ),
    errorCase(
      f([2, 3, 0]),
      [[1, 1, 1, 1], 'replicate'],
      {},
      shape,
      /Expected 3D or 4D \(batch mode\) tensor with possibly 0 batch size and other non-zero dimensions for input, but got: \[2, 3, 0\]/,
    ),
    errorCase(
      f([1, 2, 3]),
      [[-2, -2], 'replicate'],
      {},
      arg,
      /input \(W: 3\) is too small. Calculated output W: -1/,
    ),
    errorCase(
      f([1, 2, 3]),
      [[-1, -2], 'reflect'],
      {},
      arg,
      /2input \(W: 3\)is too small. Calculated output W: 0/,
    ),
    // replication_pad2d asks for a positive height OR width: a negative height reaches the output's allocation.
    errorCase(
      f([1, 1, 4, 4]),
      [[0, 0, -3, -3], 'replicate'],
      {},
      arg,
      /Trying to create tensor with negative dimension -2: \[1, 1, -2, 4\]/,
    ),
    errorCase(f([2, 3]), [[1, 1], 'circular'], {}, arg, /Invalid padding size, expected 0 but got 2/),
    errorCase(
      f([1, 2, 3]),
      [[4, 0], 'circular'],
      {},
      arg,
      /Padding value causes wrapping around more than once./,
    ),
    errorCase(
      f([1, 2, 3]),
      [[-2, -2], 'circular'],
      {},
      arg,
      /Negative padding value is resulting in an empty dimension/,
    ),
    errorCase(
      f([1, 2, 3]),
      [[3, -1], 'circular'],
      {},
      arg,
      /unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location/,
    ),
    errorCase(
      f([1, 2, 3]).to('int64'),
      [[1, 1], 'reflect'],
      {},
      'E_DTYPE_UNSUPPORTED',
      /"reflection_pad1d" not implemented for 'Long'/,
    ),
    errorCase(
      f([1, 2, 3, 3]).to('int32'),
      [[1, 1, 1, 1], 'replicate'],
      {},
      'E_DTYPE_UNSUPPORTED',
      /"replication_pad2d_cpu" not implemented for 'Int'/,
    ),
  ];
}

const inputDType = (s: SampleInput) => (s.input as Tensor).dtype;

export const NN_PAD_OPINFOS: readonly OpInfo[] = [
  opInfo({
    name: 'constant_pad_nd',
    family: 'shape',
    dtypes: ALL,
    sampleInputs: constantPadSamples,
    errorInputs: constantPadErrors,
    ref: constantPadRef,
    resultDType: inputDType,
  }),
  opInfo({
    name: 'nn.functional.pad',
    op: 'pad',
    family: 'shape',
    dtypes: ALL,
    sampleInputs: padSamples,
    errorInputs: padErrors,
    ref: fPadRef,
    resultDType: inputDType,
  }),
];
