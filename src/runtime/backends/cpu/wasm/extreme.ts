/**
 * The float32 max / min of a contiguous run in WebAssembly SIMD (amax, amin, max(), min(), and softmax's line
 * max): four running extremes (independent chains of pmax / pmin, one instruction each on x86) and an any-NaN
 * mask, since pmax drops NaN and PyTorch's max propagates it. Chunks are copied into the module's memory, padded
 * with -inf (max) or +inf (min). A result of ±0 is left to the caller's JS loop: which zero comes first decides
 * its sign there, and lanes do not keep that order.
 */
import {
  type ColumnFold,
  type FuncSpec,
  f32Splat,
  feedRows,
  lazyKernels,
  op,
  vectorLoop,
  WasmKernels,
} from './emit.ts';

export type Extreme = 'max' | 'min';
const PICK: Record<Extreme, number[]> = { max: op.simd(0xeb), min: op.simd(0xea) }; // f32x4.pmax / pmin
const NE = op.simd(0x42);
const OR = op.simd(0x50);
const NAN_MASK = 6;

/** row<which>(ptr, groups): groups of 4 vectors; the 4 lane extremes to bytes 0..15, the NaN mask to 16..31. */
export function extremeFunc(which: Extreme): FuncSpec {
  const start = which === 'max' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  const pick = PICK[which];
  return {
    name: `row${which}`,
    params: ['i32', 'i32'],
    locals: new Array(5).fill('v128'),
    body: [
      ...[0, 1, 2, 3].flatMap((u) => [...f32Splat(start), ...op.set(2 + u)]),
      ...op.v128Zero,
      ...op.set(NAN_MASK),
      ...vectorLoop(
        [0],
        1,
        [0, 1, 2, 3].flatMap((u) => [
          ...[...op.get(2 + u), ...op.get(0), ...op.v128Load(16 * u), ...pick, ...op.set(2 + u)],
          ...[
            ...op.get(NAN_MASK),
            ...op.get(0),
            ...op.v128Load(16 * u),
            ...op.get(0),
            ...op.v128Load(16 * u),
          ],
          ...[...NE, ...OR, ...op.set(NAN_MASK)],
        ]),
        64,
      ),
      ...[...op.get(2), ...op.get(3), ...pick, ...op.get(4), ...pick, ...op.get(5), ...pick, ...op.set(2)],
      ...[
        ...op.i32(0),
        ...op.get(2),
        ...op.v128Store(0),
        ...op.i32(0),
        ...op.get(NAN_MASK),
        ...op.v128Store(16),
      ],
    ],
  };
}

/** The lane results at the start of `f32` (a view of the module's memory): NaN if any lane saw one. */
export function laneExtreme(which: Extreme, f32: Float32Array): number {
  if (f32[4] !== 0 || f32[5] !== 0 || f32[6] !== 0 || f32[7] !== 0) return Number.NaN; // mask lanes: 0 or all ones
  return which === 'max'
    ? Math.max(f32[0], f32[1], f32[2], f32[3])
    : Math.min(f32[0], f32[1], f32[2], f32[3]);
}

/** Columns per pass of the column extreme; its running extremes, NaN masks and one row chunk are 48 KiB. */
const COL_CHUNK = 4096;
const MASKS = COL_CHUNK * 4; // bytes: the running extremes at 0, the NaN masks here, the row chunk after them
const ROW = COL_CHUNK * 8;

/**
 * col<which>(acc, row, groups): per column, acc = pmax(acc, row) (pmin for min) and mask |= row != row, over groups
 * of 4 columns. pmax(a, b) = a < b ? b : a keeps the running value on a tie, so the first of two equal values (and
 * of -0 and +0) stays, as in the sequential fold; the mask restores NaN, which pmax would drop.
 */
function columnFunc(which: Extreme): FuncSpec {
  const row = [...op.get(1), ...op.v128Load(0)];
  return {
    name: `col${which}`,
    params: ['i32', 'i32', 'i32'],
    locals: [],
    body: vectorLoop([0, 1], 2, [
      ...[...op.get(0), ...op.get(0), ...op.v128Load(0), ...row, ...PICK[which], ...op.v128Store(0)],
      ...[...op.get(0), ...op.get(0), ...op.v128Load(MASKS), ...row, ...row, ...NE, ...OR],
      ...op.v128Store(MASKS),
    ]),
  };
}

const kernels = lazyKernels(
  () =>
    new WasmKernels<'rowmax' | 'rowmin' | 'colmax' | 'colmin'>([
      extremeFunc('max'),
      extremeFunc('min'),
      columnFunc('max'),
      columnFunc('min'),
    ]),
);

const CHUNK = 8192;
const BASE = 32;

/** max / min of X[ix .. ix + n) (NaN if any element is NaN); null for no wasm SIMD or a ±0 result. */
export function wasmExtremeF32(which: Extreme, X: Float32Array, ix: number, n: number): number | null {
  const w = kernels.get()?.reserve(BASE + CHUNK * 4);
  if (!w) return null;
  const { f32 } = w;
  const pad = which === 'max' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  let best = pad;
  for (let s = 0; s < n; s += CHUNK) {
    const len = Math.min(CHUNK, n - s);
    f32.set(X.subarray(ix + s, ix + s + len), BASE / 4);
    const padded = Math.ceil(len / 16) * 16;
    f32.fill(pad, BASE / 4 + len, BASE / 4 + padded);
    w.fns[`row${which}`](BASE, padded / 16);
    const e = laneExtreme(which, f32);
    if (Number.isNaN(e)) return Number.NaN;
    best = which === 'max' ? Math.max(best, e) : Math.min(best, e);
  }
  return best === 0 ? null : best;
}

/**
 * Column extremes of float32 rows (amax(x, 0)), a ColumnFold per extreme: NaN propagating, with the same values and
 * the same zero signs as the sequential JS fold. The running extremes are float32 (acc holds float32 values or
 * ±inf, so the round trip is exact).
 */
export function wasmColExtremeF32(which: Extreme): ColumnFold {
  const pad = which === 'max' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  return (acc, io, X, ix, n0, n1, sx1) => {
    const w = kernels.get()?.reserve(ROW + COL_CHUNK * 4);
    if (!w) return false;
    const { f32, i32 } = w;
    const fold = w.fns[`col${which}`];
    for (let c = 0; c < n0; c += COL_CHUNK) {
      const len = Math.min(COL_CHUNK, n0 - c);
      const end = Math.ceil(len / 4) * 4;
      f32.set(acc.subarray(io + c, io + c + len), 0);
      f32.fill(pad, len, end);
      i32.fill(0, MASKS / 4, MASKS / 4 + end);
      f32.fill(pad, ROW / 4 + len, ROW / 4 + end);
      feedRows(f32, X, ix + c, n1, sx1, len, ROW / 4, () => fold(0, ROW, end / 4));
      for (let j = 0; j < len; j++) acc[io + c + j] = i32[MASKS / 4 + j] !== 0 ? Number.NaN : f32[j];
    }
    return true;
  };
}
