/**
 * Index-mapping kernels of the shape ops: tril/triu (copy or zero by the element's row and column) and the
 * flattened roll (element i of the output is element i - shift of the input in row-major order). Both read the
 * input at its strides and offset and write the output at its own, moving storage words unchanged (same dtype,
 * so int64 stays exact).
 */
import type { Tensor } from '../../core/index.ts';
import { gridFor, launch, linearIndex, Params, WORKGROUP } from './launch.ts';
import { blockOf, wgslStorage, wordsPer } from './memory.ts';

/** `var name` = storage offset of logical (row-major) element `idx` over the shape at words 1..nd. */
function offsetOf(name: string, nd: number, base: number, idx: string): string {
  const lines = [`  var ${name} = P[${base}];`, `  { var r = ${idx};`];
  for (let d = nd - 1; d >= 0; d--)
    lines.push(`    { let c = r % P[${1 + d}]; r = r / P[${1 + d}]; ${name} += c * P[${base + 1 + d}]; }`);
  lines.push('  }');
  return lines.join('\n');
}

/** Params: numel, shape, then out's offset and strides, then src's; returns the two bases. */
function layoutParams(out: Tensor, src: Tensor): { params: Params; bases: [number, number] } {
  const params = new Params().u32(out.numel);
  for (const s of out.shape) params.u32(s);
  const bases: number[] = [];
  for (const t of [out, src]) {
    bases.push(params.length);
    params.u32(t.storageOffset);
    for (const s of t.strides) params.u32(s);
  }
  return { params, bases: bases as [number, number] };
}

/** out[o] = src[s] or zero, word for word; `body` computes `so` and `keep` from `idx`. */
function mapKernel(out: Tensor, src: Tensor, pre: string, params: Params): void {
  const same = out.storage === src.storage;
  const ty = wgslStorage(out.dtype);
  const S = same ? 'B0' : 'B1';
  const two = wordsPer(out.dtype) === 2;
  const zero = ty === 'f32' ? '0.0' : ty === 'i32' ? '0' : '0u';
  const copy = two
    ? `B0[2u * oo] = ${S}[2u * so]; B0[2u * oo + 1u] = ${S}[2u * so + 1u];`
    : `B0[oo] = ${S}[so];`;
  const clear = two ? `B0[2u * oo] = ${zero}; B0[2u * oo + 1u] = ${zero};` : `B0[oo] = ${zero};`;
  const decls = [`@group(0) @binding(1) var<storage, read_write> B0: array<${ty}>;`];
  if (!same) decls.push(`@group(0) @binding(2) var<storage, read> B1: array<${ty}>;`);
  const code = `@group(0) @binding(0) var<storage, read> P: array<u32>;
${decls.join('\n')}
@compute @workgroup_size(${WORKGROUP})
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let idx = ${linearIndex()};
  if (idx >= P[0]) { return; }
${pre}
  if (keep) { ${copy} } else { ${clear} }
}`;
  const buffers = [blockOf(out.storage).buffer];
  if (!same) buffers.push(blockOf(src.storage).buffer);
  launch({ code, buffers, params: params.array(), grid: gridFor(out.numel) });
}

/**
 * tril (lower) / triu of `src` into `out` (same shape and dtype, ndim >= 2): elements with col - row <= k
 * (tril) or >= k (triu) are copied, the rest zeroed. `out` may be `src` itself (tril_).
 */
export function triangleGPU(out: Tensor, src: Tensor, lower: boolean, k: number): void {
  if (out.numel === 0) return;
  const nd = out.ndim;
  const { params, bases } = layoutParams(out, src);
  const kw = params.length;
  params.i32(Math.max(-(2 ** 31), Math.min(2 ** 31 - 1, k)));
  const pre = `${offsetOf('oo', nd, bases[0], 'idx')}
${offsetOf('so', nd, bases[1], 'idx')}
  let col = i32(idx % P[${nd}]);
  let row = i32((idx / P[${nd}]) % P[${nd - 1}]);
  let keep = (col - row) ${lower ? '<=' : '>='} bitcast<i32>(P[${kw}]);`;
  mapKernel(out, src, pre, params);
}

/**
 * The flattened roll: out element i (row-major) = src element (i - shift) mod numel. `out` must not share
 * storage with `src`.
 */
export function rollFlatGPU(out: Tensor, src: Tensor, shift: number): void {
  const n = out.numel;
  if (n === 0) return;
  const nd = out.ndim;
  const { params, bases } = layoutParams(out, src);
  const sw = params.length;
  params.u32((((-shift % n) + n) % n) >>> 0);
  const pre = `${offsetOf('oo', nd, bases[0], 'idx')}
${offsetOf('so', nd, bases[1], `(idx + P[${sw}]) % P[0]`)}
  let keep = true;`;
  mapKernel(out, src, pre, params);
}
