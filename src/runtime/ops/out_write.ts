/**
 * How an out= overload writes its `out`: resized like at::native::resize_output (+ as_strided_) — an out of
 * another shape keeps its storage and offset when they are big enough, like resize_, and gets the strides the
 * op computed for its output (a transposed input gives a transposed out, like PyTorch); an out of the right
 * shape keeps its strides — but only once the kernel succeeded, and through a temporary when `out` is also
 * an input.
 */

import { copyInto } from '../backends/cpu/index.ts';
import { copyGPU } from '../backends/webgpu/index.ts';
import { contiguousStrides, type DType, sameShape, storageSpan, Tensor } from '../core/index.ts';

/** An out= tensor as it will be once resized (`target`, which kernels fill), and the resize itself (`commit`). */
export interface PendingOut {
  readonly target: Tensor;
  readonly commit: () => void;
}

/**
 * The resize in two steps, so that an out= call that raises leaves `out` as it was (PyTorch checks before it
 * writes): the kernel fills `target` — `out` itself when the shape is right, else a tensor with the new
 * geometry over out's storage, from out's storage offset, or, when that storage is too small, a fresh tensor
 * that `commit` copies in after growing the storage in place (resize_output's realloc: out's own elements keep
 * their values, every view of the storage sees the result) — and only `commit`, after the kernel succeeded,
 * gives `out` that geometry.
 */
export function pendingOut(out: Tensor, shape: readonly number[], strides?: readonly number[]): PendingOut {
  if (sameShape(out.shape, shape)) return { target: out, commit: () => {} };
  const st = strides ?? contiguousStrides(shape);
  const { storage, storageOffset: offset } = out;
  const need = offset + storageSpan(shape, st);
  if (need <= storage.numel) {
    const target = new Tensor(storage, [...shape], [...st], offset);
    return { target, commit: () => out.setStrided(storage, shape, st, offset) };
  }
  // Too small: the kernel fills a fresh tensor, and only once it succeeded does out's storage grow (a call that
  // raises, zero division found mid-kernel, leaves even its size as it was).
  const target = Tensor.empty(shape, out.dtype, out.device, st);
  return {
    target,
    commit: () => {
      storage.grow(need);
      // meta has no data to move, only the geometry.
      if (out.device !== 'meta') copyOn(new Tensor(storage, [...shape], [...st], offset), target);
      out.setStrided(storage, shape, st, offset);
    },
  };
}

/** For the injected-bug test of the out= aliasing check: false writes straight into an aliased `out`. */
export const outAliasing = { writeThrough: true };

/**
 * Runs `write` into `out`, or, when `out` is also an input (`op(x, out=x)`), into a temporary that is then
 * copied into `out`: a kernel that reads one element after writing another (flip, roll, mm, softmax, cumsum)
 * must not read its own output. Pointwise kernels would be safe either way; the check is one storage compare.
 */
export function writeThroughOut(out: Tensor, aliased: boolean, write: (t: Tensor) => void): void {
  if (!aliased || !outAliasing.writeThrough) {
    write(out);
    return;
  }
  const tmp = Tensor.empty(out.shape, out.dtype, out.device, out.strides);
  write(tmp);
  copyOn(out, tmp);
}

/** dst = src, strided, on the destination's device (both on one device). */
export function copyOn(dst: Tensor, src: Tensor): void {
  if (dst.device === 'webgpu') copyGPU(dst, src);
  else copyInto(dst, src);
}

/** What an op's meta function works out for one output: its geometry and dtype. */
export interface OutSpec {
  readonly shape: readonly number[];
  readonly dtype: DType;
  readonly strides?: readonly number[];
  /** Whatever the meta function worked out that the impl needs too (e.g. a pointwise plan): computed once. */
  readonly plan?: unknown;
}
