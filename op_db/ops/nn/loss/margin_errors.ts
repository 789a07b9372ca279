/**
 * Error inputs of the margin and embedding losses (nn/loss/margin.ts): float32 calls that PyTorch 1.13 refuses,
 * each with its message (reduction names, dims, broadcast shapes, dtypes).
 */
import type { Tensor } from '../../../../src/runtime/index.ts';
import { errorCase, f32 } from '../../../families/shape.ts';
import type { ErrorInput, SampleContext } from '../../../types.ts';

const SHAPE = 'E_SHAPE_MISMATCH';
const DTYPE = 'E_DTYPE_UNSUPPORTED';
const ARG = 'E_INVALID_ARGUMENT';

const badReduction = (input: Tensor, args: unknown[], regex = /foo is not a valid value for reduction/) =>
  errorCase(input, args, { reduction: 'foo' }, ARG, regex);

export function hingeErrors(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  return [
    badReduction(f([2, 3]), [f([2, 3])]),
    errorCase(
      f([2, 3]),
      [f([4])],
      {},
      SHAPE,
      /The size of tensor a \(4\) must match the size of tensor b \(3\)/,
    ),
    errorCase(f([2, 3]).to('int32'), [f([2, 3])], {}, DTYPE, /could not infer output dtype/),
  ];
}

export function rankingErrors(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  return [
    errorCase(
      f([2, 3]),
      [f([2, 3]), f([3])],
      {},
      SHAPE,
      /All input tensors should have same dimension but got sizes: input1: torch.Size\(\[2, 3\]\), input2: torch.Size\(\[2, 3\]\), target: torch.Size\(\[3\]\)/,
    ),
    badReduction(f([3]), [f([3]), f([3])]),
  ];
}

export function softErrors(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  return [
    errorCase(
      f([3]),
      [f([2, 3])],
      { reduction: 'none' },
      SHAPE,
      /output with shape \[3\] doesn't match the broadcast shape \[2, 3\]/,
    ),
    errorCase(
      f([2]).to('int64'),
      [f([2])],
      {},
      DTYPE,
      /result type Float can't be cast to the desired output type Long/,
    ),
    badReduction(f([3]), [f([3])]),
    // aten's soft_margin_loss has a derivative for self only: autograd refuses a target that requires grad.
    errorCase(
      f([3]),
      [f([3]).requiresGrad_(true)],
      {},
      'E_AUTOGRAD',
      /The function 'soft_margin_loss' is not differentiable with respect to argument 'target'/,
      'target requires grad',
    ),
  ];
}

export function multilabelSoftErrors(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  return [
    errorCase(
      f([]),
      [f([])],
      {},
      'E_DIM_OUT_OF_RANGE',
      /Dimension specified as -1 but tensor has no dimensions/,
    ),
    errorCase(f([2, 3]), [f([2, 3])], { reduction: 'bad' }, ARG, /bad is not valid/),
    errorCase(
      f([2, 3]),
      [f([2, 3]), f([4])],
      {},
      SHAPE,
      /The size of tensor a \(3\) must match the size of tensor b \(4\)/,
    ),
  ];
}

export function cosineErrors(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  return [
    errorCase(
      f([2, 3]),
      [f([2, 3]), f([2, 1])],
      {},
      SHAPE,
      /0D or 1D target tensor expected, multi-target not supported/,
    ),
    errorCase(
      f([3]),
      [f([3]), f([2])],
      {},
      SHAPE,
      /1D target tensor expects 2D input tensors, but found inputs with sizes \[3\] and \[3\]\./,
    ),
    errorCase(
      f([2, 3]),
      [f([2, 3]), f([])],
      {},
      SHAPE,
      /0D target tensor expects 1D input tensors, but found inputs with sizes \[2, 3\] and \[2, 3\]\./,
    ),
    badReduction(f([2, 3]), [f([2, 3]), f([2])]),
  ];
}

export function tripletErrors(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  return [
    errorCase(
      f([2, 3]),
      [f([2, 3]), f([3])],
      {},
      SHAPE,
      /All inputs should have same dimension but got 2D, 2D and 1D inputs\./,
    ),
    badReduction(f([2, 3]), [f([2, 3]), f([2, 3])]),
  ];
}

export const tripletDistanceErrors = (ctx: SampleContext): ErrorInput[] => {
  const f = f32(ctx);
  return [
    errorCase(
      f([2, 3]),
      [f([2, 3]), f([2, 3])],
      { reduction: 'x' },
      ARG,
      /x is not a valid value for reduction/,
    ),
  ];
};
