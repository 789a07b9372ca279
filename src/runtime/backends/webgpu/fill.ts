/**
 * Factory kernels: a strided fill that stores a value's storage words bit for bit (so fill_ on a strided view
 * writes only that view, and int64 values outside the i32 range stay exact), and the arithmetic sequences
 * behind arange and linspace.
 */
import type { Tensor } from '../../core/index.ts';
import { gridFor, launch, linearIndex, Params, WORKGROUP } from './launch.ts';
import { blockOf, wgslStorage, wordsPer } from './memory.ts';
import { computeValue, storeStmt, stridedOffsets } from './wgsl.ts';

function header(t: Tensor): string {
  return `@group(0) @binding(0) var<storage, read> P: array<u32>;
@group(0) @binding(1) var<storage, read_write> B0: array<${wgslStorage(t.dtype)}>;
@compute @workgroup_size(${WORKGROUP})
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let idx = ${linearIndex()};
  if (idx >= P[0]) { return; }`;
}

/** Params shared by the strided kernels here: numel, shape, offset, strides (then the kernel's own words). */
function stridedParams(t: Tensor): Params {
  const p = new Params().u32(t.numel);
  for (const s of t.shape) p.u32(s);
  p.u32(t.storageOffset);
  for (const s of t.strides) p.u32(s);
  return p;
}

/**
 * Stores `words` (the element's storage words: one, or low and high for int64) into every element of `t`,
 * at its strides and offset.
 */
export function fillGPU(t: Tensor, words: readonly number[]): void {
  if (t.numel === 0) return;
  const nd = t.ndim;
  const params = stridedParams(t);
  const vbase = params.length;
  for (const w of words) params.u32(w);
  const ty = wgslStorage(t.dtype);
  const word = (i: number) => (ty === 'u32' ? `P[${vbase + i}]` : `bitcast<${ty}>(P[${vbase + i}])`);
  const store =
    wordsPer(t.dtype) === 2
      ? `B0[2u * o0] = ${word(0)}; B0[2u * o0 + 1u] = ${word(1)};`
      : `B0[o0] = ${word(0)};`;
  const code = `${header(t)}
${stridedOffsets(nd, [1 + nd])}
  ${store}
}`;
  launch({ code, buffers: [blockOf(t.storage).buffer], params: params.array(), grid: gridFor(t.numel) });
}

/** An arithmetic sequence: element i is `start + i * step` for i < mid, else `end - (numel - 1 - i) * step`. */
export interface Sequence {
  readonly start: number;
  readonly end: number;
  readonly step: number;
  readonly mid: number;
  /**
   * 'i32': exact wrapping integer arithmetic (integral bounds). 'f32': float32 arithmetic with start and step
   * rounded to float32, like CUDA's arange (cpu computes in float64 and rounds once: results may differ by
   * an ulp, more where start and i * step cancel).
   */
  readonly type: 'i32' | 'f32';
}

/**
 * Writes the sequence into a 1-D `t` (any dtype the device stores; int64 values are the i32 results
 * sign-extended, so the caller keeps them within the i32 range).
 */
export function sequenceGPU(t: Tensor, s: Sequence): void {
  if (t.numel === 0) return;
  if (t.dtype !== 'int64') computeValue(t.dtype, 'arange');
  const params = stridedParams(t);
  const vbase = params.length;
  const [a, b, st] = [vbase, vbase + 1, vbase + 2].map((i) =>
    s.type === 'f32' ? `bitcast<f32>(P[${i}])` : `bitcast<i32>(P[${i}])`,
  );
  for (const v of [s.start, s.end, s.step]) {
    if (s.type === 'f32') params.f32(v);
    else params.i32(v);
  }
  params.u32(s.mid);
  const value =
    s.type === 'f32'
      ? `select(fma(-${st}, f32(P[0] - 1u - idx), ${b}), fma(${st}, f32(idx), ${a}), idx < P[${vbase + 3}])`
      : `select(${b} - ${st} * i32(P[0] - 1u - idx), ${a} + ${st} * i32(idx), idx < P[${vbase + 3}])`;
  const code = `${header(t)}
${stridedOffsets(1, [2])}
  ${storeStmt('B0', 'o0', t.dtype, value, s.type)}
}`;
  launch({ code, buffers: [blockOf(t.storage).buffer], params: params.array(), grid: gridFor(t.numel) });
}
