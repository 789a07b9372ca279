/**
 * The tiled matrix-multiply kernel behind mm, bmm, mv, dot and matmul on webgpu: out[b] = A[b] @ B[b] over a
 * (broadcast) batch. Each workgroup computes a 16x16 output tile with 16x8 invocations (two rows each, within
 * the 128 invocations a compatibility-mode adapter allows), staging 16x16 tiles of A and B in workgroup
 * memory. Every operand is read (and the output written) at its own strides and storage offset, so
 * transposed and sliced inputs are never copied; broadcast batch dims have stride 0. float32 accumulates in
 * f32 (cpu accumulates in float64), int32/uint8 in wrapping i32 like cpu.
 */
import type { Tensor } from '../../core/index.ts';
import { gridFor, launch, Params } from './launch.ts';
import { blockOf, wgslStorage } from './memory.ts';
import { computeValue, loadExpr, storeStmt } from './wgsl.ts';

/** A tensor seen as a batch of matrices: batch strides (over the output's batch dims), row and column strides. */
export interface GpuMatrix {
  readonly t: Tensor;
  readonly batchStrides: readonly number[];
  readonly rs: number;
  readonly cs: number;
}

const TILE = 16;
const ROWS = 8; // invocations along the tile's rows; each computes rows r and r + 8

function kernelSource(nb: number, out: Tensor, a: Tensor, b: Tensor, bindB: number, op: string): string {
  const vt = computeValue(out.dtype, op);
  const zero = vt === 'f32' ? '0.0' : '0';
  // Params: n k m tilesM tilesN total | batch shape (nb) | per operand (o, a, b): offset rs cs batchStrides.
  const base = (i: number) => 6 + nb + i * (3 + nb);
  const offs = [0, 1, 2].map((i) => `  var off${i} = P[${base(i)}];`);
  const decomp: string[] = [];
  if (nb > 0) decomp.push('  var rb = bi;');
  for (let d = nb - 1; d >= 0; d--) {
    const upd = [0, 1, 2].map((i) => `off${i} += c * P[${base(i) + 3 + d}];`).join(' ');
    decomp.push(`  { let c = rb % P[${6 + d}]; rb = rb / P[${6 + d}]; ${upd} }`);
  }
  const decls = [
    `@group(0) @binding(1) var<storage, read_write> B0: array<${wgslStorage(out.dtype)}>;`,
    `@group(0) @binding(2) var<storage, read> B1: array<${wgslStorage(a.dtype)}>;`,
  ];
  if (bindB === 2) decls.push(`@group(0) @binding(3) var<storage, read> B2: array<${wgslStorage(b.dtype)}>;`);
  const p = (i: number, k: number) => `P[${base(i) + k}]`;
  const store = (acc: string, row: string) =>
    `if (valid && ${row} < n && col < m) { ${storeStmt('B0', `off0 + ${row} * ${p(0, 1)} + col * ${p(0, 2)}`, out.dtype, acc, vt)} }`;
  return `@group(0) @binding(0) var<storage, read> P: array<u32>;
${decls.join('\n')}
var<workgroup> As: array<array<${vt}, ${TILE}>, ${TILE}>;
var<workgroup> Bs: array<array<${vt}, ${TILE}>, ${TILE}>;
@compute @workgroup_size(${TILE}, ${ROWS})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
  let n = P[0]; let k = P[1]; let m = P[2];
  let g = wid.x + wid.y * nwg.x;
  let valid = g < P[5];
  let gg = min(g, P[5] - 1u);
  let tc = gg % P[3];
  let tr = (gg / P[3]) % P[4];
  let bi = gg / (P[3] * P[4]);
${offs.join('\n')}
${decomp.join('\n')}
  let row0 = tr * ${TILE}u;
  let col0 = tc * ${TILE}u;
  var acc0: ${vt} = ${zero};
  var acc1: ${vt} = ${zero};
  let tiles = (k + ${TILE - 1}u) / ${TILE}u;
  for (var t = 0u; t < tiles; t++) {
    for (var e = 0u; e < 2u; e++) {
      let li = lid.y * ${TILE}u + lid.x + e * ${TILE * ROWS}u;
      let r = li / ${TILE}u;
      let c = li % ${TILE}u;
      let ar = row0 + r;
      let ak = t * ${TILE}u + c;
      var av: ${vt} = ${zero};
      if (ar < n && ak < k) { av = ${loadExpr('B1', `off1 + ar * ${p(1, 1)} + ak * ${p(1, 2)}`, a.dtype, vt)}; }
      As[r][c] = av;
      let bk = t * ${TILE}u + r;
      let bc = col0 + c;
      var bv: ${vt} = ${zero};
      if (bk < k && bc < m) { bv = ${loadExpr(`B${bindB}`, `off2 + bk * ${p(2, 1)} + bc * ${p(2, 2)}`, b.dtype, vt)}; }
      Bs[r][c] = bv;
    }
    workgroupBarrier();
    for (var q = 0u; q < ${TILE}u; q++) {
      let w = Bs[q][lid.x];
      acc0 = acc0 + As[lid.y][q] * w;
      acc1 = acc1 + As[lid.y + ${ROWS}u][q] * w;
    }
    workgroupBarrier();
  }
  let col = col0 + lid.x;
  let r0 = row0 + lid.y;
  let r1 = r0 + ${ROWS}u;
  ${store('acc0', 'r0')}
  ${store('acc1', 'r1')}
}`;
}

/**
 * out[batch] = a[batch] @ b[batch] for every index of `batch` (the output's batch dims); a is n x k, b is
 * k x m. The output must not share storage with a or b (the caller multiplies into a temporary then).
 */
export function matmulGPU(
  out: GpuMatrix,
  a: GpuMatrix,
  b: GpuMatrix,
  batch: readonly number[],
  n: number,
  k: number,
  m: number,
  op = 'matmul',
): void {
  const count = batch.reduce((x, y) => x * y, 1);
  if (count * n * m === 0) return;
  const sameAB = a.t.storage === b.t.storage;
  const code = kernelSource(batch.length, out.t, a.t, b.t, sameAB ? 1 : 2, op);
  const tilesM = Math.ceil(m / TILE);
  const tilesN = Math.ceil(n / TILE);
  const total = tilesM * tilesN * count;
  const params = new Params().u32(n).u32(k).u32(m).u32(tilesM).u32(tilesN).u32(total);
  for (const s of batch) params.u32(s);
  for (const v of [out, a, b]) {
    params.u32(v.t.storageOffset).u32(v.rs).u32(v.cs);
    for (const s of v.batchStrides) params.u32(s);
  }
  const buffers = [blockOf(out.t.storage).buffer, blockOf(a.t.storage).buffer];
  if (!sameAB) buffers.push(blockOf(b.t.storage).buffer);
  launch({ code, buffers, params: params.array(), grid: gridFor(total, 1) });
}
