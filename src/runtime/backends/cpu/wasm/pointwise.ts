/**
 * Pointwise rows in WebAssembly SIMD: the ops whose row declares a `simd` lowering (add, sub, mul, div, neg, abs,
 * sqrt) on float32 (f32x4), float64 (f64x2) and int32 (i32x4), one instruction per vector. Each is IEEE's
 * correctly rounded operation, which is what the JS kernels compute too (a float64 +, -, *, / or sqrt of float32
 * values rounded once to float32 is the correctly rounded float32 result), and i32x4 wraps like the int32 store:
 * results are bit-identical to the JS loops. Operands are copied into the module's memory in chunks that stay in
 * cache; a broadcast operand (stride 0) is splatted into its chunk once.
 */
import type { StorageArray } from '../../../core/index.ts';
import { type FuncSpec, lazyKernels, op, vectorLoop, WasmKernels } from './emit.ts';

export type SimdOpName = 'add' | 'sub' | 'mul' | 'div' | 'neg' | 'abs' | 'sqrt';
type Lane = 'f32' | 'f64' | 'i32';

const OPCODES: Record<SimdOpName, Partial<Record<Lane, number>>> = {
  add: { f32: 0xe4, f64: 0xf0, i32: 0xae },
  sub: { f32: 0xe5, f64: 0xf1, i32: 0xb1 },
  mul: { f32: 0xe6, f64: 0xf2, i32: 0xb5 },
  div: { f32: 0xe7, f64: 0xf3 },
  neg: { f32: 0xe1, f64: 0xed, i32: 0xa1 },
  abs: { f32: 0xe0, f64: 0xec, i32: 0xa0 },
  sqrt: { f32: 0xe3, f64: 0xef },
};
const ARITY: Record<SimdOpName, 1 | 2> = { add: 2, sub: 2, mul: 2, div: 2, neg: 1, abs: 1, sqrt: 1 };
const LANE_OF: Partial<Record<string, Lane>> = { float32: 'f32', float64: 'f64', int32: 'i32' };
const BYTES: Record<Lane, number> = { f32: 4, f64: 8, i32: 4 };

/** dst[i] = a[i] (op) b[i] over `count` vectors: params (dst, a, [b,] count). */
function kernel(name: SimdOpName, lane: Lane, code: number): FuncSpec {
  const arity = ARITY[name];
  const count = arity + 1;
  const loads = Array.from({ length: arity }, (_, k) => [...op.get(k + 1), ...op.v128Load(0)]).flat();
  return {
    name: `${name}_${lane}`,
    params: new Array(count + 1).fill('i32'),
    locals: [],
    body: vectorLoop(
      Array.from({ length: count }, (_, l) => l),
      count,
      [...op.get(0), ...loads, ...op.simd(code), ...op.v128Store(0)],
    ),
  };
}

const FUNCS = (Object.keys(OPCODES) as SimdOpName[]).flatMap((name) =>
  (Object.entries(OPCODES[name]) as [Lane, number][]).map(([lane, code]) => kernel(name, lane, code)),
);

const kernels = lazyKernels(() => new WasmKernels<string>(FUNCS));

/** Elements per chunk: three float64 chunks (96 KiB) stay in L2. */
const CHUNK = 4096;

/** The SIMD kernel for `name` on `dtype`, or null (no lowering for that dtype, or no wasm SIMD here). */
export function simdKernel(name: SimdOpName, dtype: string): ((...a: number[]) => void) | null {
  const lane = LANE_OF[dtype];
  if (!lane || OPCODES[name][lane] === undefined) return null;
  return kernels.get()?.fns[`${name}_${lane}`] ?? null;
}

/**
 * One row of a pointwise op through `fn` (from `simdKernel`): operand 0 is the output (stride 1), the inputs have
 * stride 1 or 0, all of one dtype. False (nothing written) for any other row, which the JS loop then runs;
 * also for an input that shares the output's array at another offset (a chunk would read what it wrote).
 */
export function simdRow(
  fn: (...a: number[]) => void,
  dtype: string,
  n: number,
  arrays: readonly StorageArray[],
  offs: readonly number[],
  strides: readonly number[],
): boolean {
  if (strides[0] !== 1) return false;
  for (let k = 1; k < arrays.length; k++) {
    if (strides[k] !== 1 && strides[k] !== 0) return false;
    if (arrays[k] === arrays[0] && (offs[k] !== offs[0] || strides[k] !== 1)) return false;
  }
  const lane = LANE_OF[dtype]!;
  const bytes = BYTES[lane];
  const region = CHUNK * bytes;
  // The view of the module's memory in the operands' own element type (the JS arrays are Float32Array,
  // Float64Array or Int32Array; typed as Float64Array for the set / fill calls below).
  const view = kernels.get()!.reserve(region * arrays.length)[lane] as unknown as Float64Array;
  for (let k = 1; k < arrays.length; k++) {
    if (strides[k] === 0) view.fill(arrays[k][offs[k]] as number, k * CHUNK, (k + 1) * CHUNK);
  }
  const out = arrays[0] as Float64Array;
  const lanes = 16 / bytes;
  const ptrs = arrays.map((_, k) => k * region);
  for (let s = 0; s < n; s += CHUNK) {
    const len = Math.min(CHUNK, n - s);
    for (let k = 1; k < arrays.length; k++) {
      if (strides[k] === 1)
        view.set((arrays[k] as Float64Array).subarray(offs[k] + s, offs[k] + s + len), k * CHUNK);
    }
    if (ptrs.length === 2) fn(ptrs[0], ptrs[1], Math.ceil(len / lanes));
    else fn(ptrs[0], ptrs[1], ptrs[2], Math.ceil(len / lanes));
    out.set(view.subarray(0, len), offs[0] + s);
  }
  return true;
}
