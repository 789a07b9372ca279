/**
 * Reduction kernels: one workgroup per output element. Each invocation folds a strided share of the element's
 * inputs (read at the input's own strides and offset), then the workgroup folds the partial values in shared
 * memory as a tree and invocation 0 stores the result at the output's strides and offset.
 *
 * Accumulators: f32, i32 (wraps like the integer dtypes), or i64 = exact 64-bit two's complement held as
 * vec2<u32> (low, high) words, so integer sums and products into int64 match the cpu bit for bit.
 */
import { type DType, Tensor } from '../../core/index.ts';
import { alignedStrides, type FoldLayout, foldParams } from './fold_layout.ts';
import { gridFor, launch, Params } from './launch.ts';
import { blockOf, wgslStorage } from './memory.ts';
import { copyGPU } from './pointwise.ts';
import { helpersFor, loadExpr, storeStmt, type WgslValue } from './wgsl.ts';

/** Invocations per reduction workgroup (the compat adapter allows at most 128). */
export const REDUCE_WORKGROUP = 64;

export type GpuAcc = 'f32' | 'i32' | 'i64';
export type GpuFold = 'sum' | 'prod' | 'max' | 'min' | 'and' | 'or';
/** How an element is loaded: a compute type, or 'i64' (int64 both words, other dtypes sign-extended from i32). */
export type GpuLoad = WgslValue | 'i64';

export interface GpuReduce {
  readonly load: GpuLoad;
  /** WGSL over the loaded element `x` (and `m`, the aux value; scalars `s0`, ...) giving the folded value. */
  readonly map?: string;
  readonly acc: GpuAcc;
  readonly fold: GpuFold;
  /** WGSL over the folded `acc` (and `m`, `s0`, ...) giving the stored value; absent: `acc` itself. */
  readonly finish?: { readonly expr: string; readonly type: WgslValue };
  /** f32 scalars `s0`, `s1`, ... */
  readonly scalars?: readonly number[];
}

const ACC_TYPE: Record<GpuAcc, string> = { f32: 'f32', i32: 'i32', i64: 'vec2<u32>' };

const IDENTITY: Record<GpuAcc, Partial<Record<GpuFold, string>>> = {
  f32: { sum: '0.0', prod: '1.0', max: '-f_inf()', min: 'f_inf()' },
  i32: { sum: '0', prod: '1', max: 'bitcast<i32>(0x80000000u)', min: '2147483647', and: '1', or: '0' },
  i64: { sum: 'vec2<u32>(0u, 0u)', prod: 'vec2<u32>(1u, 0u)' },
};

const COMBINE: Record<GpuAcc, Partial<Record<GpuFold, string>>> = {
  f32: { sum: 'a + b', prod: 'a * b', max: 'nan_max(a, b)', min: 'nan_min(a, b)' },
  i32: { sum: 'a + b', prod: 'a * b', max: 'max(a, b)', min: 'min(a, b)', and: 'min(a, b)', or: 'max(a, b)' },
  i64: { sum: 'add64(a, b)', prod: 'mul64(a, b)' },
};

/** 64-bit integer words (low, high): WGSL has no 64-bit integers. */
const INT64_HELPERS: Record<string, string> = {
  ext64:
    'fn ext64(v: i32) -> vec2<u32> { return vec2<u32>(bitcast<u32>(v), select(0u, 0xffffffffu, v < 0)); }',
  add64:
    'fn add64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> { let lo = a.x + b.x; return vec2<u32>(lo, a.y + b.y + select(0u, 1u, lo < a.x)); }',
  mul64:
    'fn mul64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> { let a0 = a.x & 0xffffu; let a1 = a.x >> 16u; let b0 = b.x & 0xffffu; let b1 = b.x >> 16u; let p00 = a0 * b0; let p01 = a0 * b1; let p10 = a1 * b0; let mid = (p00 >> 16u) + (p01 & 0xffffu) + (p10 & 0xffffu); let lo = (p00 & 0xffffu) | (mid << 16u); let hi = a1 * b1 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u); return vec2<u32>(lo, hi + a.x * b.y + a.y * b.x); }',
};

/** The helpers (wgsl.ts ones and the int64 words) that `code` calls. */
export function kernelHelpers(code: string): string {
  const own = Object.entries(INT64_HELPERS)
    .filter(([name]) => new RegExp(`\\b${name}\\(`).test(code))
    .map(([, fn]) => fn);
  return [helpersFor(code), ...own].filter((s) => s).join('\n');
}

/** The element at offset `o` of binding `B` (of `dtype`) loaded as `load`. */
export function loadAs(B: string, o: string, dtype: DType, load: GpuLoad): string {
  if (load !== 'i64') return loadExpr(B, o, dtype, load);
  if (dtype === 'int64')
    return `vec2<u32>(bitcast<u32>(${B}[2u * (${o})]), bitcast<u32>(${B}[2u * (${o}) + 1u]))`;
  return `ext64(${loadExpr(B, o, dtype, 'i32')})`;
}

/** Stores `value` (of `type`, or 'i64' words) as element `o` of binding `B` of `dtype`. */
export function storeAs(B: string, o: string, dtype: DType, value: string, type: WgslValue | 'i64'): string {
  if (type !== 'i64') return storeStmt(B, o, dtype, value, type);
  if (dtype === 'int64')
    return `{ let v = ${value}; ${B}[2u * (${o})] = bitcast<i32>(v.x); ${B}[2u * (${o}) + 1u] = bitcast<i32>(v.y); }`;
  return storeStmt(B, o, dtype, `bitcast<i32>((${value}).x)`, 'i32');
}

/** True when a written tensor shares a storage with one read in the same dispatch. */
export function sharesStorage(
  written: readonly Tensor[],
  read: readonly (Tensor | null | undefined)[],
): boolean {
  return written.some((w) => read.some((r) => r && r.storage === w.storage));
}

/** Declarations of the distinct storages in binding order: written ones read_write, then read-only ones. */
export function bindings(
  written: readonly Tensor[],
  read: readonly Tensor[],
): { decls: string; buffers: GPUBuffer[] } {
  const all = [...written, ...read];
  const decls = all.map(
    (t, i) =>
      `@group(0) @binding(${i + 1}) var<storage, ${i < written.length ? 'read_write' : 'read'}> B${i + 1}: array<${wgslStorage(t.dtype)}>;`,
  );
  return { decls: decls.join('\n'), buffers: all.map((t) => blockOf(t.storage).buffer) };
}

export const scalarDecls = (base: number, n: number) =>
  Array.from({ length: n }, (_, i) => `  let s${i} = bitcast<f32>(P[${base + i}]);`).join('\n');

/** The shared-memory tree folding `sv` (and `si` when given) of one workgroup into element 0. */
export function treeFold(step: string): string {
  return `  workgroupBarrier();
  for (var s = ${REDUCE_WORKGROUP / 2}u; s > 0u; s = s >> 1u) {
    if (lid < s) { ${step} }
    workgroupBarrier();
  }`;
}

export const REDUCE_MAIN = `@compute @workgroup_size(${REDUCE_WORKGROUP})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32)`;

/**
 * out[...] = finish(fold over the `reduced` dims of map(input)), written at out's strides (out has the
 * reduced dims either removed or kept as size 1). `aux`, when given, is a contiguous float32 tensor with one
 * value `m` per output element (in row-major order of the kept dims), e.g. a mean computed by a first pass.
 */
export function runReduceGPU(
  k: GpuReduce,
  input: Tensor,
  reduced: readonly boolean[],
  out: Tensor,
  aux?: Tensor,
): void {
  if (out.numel === 0) return;
  if (sharesStorage([out], [input, aux])) {
    const tmp = Tensor.empty(out.shape, out.dtype, 'webgpu');
    runReduceGPU(k, input, reduced, tmp, aux);
    copyGPU(out, tmp);
    return;
  }
  const p = new Params();
  const layout = foldParams(p, input.shape, reduced, [
    { offset: input.storageOffset, strides: input.strides },
    { offset: out.storageOffset, strides: alignedStrides(out, reduced) },
  ]);
  const scalarBase = p.length;
  for (const s of k.scalars ?? []) p.f32(s);
  const read = aux ? [input, aux] : [input];
  const { decls, buffers } = bindings([out], read);
  launch({
    code: reduceCode(k, layout, input.dtype, out.dtype, decls, scalarBase, aux !== undefined),
    buffers,
    params: p.array(),
    grid: gridFor(layout.outer, 1),
  });
}

function reduceCode(
  k: GpuReduce,
  layout: FoldLayout,
  inDType: DType,
  outDType: DType,
  decls: string,
  scalarBase: number,
  hasAux: boolean,
): string {
  const T = ACC_TYPE[k.acc];
  const combine = COMBINE[k.acc][k.fold];
  const identity = IDENTITY[k.acc][k.fold];
  if (!combine || !identity) throw new Error(`webgpu reduce: no ${k.fold} over ${k.acc}`);
  const scalars = scalarDecls(scalarBase, k.scalars?.length ?? 0);
  const m = hasAux ? '  let m = B3[g];' : '';
  const finish = k.finish ?? { expr: 'acc', type: k.acc };
  const body = `
  let g = wid.x + wid.y * nwg.x;
  let live = g < P[${layout.outerWord}];
${layout.outerOffsets('g', ['xo', 'yo'])}
${scalars}
  var acc: ${T} = ${identity};
  if (live) {
${m}
    for (var j = lid; j < P[${layout.innerWord}]; j = j + ${REDUCE_WORKGROUP}u) {
${layout.innerOffsets('j', [0], ['xo'], ['o'])}
      let x = ${loadAs('B2', 'o', inDType, k.load)};
      acc = fold(acc, ${k.map ?? 'x'});
    }
  }
  sv[lid] = acc;
${treeFold('sv[lid] = fold(sv[lid], sv[lid + s]);')}
  if (live && lid == 0u) {
${m}
    let acc = sv[0];
    ${storeAs('B1', 'yo', outDType, `(${finish.expr})`, finish.type)}
  }`;
  const fold = `fn fold(a: ${T}, b: ${T}) -> ${T} { return ${combine}; }`;
  return `${kernelHelpers(body + fold)}
${fold}
@group(0) @binding(0) var<storage, read> P: array<u32>;
${decls}
var<workgroup> sv: array<${T}, ${REDUCE_WORKGROUP}>;
${REDUCE_MAIN} {${body}
}`;
}
