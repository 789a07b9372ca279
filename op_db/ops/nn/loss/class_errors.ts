/**
 * Error inputs of the classification losses (nn/loss/class.ts), with PyTorch 1.13's messages: F's own checks, then
 * nll_loss_nd / nll_loss / nll_loss2d's shape checks, their kernels' dtype checks and the target bounds.
 */
import { errorCase, exact, f32, indexOf, onValues } from '../../../families/shape.ts';
import type { ErrorInput, SampleContext } from '../../../types.ts';

const ARG = 'E_INVALID_ARGUMENT';
const DTYPE = 'E_DTYPE_UNSUPPORTED';
const SHAPE = 'E_SHAPE_MISMATCH';
const INDEX = 'E_INDEX_OUT_OF_RANGE';

/** Errors of the class-index path (nll_loss_nd and its nll_loss / nll_loss2d). */
export function classErrors(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  const idx = (values: number[], shape: number[]) => indexOf(ctx, values, shape);
  return [
    errorCase(
      f([3, 4]),
      [idx([0, 1], [2])],
      {},
      SHAPE,
      /Expected input batch_size \(3\) to match target batch_size \(2\)\./,
    ),
    errorCase(f([]), [idx([0], [])], {}, ARG, /Expected 1 or more dimensions \(got 0\)/),
    errorCase(
      f([3, 4]),
      [idx([0, 1, 2, 3, 0, 1], [3, 2])],
      {},
      SHAPE,
      /0D or 1D target tensor expected, multi-target not supported/,
    ),
    errorCase(f([4]), [idx([1], [1])], {}, SHAPE, /size mismatch \(got input: \[4\], target: \[1\]\)/),
    onValues(errorCase(f([3, 4]), [idx([0, 5, 1], [3])], {}, INDEX, /Target 5 is out of bounds\./)),
    onValues(errorCase(f([1, 2, 1, 1]), [idx([-1], [1, 1, 1])], {}, INDEX, /Target -1 is out of bounds\./)),
    errorCase(
      f([3, 4]),
      [exact(ctx, [0, 1, 2], [3], 'int32')],
      {},
      DTYPE,
      /expected scalar type Long but found Int/,
    ),
    errorCase(
      f([3, 4]),
      [idx([0, 1, 2], [3])],
      { weight: f([4]).double() },
      DTYPE,
      /expected scalar type Float but found Double/,
    ),
    // aten's nll_loss has no derivative for weight: autograd refuses a weight that requires grad.
    errorCase(
      f([3, 4]),
      [idx([0, 1, 2], [3])],
      { weight: f([4]).requiresGrad_(true) },
      'E_AUTOGRAD',
      /The function 'nll_loss_forward' is not differentiable with respect to argument 'weight'/,
      'weight requires grad',
    ),
    errorCase(
      f([3, 4]),
      [idx([0, 1, 2], [3])],
      { weight: f([3]) },
      ARG,
      /weight tensor should be defined either for all 4 classes or no classes but got weight tensor of shape: \[3\]/,
    ),
    errorCase(
      f([2, 3, 4]),
      [idx(Array(10).fill(0), [2, 5])],
      {},
      SHAPE,
      /Expected target size \[2, 4\], got \[2, 5\]/,
    ),
    errorCase(
      f([2, 3, 4, 4]),
      [idx(Array(8).fill(0), [2, 4])],
      {},
      SHAPE,
      /only batches of spatial targets supported \(3D tensors\) but got targets of dimension: 2/,
    ),
    errorCase(
      f([2, 3, 2, 2]),
      [idx(Array(12).fill(0), [2, 3, 2])],
      {},
      SHAPE,
      /size mismatch \(got input: \[2, 3, 2, 2\] , target: \[2, 3, 2\]/,
    ),
    errorCase(
      f([2, 3, 2, 2]),
      [idx(Array(8).fill(0), [2, 2, 2])],
      { weight: f([2]) },
      ARG,
      /weight tensor should be defined either for all or no classes/,
    ),
    errorCase(
      f([3, 4]),
      [idx([0, 1, 2], [3])],
      { reduction: 'avg' },
      ARG,
      /avg is not a valid value for reduction/,
    ),
  ];
}

/** nll_loss's: the class-index errors, and its kernel's dtype dispatch (cross_entropy's log_softmax refuses first). */
export function nllErrors(ctx: SampleContext): ErrorInput[] {
  return [
    ...classErrors(ctx),
    errorCase(
      f32(ctx)([3, 4]).to('int64'),
      [indexOf(ctx, [0, 1, 2], [3])],
      {},
      DTYPE,
      /"nll_loss_out_frame" not implemented for 'Long'/,
    ),
  ];
}

export function crossEntropyErrors(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  return [
    // A 0-dim input and target have the same shape: the class-probability path refuses the int64 target.
    ...classErrors(ctx).filter((e) => !e.regex.source.startsWith('Expected 1 or more')),
    errorCase(
      f([]),
      [indexOf(ctx, [0], [])],
      {},
      DTYPE,
      /Expected floating point type for target with class probabilities, got Long/,
    ),
    errorCase(
      f([2, 3]),
      [f([2, 3]).to('int64')],
      {},
      DTYPE,
      /Expected floating point type for target with class probabilities, got Long/,
    ),
    errorCase(
      f([2, 3]),
      [f([2, 3])],
      { ignore_index: 1 },
      ARG,
      /ignore_index is not supported for floating point target/,
    ),
    errorCase(
      f([2, 3]),
      [indexOf(ctx, [0, 1], [2])],
      { label_smoothing: 1.5 },
      ARG,
      /label_smoothing must be between 0\.0 and 1\.0\. Got: 1\.5/,
    ),
    errorCase(
      f([2, 3]),
      [f([2, 3])],
      { label_smoothing: 1.5 },
      ARG,
      /label_smoothing must be between 0\.0 and 1\.0\. Got: 1\.5/,
      'class probabilities, label_smoothing 1.5',
    ),
    errorCase(
      f([2, 3]),
      [f([2, 3])],
      { weight: f([4]) },
      ARG,
      /cross_entropy: weight tensor should be defined either for all 3 classes or no classes but got weight tensor of shape: \[4\]/,
    ),
    errorCase(f([2, 3]), [f([2])], {}, DTYPE, /expected scalar type Long but found Float/),
  ];
}

export function bceErrors(ctx: SampleContext): ErrorInput[] {
  const f = (shape: number[]) => f32(ctx)(shape, { low: 0.1, high: 0.9 });
  return [
    errorCase(
      f([2, 3]),
      [f([3])],
      {},
      SHAPE,
      /Using a target size \(torch\.Size\(\[3\]\)\) that is different to the input size \(torch\.Size\(\[2, 3\]\)\) is deprecated/,
    ),
    errorCase(
      f([2, 3]),
      [f([2, 3])],
      { weight: f([4]) },
      SHAPE,
      /The size of tensor a \(3\) must match the size of tensor b \(4\)/,
    ),
    errorCase(f([2, 3]), [f([2, 3]).double()], {}, DTYPE, /Found dtype Double but expected Float/),
    errorCase(
      f([2]).to('int64'),
      [f([2]).to('int64')],
      {},
      DTYPE,
      /"binary_cross_entropy" not implemented for 'Long'/,
    ),
    errorCase(f([2]), [f([2])], { reduction: 'avg' }, ARG, /avg is not a valid value for reduction/),
    {
      ...errorCase(
        f32(ctx)([2], { low: 1.5, high: 2 }),
        [f([2])],
        {},
        ARG,
        /all elements of input should be between 0 and 1/,
      ),
      valueDependent: "depends on the input's values, which only the device reads",
    },
  ];
}

export function bceLogitsErrors(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  return [
    errorCase(
      f([2, 3]),
      [f([3])],
      {},
      SHAPE,
      /Target size \(torch\.Size\(\[3\]\)\) must be the same as input size \(torch\.Size\(\[2, 3\]\)\)/,
    ),
    errorCase(
      f([2, 3]),
      [f([2, 3])],
      { pos_weight: f([4]) },
      SHAPE,
      /The size of tensor a \(4\) must match the size of tensor b \(3\)/,
    ),
    errorCase(
      f([2, 3]),
      [f([2, 3])],
      { weight: f([4]) },
      SHAPE,
      /The size of tensor a \(3\) must match the size of tensor b \(4\)/,
    ),
    errorCase(
      f([2]).to('int64'),
      [f([2]).to('int64')],
      {},
      DTYPE,
      /result type Float can't be cast to the desired output type Long/,
    ),
    errorCase(f([2]), [f([2])], { reduction: 'avg' }, ARG, /avg is not a valid value for reduction/),
  ];
}
