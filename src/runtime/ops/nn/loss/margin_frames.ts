/**
 * What multi_margin_loss and multilabel_margin_loss share: a frame is one row of a [N, C] input (a 1-D input is
 * one frame, a 0-dim input one frame of one class), read through the input's strides; aten's shape and dtype
 * checks; per-frame sums rounded in the input's dtype and a batch sum accumulated in double, as aten's kernels do.
 */
import { numberReader, numberWriter } from '../../../backends/cpu/index.ts';
import {
  DTYPE_INFO,
  DTypeUnsupportedError,
  NotImplementedError,
  ShapeMismatchError,
  type Tensor,
} from '../../../core/index.ts';
import { notImplementedFor, callTensor as t } from '../../op_helpers.ts';
import { Reduction } from './reduction.ts';

export const sizes = (x: Tensor) => `[${x.shape.join(', ')}]`;

/** A [N, C] view of the input's frames: element (n, c) at off + n * frameStride + c * colStride. */
export interface Frames {
  readonly input: Tensor;
  readonly target: Tensor;
  readonly nframe: number;
  readonly dim: number;
  readonly reduction: number;
}

export function frames(input: Tensor, target: Tensor, reduction: number): Frames {
  const nd = input.dim();
  if (!((nd === 2 && input.shape[1] !== 0) || (nd === 1 && input.shape[0] !== 0) || nd === 0))
    throw new ShapeMismatchError(
      `Expected non-empty vector or matrix with optional 0-dim batch size, but got: ${sizes(input)}`,
      { op: 'margin_loss', arg: 'self', got: sizes(input), expected: '0-dim, [C] or [N, C] with C > 0' },
    );
  const [nframe, dim] = nd <= 1 ? [1, nd === 0 ? 1 : input.shape[0]] : [input.shape[0], input.shape[1]];
  return { input, target, nframe, dim, reduction };
}

/** AT_DISPATCH_FLOATING_TYPES, then data_ptr<int64_t> of the target and data_ptr<scalar_t> of the weight. */
export function checkKernelDTypes(f: Frames, kernel: string, op: string, weight: Tensor | null = null): void {
  const { input, target } = f;
  if (input.dtype !== 'float32' && input.dtype !== 'float64')
    throw notImplementedFor(kernel, input.dtype, op);
  const expect = (x: Tensor, want: Tensor['dtype'], arg: string) => {
    if (x.dtype !== want)
      throw new DTypeUnsupportedError(
        `expected scalar type ${DTYPE_INFO[want].torchName} but found ${DTYPE_INFO[x.dtype].torchName}`,
        { op, arg, got: x.dtype, expected: want },
      );
  };
  expect(target, 'int64', 'target');
  if (weight) expect(weight, input.dtype, 'weight');
}

/** Reads frame n's element c (of a [N, C], [C] or 0-dim tensor). */
export function frameReader(x: Tensor): (n: number, c: number) => number {
  const read = numberReader(x.dtype);
  const data = x.storage.data!;
  const nd = x.dim();
  const [fs, cs] = nd === 2 ? [x.strides[0], x.strides[1]] : [0, nd === 1 ? x.strides[0] : 0];
  const off = x.storageOffset;
  return (n, c) => read(data, off + n * fs + c * cs);
}

/** The dtype's rounding of an intermediate (aten's scalar_t arithmetic). */
export const rounder = (x: Tensor) => (x.dtype === 'float32' ? Math.fround : (v: number) => v);

export function emptyLike(x: Tensor, shape: readonly number[], dtype = x.dtype): Tensor {
  return t('empty', [[...shape]], { dtype, device: x.device });
}

/** Writes per-frame losses (reduction none) or their double-precision mean / sum into `out`. */
export function writeLosses(out: Tensor, perFrame: Float64Array, reduction: number): void {
  const write = numberWriter(out.dtype);
  const data = out.storage.data!;
  if (out.dim() > 0) {
    for (let n = 0; n < perFrame.length; n++)
      write(data, out.storageOffset + n * out.strides[0], perFrame[n]);
    return;
  }
  let sum = 0;
  for (const v of perFrame) sum += v;
  write(data, out.storageOffset, reduction === Reduction.Mean ? sum / perFrame.length : sum);
}

/** The kernels read class targets on the host: no webgpu kernel. */
export const noWebgpu = (op: string) => () => {
  throw new NotImplementedError(`${op} has no webgpu kernel: its targets are read on the host`, {
    op,
    arg: 'self',
    got: 'webgpu',
    expected: 'cpu or meta',
  });
};
