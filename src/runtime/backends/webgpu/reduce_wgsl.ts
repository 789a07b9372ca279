/**
 * WGSL pieces shared by the reduction, arg-reduction, softmax and scan kernels: 64-bit integer words, loads and
 * stores through them, bindings, and the workgroup loops.
 *
 * Loops are budgeted: Mesa's llvmpipe stops every shader invocation after 65535 loop iterations in total (all
 * loops together, silently), so the shared-memory tree is unrolled and the per-invocation element loop handles
 * UNROLL elements per iteration. One output element (or softmax row) may then fold up to
 * 64 * 4 * 65535 ≈ 16.7M elements there (a third of that for softmax's three passes); real GPUs have no cap.
 */
/// <reference types="@webgpu/types" />
import type { DType, Tensor } from '../../core/index.ts';
import { blockOf, wgslStorage } from './memory.ts';
import { helpersFor, loadExpr, storeStmt, type WgslValue } from './wgsl.ts';

/** Invocations per reduction workgroup (the compat adapter allows at most 128). */
export const REDUCE_WORKGROUP = 64;
const UNROLL = 4;

export type GpuAcc = 'f32' | 'i32' | 'i64';
/** How an element is loaded: a compute type, or 'i64' (int64 both words, other dtypes sign-extended from i32). */
export type GpuLoad = WgslValue | 'i64';

export const ACC_TYPE: Record<GpuAcc, string> = { f32: 'f32', i32: 'i32', i64: 'vec2<u32>' };

/** 64-bit two's complement integers as (low, high) u32 words: WGSL has no 64-bit integers. */
const INT64_HELPERS: Record<string, string> = {
  ext64:
    'fn ext64(v: i32) -> vec2<u32> { return vec2<u32>(bitcast<u32>(v), select(0u, 0xffffffffu, v < 0)); }',
  add64:
    'fn add64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> { let lo = a.x + b.x; return vec2<u32>(lo, a.y + b.y + select(0u, 1u, lo < a.x)); }',
  // The low words' full 64-bit product from 16-bit halves, plus the cross terms into the high word.
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

/** Declarations `B1..` of the tensors' storages: written ones read_write, then read-only ones. */
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

export const scalarDecls = (base: number, n: number): string =>
  Array.from({ length: n }, (_, i) => `  let s${i} = bitcast<f32>(P[${base + i}]);`).join('\n');

/** `body` (which reads `j`) for every j = lid, lid + 64, ... below `n`, UNROLL of them per loop iteration. */
export function strideLoop(n: string, body: string): string {
  const W = REDUCE_WORKGROUP;
  const steps = Array.from({ length: UNROLL }, (_, u) =>
    u === 0
      ? `      { let j = jb;\n${body}\n      }`
      : `      { let j = jb + ${u * W}u; if (j < ${n}) {\n${body}\n      } }`,
  );
  return `    for (var jb = lid; jb < ${n}; jb = jb + ${UNROLL * W}u) {\n${steps.join('\n')}\n    }`;
}

/** The shared-memory tree folding element lid + s into lid, unrolled (no loop iterations spent). */
export function treeFold(step: string): string {
  const lines = ['  workgroupBarrier();'];
  for (let s = REDUCE_WORKGROUP / 2; s >= 1; s /= 2)
    lines.push(`  if (lid < ${s}u) { let s = ${s}u; ${step} }`, '  workgroupBarrier();');
  return lines.join('\n');
}

export const REDUCE_MAIN = `@compute @workgroup_size(${REDUCE_WORKGROUP})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32)`;
