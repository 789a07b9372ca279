/**
 * Convolution on webgpu (float32) as an implicit GEMM, for 1, 2 and 3 spatial dims and both directions: per batch
 * element and group, out[r, l] = sum_kk A[r, kk] * B[kk, l] with A the weight and B the im2col of the input
 * computed while staging (never materialised). A workgroup of 16x8 invocations (the compatibility limit of 128)
 * computes a 32x64 output tile from K-slices of 16 staged in workgroup memory, like matmul.ts. A transposed
 * convolution gathers instead: B[(c, k), y] = x[c, (y + padding - k * dilation) / stride] where that divides and
 * lands inside. Every tensor is read (and the output written) at its own strides and storage offset.
 */
import { DTypeUnsupportedError, type Tensor } from '../../core/index.ts';
import { gridFor, launch, Params } from './launch.ts';
import { blockOf } from './memory.ts';
import { registerBlock } from './tile.ts';

const TX = 16;
const TY = 8;
const TK = 16;
const TM = 32;
const TN = 64;

export interface GpuConvParams {
  readonly stride: readonly number[];
  readonly padding: readonly number[];
  readonly dilation: readonly number[];
  readonly transposed: boolean;
  readonly groups: number;
}

const pad3 = (xs: readonly number[], fill: number) => [...new Array(3 - xs.length).fill(fill), ...xs];

/** Parameter word indices (all u32; signed arithmetic happens in the shader). */
const W = {
  rows: 0,
  K: 1,
  L: 2,
  tilesM: 3,
  tilesN: 4,
  total: 5,
  groups: 6,
  xsz: 7,
  osz: 10,
  k: 13,
  s: 16,
  p: 19,
  d: 22,
  cinG: 25,
  x: 26, // off, batch, channel, 3 spatial
  w: 32, // off, out-dim, in-dim, 3 kernel
  o: 38, // off, batch, channel, 3 spatial
  b: 44, // off, stride
} as const;

function source(transposed: boolean, hasBias: boolean, bindings: number[]): string {
  const P = (i: number) => `i32(P[${i}])`;
  const d3 = (base: number, j: number) => P(base + j);
  const bufs = ['B0: array<f32>', 'B1: array<f32>', 'B2: array<f32>', 'B3: array<f32>'];
  const decls = [`@group(0) @binding(1) var<storage, read_write> ${bufs[0]};`];
  const seen = new Set<number>();
  for (const b of bindings)
    if (!seen.has(b)) {
      seen.add(b);
      decls.push(`@group(0) @binding(${b + 1}) var<storage, read> ${bufs[b]};`);
    }
  const [bx, bw, bb] = bindings.map((b) => `B${b}`);
  const kk = (v: string) => `
      let c = ${v} / kprod; let kr = ${v} % kprod;
      let k2 = kr % ${P(W.k + 2)}; let k1 = (kr / ${P(W.k + 2)}) % ${P(W.k + 1)}; let k0 = kr / (${P(W.k + 2)} * ${P(W.k + 1)});`;
  // A[r, kk]: the weight; a transposed weight is [cin, cout_g, k...].
  const aIndex = transposed
    ? `${P(W.w)} + (g * cinG + c) * ${P(W.w + 1)} + r * ${P(W.w + 2)}`
    : `${P(W.w)} + (g * rows + r) * ${P(W.w + 1)} + c * ${P(W.w + 2)}`;
  const spatial = [0, 1, 2]
    .map((j) =>
      transposed
        ? `let t${j} = y${j} + ${d3(W.p, j)} - k${j} * ${d3(W.d, j)}; let i${j} = t${j} / ${d3(W.s, j)};
      ok = ok && t${j} >= 0 && t${j} % ${d3(W.s, j)} == 0 && i${j} < ${d3(W.xsz, j)};`
        : `let i${j} = y${j} * ${d3(W.s, j)} - ${d3(W.p, j)} + k${j} * ${d3(W.d, j)};
      ok = ok && i${j} >= 0 && i${j} < ${d3(W.xsz, j)};`,
    )
    .join('\n      ');
  const pos = (v: string) =>
    `let y2 = ${v} % ${P(W.osz + 2)}; let y1 = (${v} / ${P(W.osz + 2)}) % ${P(W.osz + 1)}; let y0 = ${v} / (${P(W.osz + 2)} * ${P(W.osz + 1)});`;
  const [rm, rn] = [TM / TY, TN / TX];
  const block = registerBlock({
    rm,
    rn,
    tx: TX,
    ty: TY,
    tk: TK,
    type: 'f32',
    zero: '0.0',
    store: (i, j, acc) =>
      `  store((row0 + ${i * TY} + i32(lid.y)), (col0 + ${j * TX} + i32(lid.x)), ${acc}, valid);`,
  });
  const bias = hasBias ? ` + ${bb}[${P(W.b)} + (g * rows + r) * ${P(W.b + 1)}]` : '';
  return `@group(0) @binding(0) var<storage, read> P: array<u32>;
${decls.join('\n')}
var<workgroup> As: array<array<f32, ${TK}>, ${TM}>;
var<workgroup> Bs: array<array<f32, ${TN}>, ${TK}>;
var<private> n: i32;
var<private> g: i32;
fn store(r: i32, l: i32, v: f32, valid: bool) {
  let rows = ${P(W.rows)};
  if (!valid || r >= rows || l >= ${P(W.L)}) { return; }
  ${pos('l')}
  let at = ${P(W.o)} + n * ${P(W.o + 1)} + (g * rows + r) * ${P(W.o + 2)} + y0 * ${P(W.o + 3)} + y1 * ${P(W.o + 4)} + y2 * ${P(W.o + 5)};
  B0[at] = v${bias};
}
@compute @workgroup_size(${TX}, ${TY})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
  let rows = ${P(W.rows)}; let K = ${P(W.K)}; let L = ${P(W.L)};
  let cinG = ${P(W.cinG)};
  let kprod = ${P(W.k)} * ${P(W.k + 1)} * ${P(W.k + 2)};
  let gi = wid.x + wid.y * nwg.x;
  let valid = gi < P[${W.total}];
  let gg = i32(min(gi, P[${W.total}] - 1u));
  let tc = gg % ${P(W.tilesM)};
  let tr = (gg / ${P(W.tilesM)}) % ${P(W.tilesN)};
  let bi = gg / (${P(W.tilesM)} * ${P(W.tilesN)});
  n = bi / ${P(W.groups)};
  g = bi % ${P(W.groups)};
  let row0 = tr * ${TM};
  let col0 = tc * ${TN};
  let li = i32(lid.y) * ${TX} + i32(lid.x);
${block.accs}
  let tiles = (K + ${TK - 1}) / ${TK};
  for (var t = 0; t < tiles; t++) {
    let kk0 = t * ${TK};
    for (var e = li; e < ${TM * TK}; e += ${TX * TY}) {
      let r = row0 + e / ${TK};
      let q = kk0 + e % ${TK};
      var v = 0.0;
      if (r < rows && q < K) {${kk('q')}
        v = ${bw}[${aIndex} + k0 * ${P(W.w + 3)} + k1 * ${P(W.w + 4)} + k2 * ${P(W.w + 5)}];
      }
      As[e / ${TK}][e % ${TK}] = v;
    }
    for (var e = li; e < ${TK * TN}; e += ${TX * TY}) {
      let q = kk0 + e / ${TN};
      let l = col0 + e % ${TN};
      var v = 0.0;
      if (q < K && l < L) {${kk('q')}
        ${pos('l')}
        var ok = true;
      ${spatial}
        if (ok) {
          v = ${bx}[${P(W.x)} + n * ${P(W.x + 1)} + (g * cinG + c) * ${P(W.x + 2)} + i0 * ${P(W.x + 3)} + i1 * ${P(W.x + 4)} + i2 * ${P(W.x + 5)}];
        }
      }
      Bs[e / ${TN}][e % ${TN}] = v;
    }
${block.step}
  }
${block.stores}
}`;
}

/** out = conv(input, weight) + bias (or its transposed form) on webgpu; out is a fresh tensor. */
export function convGPU(
  input: Tensor,
  weight: Tensor,
  bias: Tensor | null,
  out: Tensor,
  p: GpuConvParams,
  op: string,
): void {
  for (const [x, arg] of [
    [input, 'input'],
    [weight, 'weight'],
  ] as const)
    if (x.dtype !== 'float32')
      throw new DTypeUnsupportedError(`convolution on webgpu supports float32 only, got ${x.dtype}`, {
        op,
        arg,
        got: x.dtype,
        expected: 'float32',
      });
  if (out.numel === 0) return;
  const G = p.groups;
  const kprod = weight.shape.slice(2).reduce((a, b) => a * b, 1);
  const rows = out.shape[1] / G;
  const cinG = input.shape[1] / G;
  const L = out.shape.slice(2).reduce((a, b) => a * b, 1);
  const K = cinG * kprod;
  const tilesM = Math.ceil(L / TN);
  const tilesN = Math.ceil(rows / TM);
  const total = tilesM * tilesN * input.shape[0] * G;
  const sp = (x: Tensor, fill: number) => pad3(x.shape.slice(2), fill);
  const words = new Params().u32(rows).u32(K).u32(L).u32(tilesM).u32(tilesN).u32(total).u32(G);
  for (const v of [
    ...sp(input, 1),
    ...sp(out, 1),
    ...sp(weight, 1),
    ...pad3(p.stride, 1),
    ...pad3(p.padding, 0),
    ...pad3(p.dilation, 1),
    cinG,
  ])
    words.u32(v);
  for (const x of [input, weight, out]) {
    words.u32(x.storageOffset).u32(x.strides[0]).u32(x.strides[1]);
    for (const s of pad3(x.strides.slice(2), 0)) words.u32(s);
  }
  words.u32(bias ? bias.storageOffset : 0).u32(bias ? bias.strides[0] : 0);
  // Distinct storages get distinct bindings (1 = input, then weight and bias unless they share one).
  const buffers = [blockOf(out.storage).buffer];
  const storages: Tensor['storage'][] = [];
  const bindingOf = (x: Tensor) => {
    let i = storages.indexOf(x.storage);
    if (i < 0) {
      storages.push(x.storage);
      buffers.push(blockOf(x.storage).buffer);
      i = storages.length - 1;
    }
    return i + 1;
  };
  const bindings = [bindingOf(input), bindingOf(weight), bias ? bindingOf(bias) : 0];
  const code = source(p.transposed, bias !== null, bias ? bindings : bindings.slice(0, 2));
  launch({ code, buffers, params: words.array(), grid: gridFor(total, 1) });
}
