/**
 * float32 softmax lines in WebAssembly SIMD (f32x4), the way PyTorch's vectorised CPU kernel does them: the line's
 * max, then e = exp(x - max) with a polynomial exp (Cephes expf: Cody-Waite reduction by ln 2, a degree-6
 * polynomial, 2^k applied in two halves so subnormal results stay exact), the sum of e in float64, then
 * e * (1 / sum). Lines are copied into the module's memory and padded to a multiple of 4 with -inf, whose e is 0.
 * Inputs are x - max <= 0 (or NaN): no overflow clamp is needed; below -105 the result is 0 in float32.
 */
import { type FuncSpec, f32Splat, lazyKernels, op, vectorLoop, WasmKernels } from './emit.ts';
import { extremeFunc, laneExtreme } from './extreme.ts';

const i32Splat = (v: number) => [...op.i32(v), ...op.simd(0x11)];
const F = {
  add: op.simd(0xe4),
  sub: op.simd(0xe5),
  mul: op.simd(0xe6),
  // pmax(a, b) = a < b ? b : a: one maxps (f32x4.max's NaN and -0 rules cost a sequence on x86).
  pmax: op.simd(0xeb),
  iAdd: op.simd(0xae),
  iSub: op.simd(0xb1),
  iShl: op.simd(0xab),
  iShrS: op.simd(0xac),
  f64Add: op.f64x2Add,
};

const CEPHES = [
  1.98756915e-4, 1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2, 1.6666665459e-1, 5.0000001201e-1,
];
// x * log2(e) + 1.5 * 2^23 rounds to an integer k in the low mantissa bits: k as a float is (that - MAGIC), as
// an int (its bits - MAGIC's bits); no nearest / trunc_sat (a sequence each on x86).
const MAGIC = 12582912;
const MAGIC_BITS = 0x4b400000;

/** The exp's constants, splatted into v128 locals from `base` on before the loop (not once per vector). */
const CONSTS = [-105, Math.LOG2E, MAGIC, 0.693359375, -2.1219444e-4, 1, ...CEPHES];
const [C_MIN, C_LOG2E, C_MAGIC, C_C1, C_C2, C_ONE, C_POLY] = [0, 1, 2, 3, 4, 5, 6];
const I_BIAS = CONSTS.length;
const I_MAGIC = CONSTS.length + 1;
const N_CONSTS = CONSTS.length + 2;
const initConsts = (base: number) => [
  ...CONSTS.flatMap((c, i) => [...f32Splat(c), ...op.set(base + i)]),
  ...[...i32Splat(127), ...op.set(base + I_BIAS), ...i32Splat(MAGIC_BITS), ...op.set(base + I_MAGIC)],
];

/** exp of local `x` (clobbering locals x, k, p, ki; constants in locals from `c`), result on the stack. */
function expOf(x: number, k: number, p: number, ki: number, c: number): number[] {
  const mulAdd = (i: number) => [
    ...op.get(p),
    ...op.get(x),
    ...F.mul,
    ...op.get(c + i),
    ...F.add,
    ...op.set(p),
  ];
  const scale = (from: number[]) => [
    ...from,
    ...op.get(c + I_BIAS),
    ...F.iAdd,
    ...op.i32(23),
    ...F.iShl,
    ...F.mul,
  ];
  return [
    ...[...op.get(x), ...op.get(c + C_MIN), ...F.pmax, ...op.tee(x)],
    ...[...op.get(c + C_LOG2E), ...F.mul, ...op.get(c + C_MAGIC), ...F.add, ...op.tee(ki)],
    ...[...op.get(c + C_MAGIC), ...F.sub, ...op.set(k)],
    // x -= k * C1; x -= k * C2 (ln 2 = C1 + C2, C1 exact in a few bits)
    ...[...op.get(x), ...op.get(k), ...op.get(c + C_C1), ...F.mul, ...F.sub, ...op.set(x)],
    ...[...op.get(x), ...op.get(k), ...op.get(c + C_C2), ...F.mul, ...F.sub, ...op.set(x)],
    ...op.get(c + C_POLY),
    ...op.set(p),
    ...[1, 2, 3, 4, 5].flatMap((i) => mulAdd(C_POLY + i)),
    // p = p * x * x + x + 1
    ...[...op.get(p), ...op.get(x), ...F.mul, ...op.get(x), ...F.mul, ...op.get(x), ...F.add],
    ...[...op.get(c + C_ONE), ...F.add],
    // * 2^(k >> 1) * 2^(k - (k >> 1)), each a normal float for k in [-152, 0]
    ...[...op.get(ki), ...op.get(c + I_MAGIC), ...F.iSub, ...op.tee(ki)],
    ...scale([...op.i32(1), ...F.iShrS, ...op.tee(k)]),
    ...scale([...op.get(ki), ...op.get(k), ...F.iSub]),
  ];
}

const f32Param = (i: number) => [...op.get(i), 0xb6, ...op.simd(0x13)]; // f32.demote_f64, f32x4.splat

// expsum(src, dst, count, max): dst = exp(src - max); float64 lane sums of dst to bytes 0..31.
const [SRC, DST, COUNT, MAX, X, K, P, KI, ACC0, ACC1, E, M4] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const CONST0 = 12;
const EXPSUM: FuncSpec = {
  name: 'expsum',
  params: ['i32', 'i32', 'i32', 'f64'],
  locals: new Array(8 + N_CONSTS).fill('v128'),
  body: [
    ...[...op.v128Zero, ...op.set(ACC0), ...op.v128Zero, ...op.set(ACC1)],
    ...initConsts(CONST0),
    ...f32Param(MAX),
    ...op.set(M4),
    ...vectorLoop([SRC, DST], COUNT, [
      ...[...op.get(SRC), ...op.v128Load(0), ...op.get(M4), ...F.sub, ...op.set(X)],
      ...expOf(X, K, P, KI, CONST0),
      ...op.set(E),
      ...[...op.get(DST), ...op.get(E), ...op.v128Store(0)],
      ...[...op.get(ACC0), ...op.get(E), ...op.f64x2PromoteLow, ...F.f64Add, ...op.set(ACC0)],
      ...[...op.get(ACC1), ...op.get(E), ...op.get(E), ...op.highHalf, ...op.f64x2PromoteLow, ...F.f64Add],
      ...op.set(ACC1),
    ]),
    ...[
      ...op.i32(0),
      ...op.get(ACC0),
      ...op.v128Store(0),
      ...op.i32(0),
      ...op.get(ACC1),
      ...op.v128Store(16),
    ],
  ],
};

// scale(ptr, count, s): ptr *= float32(s).
const SCALE: FuncSpec = {
  name: 'scale',
  params: ['i32', 'i32', 'f64'],
  locals: [],
  body: vectorLoop([0], 1, [
    ...op.get(0),
    ...op.get(0),
    ...op.v128Load(0),
    ...f32Param(2),
    ...F.mul,
    ...op.v128Store(0),
  ]),
};

const kernels = lazyKernels(
  () => new WasmKernels<'rowmax' | 'expsum' | 'scale'>([extremeFunc('max'), EXPSUM, SCALE]),
);

const SCRATCH = 32; // bytes 0..31 hold a kernel's lane results
const MAX_LINE = 1 << 20;

/**
 * Softmax (or log_softmax) of one contiguous float32 line X[ix .. ix + n) into Y[iy ..); false when wasm SIMD is
 * missing (the caller keeps its JS kernel). log_softmax takes the max and the sum from the kernels and writes
 * (x - max) - log(sum) in float64, as the JS kernel does.
 */
export function wasmSoftmaxLine(
  kind: 'softmax' | 'log_softmax',
  X: Float32Array,
  ix: number,
  n: number,
  Y: Float32Array,
  iy: number,
): boolean {
  const w = kernels.get();
  // A line is copied whole (max, exp-sum and scale each read all of it) and a wasm memory never shrinks: lines
  // past MAX_LINE keep the JS kernel, so at most 8 MiB stay allocated.
  if (!w || n > MAX_LINE) return false;
  const count = Math.ceil(n / 16) * 4; // vectors, padded with -inf to whole groups of 4
  const src = SCRATCH;
  const dst = kind === 'softmax' ? src : src + count * 16;
  const { f32, f64 } = w.reserve(dst + count * 16);
  const s0 = src / 4;
  f32.set(X.subarray(ix, ix + n), s0);
  f32.fill(Number.NEGATIVE_INFINITY, s0 + n, s0 + count * 4);
  w.fns.rowmax(src, count / 4);
  const m = laneExtreme('max', f32);
  w.fns.expsum(src, dst, count, m);
  const sum = f64[0] + f64[2] + (f64[1] + f64[3]);
  if (kind === 'softmax') {
    w.fns.scale(src, count, 1 / sum);
    Y.set(f32.subarray(s0, s0 + n), iy);
    return true;
  }
  const ls = Math.log(sum);
  for (let j = 0; j < n; j++) Y[iy + j] = X[ix + j] - m - ls;
  return true;
}
