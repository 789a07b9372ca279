/**
 * The cpu pooling kernels: one loop nest over (N, C, T, H, W) serves 2-d and 3-d pooling (2-d has T = 1); the
 * input is read through its strides and offset, and every output element is written once, at the output's strides.
 */
import { numberReader, numberWriter } from '../../../backends/cpu/index.ts';
import type { Tensor } from '../../../core/index.ts';
import type { PoolGeometry } from './geometry.ts';

/** Sizes, strides and offsets padded to (N, C, T, H, W), so one loop nest serves 2-d and 3-d pooling. */
export interface Frame {
  readonly lead: number[];
  readonly inSize: number[];
  readonly outSize: number[];
  readonly k: number[];
  readonly s: number[];
  readonly p: number[];
  readonly d: number[];
}

export function frameOf(g: PoolGeometry): Frame {
  const pad3 = (v: readonly number[], fill: number) => [...new Array(3 - v.length).fill(fill), ...v];
  return {
    lead: g.lead.length === 2 ? [...g.lead] : [1, ...g.lead],
    inSize: pad3(g.input, 1),
    outSize: pad3(g.output, 1),
    k: pad3(g.kernel, 1),
    s: pad3(g.stride, 1),
    p: pad3(g.padding, 0),
    d: pad3(g.dilation, 1),
  };
}

/** Strides of a tensor with nd spatial dims, as (N, C, T, H, W). */
export function frameStrides(x: Tensor, nd: number): number[] {
  const lead = x.ndim - nd;
  const st = x.strides;
  const n = lead === 2 ? st[0] : 0;
  const c = st[lead - 1];
  const spatial = st.slice(lead);
  return [n, c, ...new Array(3 - nd).fill(0), ...spatial];
}

/**
 * Each output element is the maximum of its window (dilated, clipped to the input); a NaN wins (the last NaN of
 * the window, as aten's `val > max || isnan(val)`), ties keep the first maximum, and a window with no element
 * inside the input keeps -inf at its first in-bounds position, as aten does.
 */
export function maxPoolCpu(x: Tensor, g: PoolGeometry, out: Tensor, indices: Tensor): void {
  const f = frameOf(g);
  const read = numberReader(x.dtype);
  const write = numberWriter(out.dtype);
  const src = x.storage.data!;
  const dst = out.storage.data!;
  const ind = indices.storage.data as BigInt64Array;
  const [xn, xc, xt, xh, xw] = frameStrides(x, g.nd);
  const [on, oc, ot, oh, ow] = frameStrides(out, g.nd);
  const [inN, inC, inT, inH, inW] = frameStrides(indices, g.nd);
  const [T, H, W] = f.inSize;
  const [kT, kH, kW] = f.k;
  const [sT, sH, sW] = f.s;
  const [pT, pH, pW] = f.p;
  const [dT, dH, dW] = f.d;
  for (let n = 0; n < f.lead[0]; n++)
    for (let c = 0; c < f.lead[1]; c++) {
      const xb = x.storageOffset + n * xn + c * xc;
      const ob = out.storageOffset + n * on + c * oc;
      const ib = indices.storageOffset + n * inN + c * inC;
      for (let a = 0; a < f.outSize[0]; a++) {
        let t0 = a * sT - pT;
        const t1 = Math.min(t0 + (kT - 1) * dT + 1, T);
        while (t0 < 0) t0 += dT;
        for (let b = 0; b < f.outSize[1]; b++) {
          let h0 = b * sH - pH;
          const h1 = Math.min(h0 + (kH - 1) * dH + 1, H);
          while (h0 < 0) h0 += dH;
          for (let e = 0; e < f.outSize[2]; e++) {
            let w0 = e * sW - pW;
            const w1 = Math.min(w0 + (kW - 1) * dW + 1, W);
            while (w0 < 0) w0 += dW;
            let best = Number.NEGATIVE_INFINITY;
            let at = (t0 * H + h0) * W + w0;
            for (let z = t0; z < t1; z += dT)
              for (let y = h0; y < h1; y += dH) {
                const row = xb + z * xt + y * xh;
                for (let v = w0; v < w1; v += dW) {
                  const val = read(src, row + v * xw);
                  if (val > best || Number.isNaN(val)) {
                    best = val;
                    at = (z * H + y) * W + v;
                  }
                }
              }
            write(dst, ob + a * ot + b * oh + e * ow, best);
            ind[ib + a * inT + b * inH + e * inW] = BigInt(at);
          }
        }
      }
    }
}

/**
 * Each output element is its window's sum (clipped to the input) over divisor_override, or the window's size
 * counting the padding inside input + padding (count_include_pad) or not; int64 divides with truncation, as C++.
 */
export function avgPoolCpu(
  x: Tensor,
  g: PoolGeometry,
  out: Tensor,
  includePad: boolean,
  divisor: number | null,
): void {
  const f = frameOf(g);
  const read = numberReader(x.dtype);
  const write = numberWriter(out.dtype);
  const isInt = x.dtype === 'int64';
  const src = x.storage.data!;
  const dst = out.storage.data!;
  const [xn, xc, xt, xh, xw] = frameStrides(x, g.nd);
  const [on, oc, ot, oh, ow] = frameStrides(out, g.nd);
  const [T, H, W] = f.inSize;
  const [kT, kH, kW] = f.k;
  const [sT, sH, sW] = f.s;
  const [pT, pH, pW] = f.p;
  for (let n = 0; n < f.lead[0]; n++)
    for (let c = 0; c < f.lead[1]; c++) {
      const xb = x.storageOffset + n * xn + c * xc;
      const ob = out.storageOffset + n * on + c * oc;
      for (let a = 0; a < f.outSize[0]; a++) {
        const ta = a * sT - pT;
        const tb = Math.min(ta + kT, T + pT);
        const [t0, t1] = [Math.max(ta, 0), Math.min(tb, T)];
        for (let b = 0; b < f.outSize[1]; b++) {
          const ha = b * sH - pH;
          const hb = Math.min(ha + kH, H + pH);
          const [h0, h1] = [Math.max(ha, 0), Math.min(hb, H)];
          for (let e = 0; e < f.outSize[2]; e++) {
            const wa = e * sW - pW;
            const wb = Math.min(wa + kW, W + pW);
            const [w0, w1] = [Math.max(wa, 0), Math.min(wb, W)];
            const o = ob + a * ot + b * oh + e * ow;
            if (t0 >= t1 || h0 >= h1 || w0 >= w1) {
              write(dst, o, 0);
              continue;
            }
            let sum = 0;
            for (let z = t0; z < t1; z++)
              for (let y = h0; y < h1; y++) {
                const row = xb + z * xt + y * xh;
                for (let v = w0; v < w1; v++) sum += read(src, row + v * xw);
              }
            const div =
              divisor ?? (includePad ? (tb - ta) * (hb - ha) * (wb - wa) : (t1 - t0) * (h1 - h0) * (w1 - w0));
            write(dst, o, isInt ? Math.trunc(sum / div) : sum / div);
          }
        }
      }
    }
}
