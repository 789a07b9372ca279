/**
 * The float32 / float64 matrix product in WebAssembly SIMD: out[n x m] = A[n x k] @ B[k x m], every operand
 * strided. A is packed into panels of 4 rows and B into panels of 4 columns (float64, zero-padded to a multiple
 * of 4), so the micro-kernel's inner step is one 32-byte read of each panel: 4 broadcast values of A times 2
 * f64x2 lanes of B into 8 accumulators (a 4x4 block of out). Sums are float64 in order p = 0..k-1, rounded once
 * on store (float32 out) like the JS kernels; a padded row or column is computed and never stored.
 */
import { type FuncSpec, lazyKernels, op, rangeLoop, vectorLoop, WasmKernels } from './emit.ts';
import { releasePool, threadPool } from './threads.ts';

// Params (A, B, C are byte addresses; column panels J0 <= jb < J1 of MTOT) and locals of the kernel.
const [A, B, C, NB, K, J0, J1, MTOT] = [0, 1, 2, 3, 4, 5, 6, 7];
const [IB, JB, P, AP, BP, CP, MSTRIDE] = [8, 9, 10, 11, 12, 13, 14];
const ACC = 15; // 8 accumulators: row r, columns 0-1 at ACC + 2r, columns 2-3 at ACC + 2r + 1
const [B0, B1, AV] = [23, 24, 25];

function microKernel(): number[] {
  const body: number[] = [];
  for (let r = 0; r < 4; r++) {
    body.push(...op.get(AP), ...op.v128Load64Splat(8 * r), ...op.set(AV));
    for (const [c, bv] of [
      [0, B0],
      [1, B1],
    ])
      body.push(
        ...op.get(ACC + 2 * r + c),
        ...op.get(AV),
        ...op.get(bv),
        ...op.f64x2Mul,
        ...op.f64x2Add,
        ...op.set(ACC + 2 * r + c),
      );
  }
  return body;
}

function gemmFunc(): FuncSpec {
  const zeroAccs = Array.from({ length: 8 }, (_, i) => [...op.v128Zero, ...op.set(ACC + i)]).flat();
  const storeRow = (r: number) => [
    ...op.get(CP),
    ...op.i32(r),
    ...op.get(MSTRIDE),
    ...op.i32Mul,
    ...op.i32Add,
    ...op.tee(P),
    ...op.get(ACC + 2 * r),
    ...op.v128Store(0),
    ...op.get(P),
    ...op.get(ACC + 2 * r + 1),
    ...op.v128Store(16),
  ];
  // The address of panel `idx` (K groups of 32 bytes) of the packed operand at `base`.
  const panel = (base: number, idx: number) => [
    ...op.get(base),
    ...op.get(idx),
    ...op.get(K),
    ...op.i32Mul,
    ...op.i32(32),
    ...op.i32Mul,
    ...op.i32Add,
  ];
  const body = [
    // MSTRIDE = 4 * MTOT columns * 8 bytes
    ...op.get(MTOT),
    ...op.i32(32),
    ...op.i32Mul,
    ...op.set(MSTRIDE),
    ...rangeLoop(
      JB,
      op.get(J0),
      op.get(J1),
      rangeLoop(IB, op.i32(0), op.get(NB), [
        ...zeroAccs,
        // AP = A + IB * K * 32, BP = B + JB * K * 32
        ...panel(A, IB),
        ...op.set(AP),
        ...panel(B, JB),
        ...op.set(BP),
        ...op.get(K),
        ...op.set(P),
        ...vectorLoop(
          [AP, BP],
          P,
          [
            ...op.get(BP),
            ...op.v128Load(0),
            ...op.set(B0),
            ...op.get(BP),
            ...op.v128Load(16),
            ...op.set(B1),
          ].concat(microKernel()),
          32,
        ),
        // CP = C + IB * 4 * MSTRIDE + JB * 32
        ...[
          ...op.get(C),
          ...op.get(IB),
          ...op.i32(4),
          ...op.i32Mul,
          ...op.get(MSTRIDE),
          ...op.i32Mul,
          ...op.i32Add,
        ],
        ...[...op.get(JB), ...op.i32(32), ...op.i32Mul, ...op.i32Add],
        ...op.set(CP),
        ...[0, 1, 2, 3].flatMap(storeRow),
      ]),
    ),
  ];
  return {
    name: 'gemm',
    params: new Array<'i32'>(8).fill('i32'),
    locals: [...new Array<'i32'>(7).fill('i32'), ...new Array<'v128'>(11).fill('v128')],
    body,
  };
}

/** 2 GiB of shared memory at most (packed operands of products far beyond any allocation limit here). */
const MAX_PAGES = 32768;
// No wasm SIMD (or no shared memory) here: callers keep their JS kernels.
const kernels = lazyKernels(() => new WasmKernels<'gemm'>([gemmFunc()], MAX_PAGES));

/** Packed operands up to this size keep their memory for the next product (32 MiB). */
const RETAIN_BYTES = 32 << 20;

/**
 * Callers (ops/gemm.ts, conv) send products of at least this many multiply-adds here; below it, packing costs
 * more than the SIMD kernel saves.
 */
export const WASM_GEMM_MIN_MACS = 64;

/** Products of at least this many multiply-adds split their column panels over the thread pool. */
export const THREAD_MIN_MACS = 1 << 21;

export const wasmGemmAvailable = (): boolean => kernels.get() !== null;

/** Bytes the gemm module's memory holds now (0 when none is instantiated): packed operands kept for reuse. */
export const gemmMemoryBytes = (): number => kernels.peek()?.memory.buffer.byteLength ?? 0;

/** A strided matrix of float values (a Float32Array or Float64Array at an element offset). */
export interface FloatMatrix {
  readonly arr: Float32Array | Float64Array;
  readonly off: number;
  readonly rs: number;
  readonly cs: number;
}

/** out = a @ b (n x k by k x m) through the SIMD kernel; false (nothing written) when wasm SIMD is missing. */
export function wasmGemm(out: FloatMatrix, a: FloatMatrix, b: FloatMatrix, n: number, k: number, m: number) {
  const w = kernels.get();
  if (!w) return false;
  const nb = Math.ceil(n / 4);
  const mb = Math.ceil(m / 4);
  const aLen = nb * 4 * k;
  const bLen = mb * 4 * k;
  const bytes = 8 * (aLen + bLen + nb * mb * 16);
  // Beyond the shared memory's maximum the JS kernel runs instead (it needs no packed copies).
  if (bytes > MAX_PAGES * 65536) return false;
  const mem = w.reserve(bytes).f64;
  pack(mem, 0, a, a.rs, a.cs, n, k, nb);
  pack(mem, aLen, b, b.cs, b.rs, m, k, mb);
  const c = aLen + bLen;
  const args = [0, 8 * aLen, 8 * c, nb, k];
  const threads = n * k * m >= THREAD_MIN_MACS ? threadPool(w.module, w.memory) : null;
  if (threads) threads.run(args, mb, (j0, j1) => w.fns.gemm(...args, j0, j1, mb));
  else w.fns.gemm(...args, 0, mb, mb);
  const O = out.arr;
  const m4 = mb * 4;
  for (let i = 0; i < n; i++) {
    const src = c + i * m4;
    const dst = out.off + i * out.rs;
    for (let j = 0; j < m; j++) O[dst + j * out.cs] = mem[src + j];
  }
  // A wasm memory never shrinks: after a product that grew it past RETAIN_BYTES, the module (and the pool's
  // workers, which share its memory) are dropped, so the packed copies do not outlive the call.
  if (bytes > RETAIN_BYTES) {
    kernels.drop();
    releasePool();
  }
  return true;
}

/**
 * Panels of 4 lines (A's rows, B's columns): line L = 4 * block + r starts at `off + L * lineStride`, its element
 * p at `+ p * pStride`; panel `block` holds k groups of its 4 lines' values at p (missing lines are 0).
 */
function pack(
  mem: Float64Array,
  at: number,
  x: FloatMatrix,
  lineStride: number,
  pStride: number,
  lines: number,
  k: number,
  blocks: number,
): void {
  const X = x.arr;
  for (let blk = 0; blk < blocks; blk++) {
    const base = at + blk * 4 * k;
    for (let r = 0; r < 4; r++) {
      const line = blk * 4 + r;
      if (line >= lines) {
        for (let p = 0; p < k; p++) mem[base + p * 4 + r] = 0;
        continue;
      }
      const start = x.off + line * lineStride;
      for (let p = 0; p < k; p++) mem[base + p * 4 + r] = X[start + p * pStride];
    }
  }
}
