/**
 * Drivers for reduction kernels, walking the input's own strides (no contiguous copies):
 * - runReduce: TensorIterator-style reduction. The accumulator is an operand with stride 0 along the reduced
 *   dims; dims are ordered and coalesced by planIteration and the two fastest go to a compiled 2-D loop.
 * - forEachLine: every 1-D line along one dim, outer dims in logical (row-major) order, for scans, softmax
 *   and index-returning reductions.
 */

import { numberWriter, planIteration } from '../../backends/cpu/index.ts';
import { contiguousStrides, DTYPE_INFO, integralRange, type Tensor } from '../../core/index.ts';
import type { ReduceLoop } from './codegen.ts';
import type { ReduceShape } from './dims.ts';

export type AccArray = Float64Array | BigInt64Array;

/** Strides of `t` counted in array elements (lanes), as kernels index storage. */
export function laneStrides(t: Tensor): number[] {
  const lanes = DTYPE_INFO[t.dtype].lanes;
  return t.strides.map((s) => s * lanes);
}

/** Folds every element of `input` into `acc` (contiguous over rs.keepShape, `lanes` per element). */
export function runReduce(
  loop: ReduceLoop,
  input: Tensor,
  rs: ReduceShape,
  acc: AccArray,
  lanes: 1 | 2,
  aux: Float64Array | null = null,
  k = 0,
): void {
  if (input.numel === 0) return;
  const cs = contiguousStrides(rs.keepShape);
  const accStrides = rs.keepShape.map((_, d) => (rs.reduced[d] ? 0 : cs[d] * lanes));
  const { sizes, strides } = planIteration(input.shape, [accStrides, laneStrides(input)]);
  const [sa, sx] = strides;
  const X = input.storage.data!;
  const nd = sizes.length;
  let io = 0;
  let ix = input.storageOffset * DTYPE_INFO[input.dtype].lanes;
  const call = () =>
    loop(
      sizes[0] ?? 1,
      sizes[1] ?? 1,
      acc,
      X,
      io,
      sa[0] ?? 0,
      sa[1] ?? 0,
      ix,
      sx[0] ?? 0,
      sx[1] ?? 0,
      aux,
      k,
    );
  if (nd <= 2) {
    call();
    return;
  }
  const counter = new Array<number>(nd).fill(0);
  for (;;) {
    call();
    let d = 2;
    for (; d < nd; d++) {
      counter[d]++;
      io += sa[d];
      ix += sx[d];
      if (counter[d] < sizes[d]) break;
      io -= sa[d] * sizes[d];
      ix -= sx[d] * sizes[d];
      counter[d] = 0;
    }
    if (d === nd) return;
  }
}

/** A fresh accumulator for `rs` filled with `init` (a number, or a bigint for exact integer reductions). */
export function makeAcc(rs: ReduceShape, lanes: 1 | 2, init: number): Float64Array;
export function makeAcc(rs: ReduceShape, lanes: 1 | 2, init: bigint): BigInt64Array;
export function makeAcc(rs: ReduceShape, lanes: 1 | 2, init: number | bigint): AccArray {
  let n = lanes;
  for (const s of rs.keepShape) n *= s;
  if (typeof init === 'bigint') return new BigInt64Array(n).fill(init);
  const a = new Float64Array(n);
  if (init !== 0) {
    if (lanes === 1) a.fill(init);
    else for (let i = 0; i < n; i += 2) a[i] = init;
  }
  return a;
}

/** 1-D line geometry of a tensor: a 0-dim tensor is one line of length 1. */
export function lineGeometry(t: Tensor, dim: number): { shape: number[]; strides: number[]; dim: number } {
  if (t.ndim === 0) return { shape: [1], strides: [0], dim: 0 };
  return { shape: [...t.shape], strides: laneStrides(t), dim };
}

/**
 * Calls line(ix, iy) for each line along `dim` of `shape`: ix/iy are the start offsets of operands X and Y
 * (strides sx/sy per dim, offsets offX/offY), visited with outer dims in row-major order.
 */
export function forEachLine(
  shape: readonly number[],
  dim: number,
  sx: readonly number[],
  offX: number,
  sy: readonly number[],
  offY: number,
  line: (ix: number, iy: number) => void,
): void {
  for (const s of shape) if (s === 0) return;
  const outer: number[] = [];
  for (let d = 0; d < shape.length; d++) if (d !== dim && shape[d] !== 1) outer.push(d);
  const nd = outer.length;
  const counter = new Array<number>(nd).fill(0);
  let ix = offX;
  let iy = offY;
  for (;;) {
    line(ix, iy);
    let k = nd - 1;
    for (; k >= 0; k--) {
      const d = outer[k];
      counter[k]++;
      ix += sx[d];
      iy += sy[d];
      if (counter[k] < shape[d]) break;
      ix -= sx[d] * shape[d];
      iy -= sy[d] * shape[d];
      counter[k] = 0;
    }
    if (k < 0) return;
  }
}

/** Strides of a contiguous result viewed with the reduced dim kept (size 1), for line walks. */
export function keptStrides(inputShape: readonly number[], dim: number, lanes: number): number[] {
  const keep = inputShape.map((s, d) => (d === dim ? 1 : s));
  return contiguousStrides(keep).map((s, d) => (d === dim ? 0 : s * lanes));
}

/** Stores exact integers held as bigints into an integer/bool output (wrapping to its width). */
export function storeBigInts(out: Tensor, acc: BigInt64Array): void {
  const data = out.storage.data!;
  if (out.dtype === 'int64') {
    (data as BigInt64Array).set(acc);
    return;
  }
  if (out.dtype === 'bool') {
    for (let i = 0; i < acc.length; i++) data[i] = acc[i] !== 0n ? 1 : 0;
    return;
  }
  const bits = DTYPE_INFO[out.dtype].itemsize * 8;
  const [lo] = integralRange(out.dtype);
  for (let i = 0; i < acc.length; i++) {
    data[i] = lo === 0n ? Number(BigInt.asUintN(bits, acc[i])) : Number(BigInt.asIntN(bits, acc[i]));
  }
}

/**
 * Stores a Float64Array accumulator into a fresh contiguous output, rounding to its dtype on store: a
 * complex output takes both lanes, a real output lane 0 (mapped through `f` when given).
 */
export function storeNumbers(
  out: Tensor,
  acc: Float64Array,
  lanes: 1 | 2,
  f?: (v: number, i: number) => number,
): void {
  const data = out.storage.data!;
  const n = out.numel;
  if (DTYPE_INFO[out.dtype].kind === 'complex') {
    if (lanes === 2) (data as Float32Array | Float64Array).set(acc.subarray(0, 2 * n));
    else {
      for (let i = 0; i < n; i++) {
        data[2 * i] = f ? f(acc[i], i) : acc[i];
        data[2 * i + 1] = 0;
      }
    }
    return;
  }
  const write = numberWriter(out.dtype);
  for (let i = 0; i < n; i++) {
    const v = acc[i * lanes];
    write(data, i, f ? f(v, i) : v);
  }
}
