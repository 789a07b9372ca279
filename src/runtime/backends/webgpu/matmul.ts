/**
 * The tiled matrix-multiply kernel behind mm, bmm, mv, dot and matmul on webgpu: out[b] = A[b] @ B[b] over a
 * (broadcast) batch. A workgroup of 16x8 invocations (the 128 a compatibility-mode adapter allows) computes
 * one output tile (16x16, 32x32 or 64x128 by problem size; each invocation accumulates a few rows and
 * columns in registers), staging K-slices of A and B in workgroup memory. Every operand is read (and the
 * output written) at its own strides and storage offset, so transposed and sliced inputs are never copied;
 * broadcast batch dims have stride 0. float32 accumulates in f32 (cpu accumulates in float64), int32/uint8
 * in wrapping i32 like cpu. */
import type { Tensor } from '../../core/index.ts';
import { gridFor, launch, Params } from './launch.ts';
import { blockOf, wgslStorage } from './memory.ts';
import { registerBlock } from './tile.ts';
import { computeValue, loadExpr, storeStmt } from './wgsl.ts';

/** A tensor seen as a batch of matrices: batch strides (over the output's batch dims), row and column strides. */
export interface GpuMatrix {
  readonly t: Tensor;
  readonly batchStrides: readonly number[];
  readonly rs: number;
  readonly cs: number;
}

/** Invocations per workgroup: 16 along the tile's columns, 8 along its rows (128, the compat limit). */
const TX = 16;
const TY = 8;
const TK = 16;

/** An output tile of TM x TN: each invocation accumulates rows ly + 8i and columns lx + 16j of it. */
interface TileShape {
  readonly tm: number;
  readonly tn: number;
}
/** Bigger tiles reuse each staged element more; small products keep small tiles (fewer idle invocations). */
const TILES: readonly TileShape[] = [
  { tm: 64, tn: 128 },
  { tm: 32, tn: 32 },
  { tm: 16, tn: 16 },
];
const tileFor = (n: number, m: number): TileShape =>
  TILES.find((t) => n >= 4 * t.tm && m >= 2 * t.tn) ?? TILES[TILES.length - 1];

function kernelSource(
  nb: number,
  out: Tensor,
  a: Tensor,
  b: Tensor,
  bindB: number,
  op: string,
  tile: TileShape,
): string {
  const vt = computeValue(out.dtype, op);
  const zero = vt === 'f32' ? '0.0' : '0';
  const { tm, tn } = tile;
  const [rm, rn] = [tm / TY, tn / TX];
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
  const threads = TX * TY;
  const block = registerBlock({
    rm,
    rn,
    tx: TX,
    ty: TY,
    tk: TK,
    type: vt,
    zero,
    store: (i, j, acc) => {
      const row = `(row0 + lid.y + ${i * TY}u)`;
      const col = `(col0 + lid.x + ${j * TX}u)`;
      return `  if (valid && ${row} < n && ${col} < m) { ${storeStmt('B0', `off0 + ${row} * ${p(0, 1)} + ${col} * ${p(0, 2)}`, out.dtype, acc, vt)} }`;
    },
  });
  return `@group(0) @binding(0) var<storage, read> P: array<u32>;
${decls.join('\n')}
var<workgroup> As: array<array<${vt}, ${TK}>, ${tm}>;
var<workgroup> Bs: array<array<${vt}, ${tn}>, ${TK}>;
@compute @workgroup_size(${TX}, ${TY})
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
  let row0 = tr * ${tm}u;
  let col0 = tc * ${tn}u;
  let li = lid.y * ${TX}u + lid.x;
${block.accs}
  let tiles = (k + ${TK - 1}u) / ${TK}u;
  for (var t = 0u; t < tiles; t++) {
    let k0 = t * ${TK}u;
    for (var e = li; e < ${tm * TK}u; e += ${threads}u) {
      let r = e / ${TK}u;
      let c = e % ${TK}u;
      var v: ${vt} = ${zero};
      if (row0 + r < n && k0 + c < k) { v = ${loadExpr('B1', `off1 + (row0 + r) * ${p(1, 1)} + (k0 + c) * ${p(1, 2)}`, a.dtype, vt)}; }
      As[r][c] = v;
    }
    for (var e = li; e < ${TK * tn}u; e += ${threads}u) {
      let r = e / ${tn}u;
      let c = e % ${tn}u;
      var v: ${vt} = ${zero};
      if (k0 + r < k && col0 + c < m) { v = ${loadExpr(`B${bindB}`, `off2 + (k0 + r) * ${p(2, 1)} + (col0 + c) * ${p(2, 2)}`, b.dtype, vt)}; }
      Bs[r][c] = v;
    }
${block.step}
  }
${block.stores}
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
  const tile = tileFor(n, m);
  const code = kernelSource(batch.length, out.t, a.t, b.t, sameAB ? 1 : 2, op, tile);
  const tilesM = Math.ceil(m / tile.tn);
  const tilesN = Math.ceil(n / tile.tm);
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
