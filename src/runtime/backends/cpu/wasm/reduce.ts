/**
 * The float32 sum of a contiguous run in WebAssembly SIMD: chunks are copied into the module's memory (zero-padded
 * to 8 elements) and folded into four f64x2 accumulators (each float32 widened exactly to float64), so the sum is
 * float64 like the JS loop's, in a fixed order: lane sums per chunk, chunks in sequence. Deterministic; it
 * differs from the sequential float64 sum only in float64's last bits (the float32 result it rounds to almost
 * never).
 */
import {
  type ColumnFold,
  type FuncSpec,
  feedRows,
  lazyKernels,
  op,
  vectorLoop,
  WasmKernels,
} from './emit.ts';

// sum_f32(ptr, count): count groups of 8 floats; the four f64x2 lane sums to bytes 0..63.
const [PTR, COUNT, V, A0] = [0, 1, 2, 3];
function accumulate(offset: number, acc: number): number[] {
  const add = (a: number, half: number[]) => [
    ...op.get(a),
    ...half,
    ...op.f64x2PromoteLow,
    ...op.f64x2Add,
    ...op.set(a),
  ];
  return [
    ...op.get(PTR),
    ...op.v128Load(offset),
    ...op.set(V),
    ...add(acc, op.get(V)),
    ...add(acc + 1, [...op.get(V), ...op.get(V), ...op.highHalf]),
  ];
}

const SUM_F32: FuncSpec = {
  name: 'sum_f32',
  params: ['i32', 'i32'],
  locals: new Array(5).fill('v128'),
  body: [
    ...[0, 1, 2, 3].flatMap((i) => [...op.v128Zero, ...op.set(A0 + i)]),
    ...vectorLoop([PTR], COUNT, [...accumulate(0, A0), ...accumulate(16, A0 + 2)], 32),
    ...[0, 1, 2, 3].flatMap((i) => [...op.i32(0), ...op.get(A0 + i), ...op.v128Store(16 * i)]),
  ],
};

// colsum_f32(acc, row, count): count groups of 4 floats; acc (float64, two vectors a group) += the row, widened.
const [ACC, ROW, GROUPS, R] = [0, 1, 2, 3];
const widenInto = (offset: number, half: number[]) => [
  ...op.get(ACC),
  ...op.get(ACC),
  ...op.v128Load(offset),
  ...half,
  ...op.f64x2PromoteLow,
  ...op.f64x2Add,
  ...op.v128Store(offset),
];
const COLSUM_F32: FuncSpec = {
  name: 'colsum_f32',
  params: ['i32', 'i32', 'i32'],
  locals: ['v128'],
  body: vectorLoop(
    [ROW, ACC],
    GROUPS,
    [
      ...[...op.get(ROW), ...op.v128Load(0), ...op.set(R)],
      ...widenInto(0, op.get(R)),
      ...widenInto(16, [...op.get(R), ...op.get(R), ...op.highHalf]),
    ],
    [16, 32],
  ),
};

const kernels = lazyKernels(() => new WasmKernels<'sum_f32' | 'colsum_f32'>([SUM_F32, COLSUM_F32]));

const CHUNK = 8192;
const BASE = 64; // bytes 0..63: the lane sums

/** The float64 sum of X[ix .. ix + n), or null when wasm SIMD is missing. */
export function wasmSumF32(X: Float32Array, ix: number, n: number): number | null {
  const w = kernels.get()?.reserve(BASE + CHUNK * 4);
  if (!w) return null;
  const { f32, f64: mem } = w;
  let total = 0;
  for (let s = 0; s < n; s += CHUNK) {
    const len = Math.min(CHUNK, n - s);
    f32.set(X.subarray(ix + s, ix + s + len), BASE / 4);
    const padded = Math.ceil(len / 8) * 8;
    f32.fill(0, BASE / 4 + len, BASE / 4 + padded);
    w.fns.sum_f32(BASE, padded / 8);
    total += mem[0] + mem[2] + (mem[4] + mem[6]) + (mem[1] + mem[3] + (mem[5] + mem[7]));
  }
  return total;
}

/** Columns per pass of the column sum: its float64 sums and one row chunk (48 KiB) stay in L1/L2. */
const COL_CHUNK = 4096;

/**
 * Column sums of float32 rows in WebAssembly SIMD (sum(x, 0)). Each sum widens exactly and adds in float64 in row
 * order, as the JS loop does: bit-identical to it. Columns go in chunks: their sums are copied into the module's
 * memory, each row's chunk added, the sums copied back.
 */
export const wasmColSumF32: ColumnFold = (acc, io, X, ix, n0, n1, sx1) => {
  const w = kernels.get()?.reserve(COL_CHUNK * 12);
  if (!w) return false;
  const { f32, f64 } = w;
  const rowAt = COL_CHUNK * 8; // bytes: the float64 sums first, then the row chunk
  for (let c = 0; c < n0; c += COL_CHUNK) {
    const len = Math.min(COL_CHUNK, n0 - c);
    const groups = Math.ceil(len / 4);
    f64.set(acc.subarray(io + c, io + c + len), 0);
    f32.fill(0, rowAt / 4 + len, rowAt / 4 + groups * 4);
    feedRows(f32, X, ix + c, n1, sx1, len, rowAt / 4, () => w.fns.colsum_f32(0, rowAt, groups));
    acc.set(f64.subarray(0, len), io + c);
  }
  return true;
};
