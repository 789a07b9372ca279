/**
 * Max and average pooling on webgpu (float32): one thread per output element of the (N, C, T, H, W) frame (2-d
 * pooling has T = 1), reading the input at its own strides and offset and writing the output (and the max's
 * int64 indices) at theirs. The window rules are the cpu kernel's: a NaN wins, ties keep the first maximum, the
 * average divides by divisor_override or the window's size with or without the padding.
 */
import type { Tensor } from '../../core/index.ts';
import { Bindings, kernelSource, onDevice, pushOperand } from './bind.ts';
import { gridFor, launch, Params } from './launch.ts';
import { storeStmt } from './wgsl.ts';

/** The window parameters, each as (T, H, W). */
export interface GpuPoolFrame {
  readonly lead: readonly number[];
  readonly inSize: readonly number[];
  readonly outSize: readonly number[];
  readonly k: readonly number[];
  readonly s: readonly number[];
  readonly p: readonly number[];
  readonly d: readonly number[];
}

export interface GpuPool {
  readonly kind: 'max' | 'avg';
  readonly input: Tensor;
  /** Strides of input, output and indices as (N, C, T, H, W). */
  readonly strides: { readonly input: number[]; readonly out: number[]; readonly indices?: number[] };
  readonly out: Tensor;
  readonly indices?: Tensor;
  readonly frame: GpuPoolFrame;
  readonly includePad?: boolean;
  /** 0: none. */
  readonly divisor?: number;
}

export function poolGPU(g: GpuPool): void {
  const f = g.frame;
  const numel = g.out.numel;
  if (numel === 0) return;
  const input = onDevice(g.input);
  const p = new Params().u32(numel);
  for (const n of [...f.lead, ...f.outSize]) p.u32(n);
  const xs = g.strides.input;
  const bases = [
    pushOperand(p, g.out.storageOffset, g.strides.out),
    pushOperand(p, input.storageOffset, [xs[0], xs[1], 0, 0, 0]),
  ];
  if (g.indices) bases.push(pushOperand(p, g.indices.storageOffset, g.strides.indices!));
  const G = p.length;
  for (const v of [...f.inSize, ...f.k, ...f.s, ...f.p, ...f.d, ...xs.slice(2)]) p.u32(v);
  p.u32(g.includePad ? 1 : 0).i32(g.divisor ?? 0);
  const b = g.indices ? new Bindings(g.out.storage, g.indices.storage) : new Bindings(g.out.storage);
  const O = b.of(g.out.storage);
  const I = g.indices ? b.of(g.indices.storage) : '';
  const X = b.of(input.storage);
  const offsets = bases
    .map((base, k) => {
      const terms = [0, 1, 2, 3, 4].map((d) => `c${d} * P[${base + 1 + d}]`).join(' + ');
      return `  let o${k} = P[${base}] + ${terms};`;
    })
    .join('\n');
  const q = (i: number) => `i32(P[${G + i}])`;
  const head = `  var r = idx;
  let c4 = r % P[5]; r = r / P[5]; let c3 = r % P[4]; r = r / P[4]; let c2 = r % P[3]; r = r / P[3];
  let c1 = r % P[2]; let c0 = r / P[2];
${offsets}
  let iT = ${q(0)}; let iH = ${q(1)}; let iW = ${q(2)};
  let kT = ${q(3)}; let kH = ${q(4)}; let kW = ${q(5)};
  let sT = ${q(6)}; let sH = ${q(7)}; let sW = ${q(8)};
  let pT = ${q(9)}; let pH = ${q(10)}; let pW = ${q(11)};
  let dT = ${q(12)}; let dH = ${q(13)}; let dW = ${q(14)};
  let xT = P[${G + 15}]; let xH = P[${G + 16}]; let xW = P[${G + 17}];`;
  const body = g.kind === 'max' ? maxBody(head, O, I, X) : avgBody(head, O, X, G);
  launch({ code: kernelSource(b, body), buffers: b.buffers(), params: p.array(), grid: gridFor(numel) });
}

function maxBody(head: string, O: string, I: string, X: string): string {
  return `${head}
  var t0 = i32(c2) * sT - pT; let t1 = min(t0 + (kT - 1) * dT + 1, iT); loop { if (t0 >= 0) { break; } t0 += dT; }
  var h0 = i32(c3) * sH - pH; let h1 = min(h0 + (kH - 1) * dH + 1, iH); loop { if (h0 >= 0) { break; } h0 += dH; }
  var w0 = i32(c4) * sW - pW; let w1 = min(w0 + (kW - 1) * dW + 1, iW); loop { if (w0 >= 0) { break; } w0 += dW; }
  var best = -f_inf();
  var at = (t0 * iH + h0) * iW + w0;
  for (var z = t0; z < t1; z += dT) {
    for (var y = h0; y < h1; y += dH) {
      for (var v = w0; v < w1; v += dW) {
        let val = ${X}[o1 + u32(z) * xT + u32(y) * xH + u32(v) * xW];
        if (val > best || is_nan(val)) { best = val; at = (z * iH + y) * iW + v; }
      }
    }
  }
  ${O}[o0] = best;
  ${storeStmt(I, 'o2', 'int64', 'at', 'i32')}`;
}

function avgBody(head: string, O: string, X: string, G: number): string {
  return `${head}
  let ta = i32(c2) * sT - pT; let tb = min(ta + kT, iT + pT); let t0 = max(ta, 0); let t1 = min(tb, iT);
  let ha = i32(c3) * sH - pH; let hb = min(ha + kH, iH + pH); let h0 = max(ha, 0); let h1 = min(hb, iH);
  let wa = i32(c4) * sW - pW; let wb = min(wa + kW, iW + pW); let w0 = max(wa, 0); let w1 = min(wb, iW);
  if (t0 >= t1 || h0 >= h1 || w0 >= w1) { ${O}[o0] = 0.0; return; }
  var sum = 0.0;
  for (var z = t0; z < t1; z++) {
    for (var y = h0; y < h1; y++) {
      for (var v = w0; v < w1; v++) { sum += ${X}[o1 + u32(z) * xT + u32(y) * xH + u32(v) * xW]; }
    }
  }
  let divisor = bitcast<i32>(P[${G + 19}]);
  var div = f32((tb - ta) * (hb - ha) * (wb - wa));
  if (P[${G + 18}] == 0u) { div = f32((t1 - t0) * (h1 - h0) * (w1 - w0)); }
  if (divisor != 0) { div = f32(divisor); }
  ${O}[o0] = sum / div;`;
}
