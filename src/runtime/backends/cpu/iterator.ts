/**
 * The strided iterator (TensorIterator's CPU loop). Given a shape and, per operand, strides and a storage
 * offset (in array elements), it orders dims fastest-first, drops size-1 dims, coalesces dims that are
 * contiguous for every operand, and calls a 1-D `row` kernel with per-operand start offsets and strides.
 * Broadcasting is stride 0, transposes and slices are just strides: no kernel ever needs a contiguous copy.
 */
import { iterationOrder } from '../../core/index.ts';

/** A 1-D inner loop: `n` elements starting at `offsets[k]` stepping `strides[k]` for operand k. */
export type RowKernel = (n: number, offsets: number[], strides: number[]) => void;

export interface IterPlan {
  /** Sizes fastest-first after coalescing; empty for a single element. */
  readonly sizes: number[];
  /** strides[k][d]: operand k's stride along coalesced dim d. */
  readonly strides: number[][];
}

export function planIteration(
  shape: readonly number[],
  operandStrides: readonly (readonly number[])[],
): IterPlan {
  const perm = iterationOrder(shape, operandStrides);
  const sizes: number[] = [];
  const strides: number[][] = operandStrides.map(() => []);
  for (const d of perm) {
    if (shape[d] === 1) continue;
    const last = sizes.length - 1;
    if (last >= 0 && operandStrides.every((st, k) => st[d] === strides[k][last] * sizes[last])) {
      sizes[last] *= shape[d];
      continue;
    }
    sizes.push(shape[d]);
    operandStrides.forEach((st, k) => {
      strides[k].push(st[d]);
    });
  }
  return { sizes, strides };
}

/** Tile edge (elements) for the blocked walk over two dims. */
const TILE = 64;

function allContiguous(shape: readonly number[], operandStrides: readonly (readonly number[])[]): boolean {
  for (const st of operandStrides) {
    let expected = 1;
    for (let d = shape.length - 1; d >= 0; d--) {
      if (shape[d] !== 1 && st[d] !== expected) return false;
      expected *= shape[d];
    }
  }
  return true;
}

/** Runs `row` over every element of `shape` for operands starting at `offsets`. */
export function forEachRow(
  shape: readonly number[],
  operandStrides: readonly (readonly number[])[],
  offsets: readonly number[],
  row: RowKernel,
): void {
  let numel = 1;
  for (const s of shape) numel *= s;
  if (numel === 0) return;
  const nOps = offsets.length;
  const offs = [...offsets];
  // Fast paths: one element, or every operand contiguous over the same shape (one row, stride 1).
  if (numel === 1) {
    row(1, offs, new Array(nOps).fill(0));
    return;
  }
  if (allContiguous(shape, operandStrides)) {
    row(numel, offs, new Array(nOps).fill(1));
    return;
  }
  const { sizes, strides } = planIteration(shape, operandStrides);
  if (sizes.length === 0) {
    row(1, offs, new Array(nOps).fill(0));
    return;
  }
  const inner = sizes[0];
  const innerStrides = strides.map((s) => s[0]);
  if (sizes.length === 1) {
    row(inner, offs, innerStrides);
    return;
  }
  // When operands disagree on the fastest dim (a + b.t()), walk dims 0 and 1 in square tiles so the operand
  // read across rows stays in cache; otherwise each row is one full pass over dim 0.
  const blocked =
    sizes[0] >= 2 * TILE &&
    sizes[1] >= 2 * TILE &&
    strides.some((st) => st[1] !== 0 && Math.abs(st[1]) < Math.abs(st[0]));
  const visit = (base: readonly number[]) => {
    if (!blocked) {
      for (let k = 0; k < nOps; k++) offs[k] = base[k];
      row(inner, offs, innerStrides);
      return;
    }
    for (let j0 = 0; j0 < sizes[1]; j0 += TILE) {
      for (let i0 = 0; i0 < sizes[0]; i0 += TILE) {
        const ni = Math.min(TILE, sizes[0] - i0);
        const jEnd = Math.min(j0 + TILE, sizes[1]);
        for (let j = j0; j < jEnd; j++) {
          for (let k = 0; k < nOps; k++) offs[k] = base[k] + i0 * strides[k][0] + j * strides[k][1];
          row(ni, offs, innerStrides);
        }
      }
    }
  };
  const first = blocked ? 2 : 1;
  const outerDims = sizes.length - first;
  const counter = new Array<number>(outerDims).fill(0);
  const base = [...offsets];
  for (;;) {
    visit(base);
    let d = 0;
    for (; d < outerDims; d++) {
      const dim = d + first;
      counter[d]++;
      for (let k = 0; k < nOps; k++) base[k] += strides[k][dim];
      if (counter[d] < sizes[dim]) break;
      for (let k = 0; k < nOps; k++) base[k] -= strides[k][dim] * sizes[dim];
      counter[d] = 0;
    }
    if (d === outerDims) return;
  }
}

/**
 * Storage indices (in logical elements) of every element of a strided tensor, in row-major logical order. Float64:
 * a small view can sit past index 2^31 of a large storage (4 GiB of int8), where int32 indices would wrap.
 */
export function logicalOffsets(
  shape: readonly number[],
  strides: readonly number[],
  offset: number,
): Float64Array {
  let n = 1;
  for (const s of shape) n *= s;
  const out = new Float64Array(n);
  if (n === 0) return out;
  const nd = shape.length;
  const idx = new Array<number>(nd).fill(0);
  let off = offset;
  for (let i = 0; i < n; i++) {
    out[i] = off;
    for (let d = nd - 1; d >= 0; d--) {
      idx[d]++;
      off += strides[d];
      if (idx[d] < shape[d]) break;
      off -= strides[d] * shape[d];
      idx[d] = 0;
    }
  }
  return out;
}
