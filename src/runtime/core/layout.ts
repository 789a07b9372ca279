/**
 * Output layout of pointwise ops: TensorIterator's reorder_dimensions. Outputs follow the memory order of
 * the inputs (a transposed input gives a transposed output, channels_last stays channels_last).
 */
import { contiguousStrides, type Shape } from './shape.ts';

/** Strides of an operand of `shape` broadcast to `outShape` (0 on broadcast dims), as TensorIterator sees them. */
export function broadcastStridesFor(shape: Shape, strides: readonly number[], outShape: Shape): number[] {
  const n = outShape.length;
  const out = new Array<number>(n).fill(0);
  const off = n - shape.length;
  for (let i = 0; i < shape.length; i++) {
    out[off + i] = shape[i] === 1 && outShape[off + i] !== 1 ? 0 : strides[i];
  }
  return out;
}

/**
 * Permutation of dims, fastest-moving first, decided by the operands' strides (ambiguous comparisons fall
 * through to the next operand; equal strides put the smaller size first), as in aten/TensorIterator.cpp.
 */
export function iterationOrder(shape: Shape, operandStrides: readonly (readonly number[])[]): number[] {
  const nd = shape.length;
  const perm = Array.from({ length: nd }, (_, i) => nd - 1 - i);
  const shouldSwap = (d0: number, d1: number): number => {
    for (const st of operandStrides) {
      const s0 = st[d0];
      const s1 = st[d1];
      if (s0 === 0 || s1 === 0) continue;
      if (s0 < s1) return -1;
      if (s0 > s1) return 1;
      if (shape[d0] > shape[d1]) return 1;
    }
    return 0;
  };
  for (let i = 1; i < nd; i++) {
    let d1 = i;
    for (let d0 = i - 1; d0 >= 0; d0--) {
      const c = shouldSwap(perm[d0], perm[d1]);
      if (c > 0) {
        const t = perm[d0];
        perm[d0] = perm[d1];
        perm[d1] = t;
        d1 = d0;
      } else if (c < 0) break;
    }
  }
  return perm;
}

/** Dense strides for `shape` laid out in the given fastest-first order. */
export function stridesInOrder(shape: Shape, fastestFirst: readonly number[]): number[] {
  const strides = new Array<number>(shape.length);
  let acc = 1;
  for (const d of fastestFirst) {
    strides[d] = acc;
    acc *= Math.max(shape[d], 1);
  }
  return strides;
}

/** The strides PyTorch gives the output of a pointwise op over inputs with these shapes and strides. */
export function pointwiseOutputStrides(
  outShape: Shape,
  inputs: readonly { shape: Shape; strides: readonly number[] }[],
): number[] {
  if (outShape.length <= 1) return contiguousStrides(outShape);
  // TensorIterator's fast setup: inputs that are all contiguous over the output shape give a contiguous output.
  if (inputs.every((t) => sameShapeContiguous(t, outShape))) return contiguousStrides(outShape);
  const bs = inputs.map((t) => broadcastStridesFor(t.shape, t.strides, outShape));
  return stridesInOrder(outShape, iterationOrder(outShape, bs));
}

function sameShapeContiguous(t: { shape: Shape; strides: readonly number[] }, outShape: Shape): boolean {
  if (t.shape.length !== outShape.length) return false;
  let expected = 1;
  for (let d = outShape.length - 1; d >= 0; d--) {
    if (t.shape[d] !== outShape[d]) return false;
    if (outShape[d] !== 1 && t.strides[d] !== expected) return false;
    expected *= outShape[d];
  }
  return true;
}
