/**
 * The one cpu window walker of every pooling (max / avg, adaptive, fractional): every plane (batch x channel) of
 * a 1-, 2- or 3-d input is cut into windows given per spatial axis (a start, a count and a step per output
 * position: slidingWindows for max_pool / avg_pool, adaptiveWindows, fractional's samples), read through the
 * input's strides and written through the outputs' strides. Fewer than 3 spatial dims are padded in front
 * with size-1, stride-0 axes, so one blocked loop serves pool1d, pool2d and pool3d. Indices are flat within the
 * plane, as aten's (d * H + h) * W + w. The gradients are written in runtime ops (differentiable, for gradgrad):
 * one for every max pooling, one for every average pooling (separable over the same per-axis windows). The
 * webgpu kernel (backends/webgpu/pool.ts) is this walker in WGSL, with the same two window descriptions.
 */
import { numberReader, numberWriter } from '../../../backends/cpu/index.ts';
import { Tensor } from '../../../core/index.ts';
import { callTensor as t } from '../../op_helpers.ts';

const prod = (v: readonly number[]) => v.reduce((a, b) => a * b, 1);

/**
 * Where each output position's window starts along one axis, how many elements it reads, `step` apart (max_pool's
 * dilation; 1 by default), and, for avg_pool's count_include_pad, its extent including the padding (the size by
 * default).
 */
export interface AxisWindows {
  readonly start: Int32Array;
  readonly size: Int32Array;
  readonly step?: number;
  readonly extent?: Int32Array;
}

/**
 * max_pool / avg_pool's windows along one axis: output i's taps are i * stride - padding + j * dilation
 * (j < kernel) inside the input, so its first tap is the first of those >= 0 (an empty window keeps that start,
 * which max_pool reports as its index); its extent is the window clipped to the input plus the padding.
 */
export function slidingWindows(
  inSize: number,
  outSize: number,
  kernel: number,
  stride: number,
  padding: number,
  dilation: number,
): AxisWindows {
  const start = new Int32Array(outSize);
  const size = new Int32Array(outSize);
  const extent = new Int32Array(outSize);
  for (let i = 0; i < outSize; i++) {
    const raw = i * stride - padding;
    const end = Math.min(raw + (kernel - 1) * dilation + 1, inSize);
    let first = raw;
    while (first < 0) first += dilation;
    start[i] = first;
    size[i] = Math.max(Math.ceil((end - first) / dilation), 0);
    extent[i] = Math.min(raw + kernel, inSize + padding) - raw;
  }
  return { start, size, step: dilation, extent };
}

/** Adaptive windows: output i covers [floor(i * in / out), ceil((i + 1) * in / out)). */
export function adaptiveWindows(inSize: number, outSize: number): AxisWindows {
  const start = new Int32Array(outSize);
  const size = new Int32Array(outSize);
  for (let i = 0; i < outSize; i++) {
    start[i] = Math.floor((i * inSize) / outSize);
    size[i] = Math.ceil(((i + 1) * inSize) / outSize) - start[i];
  }
  return { start, size };
}

/** A tensor seen as planes [N, C] of a [D, H, W] volume (k spatial dims; N = 1 when unbatched). */
interface Planes {
  readonly n: number;
  readonly c: number;
  readonly sn: number;
  readonly sc: number;
  readonly size: readonly [number, number, number];
  readonly stride: readonly [number, number, number];
}

function planes(x: Tensor, k: number): Planes {
  const lead = x.ndim - k;
  const pad = 3 - k;
  const size = [1, 1, 1] as [number, number, number];
  const stride = [0, 0, 0] as [number, number, number];
  for (let a = 0; a < k; a++) {
    size[pad + a] = x.shape[lead + a];
    stride[pad + a] = x.strides[lead + a];
  }
  return {
    n: lead === 2 ? x.shape[0] : 1,
    sn: lead === 2 ? x.strides[0] : 0,
    c: x.shape[lead - 1],
    sc: x.strides[lead - 1],
    size,
    stride,
  };
}

/** The k spatial axes' windows, padded in front to 3 axes of one size-1 window each. */
function pad3(windows: readonly AxisWindows[]): readonly AxisWindows[] {
  const one = { start: new Int32Array(1), size: Int32Array.of(1) };
  return [...Array.from({ length: 3 - windows.length }, () => one), ...windows];
}

/**
 * Max over each window: the first maximum, or the last NaN (aten's `val > max || isnan(val)`), and its flat
 * index in the plane; an all -inf window keeps its first element's index.
 */
export function maxPoolCpu(
  x: Tensor,
  k: number,
  values: Tensor,
  indices: Tensor,
  windowsOf: (plane: number) => readonly AxisWindows[],
): void {
  const g = planes(x, k);
  const ov = planes(values, k);
  const oi = planes(indices, k);
  const read = numberReader(x.dtype);
  const write = numberWriter(values.dtype);
  const xs = x.storage.data!;
  const vs = values.storage.data!;
  const is = indices.storage.data as BigInt64Array;
  const [, H, W] = g.size;
  const [sD, sH, sW] = g.stride;
  for (let n = 0; n < g.n; n++)
    for (let c = 0; c < g.c; c++) {
      const [wd, wh, ww] = pad3(windowsOf(n * g.c + c));
      const base = x.storageOffset + n * g.sn + c * g.sc;
      const vb = values.storageOffset + n * ov.sn + c * ov.sc;
      const ib = indices.storageOffset + n * oi.sn + c * oi.sc;
      const [ed, eh, ew] = [wd.step ?? 1, wh.step ?? 1, ww.step ?? 1];
      for (let od = 0; od < wd.start.length; od++)
        for (let oh = 0; oh < wh.start.length; oh++)
          for (let ow = 0; ow < ww.start.length; ow++) {
            const [d0, h0, w0] = [wd.start[od], wh.start[oh], ww.start[ow]];
            const [d1, h1, w1] = [d0 + wd.size[od] * ed, h0 + wh.size[oh] * eh, w0 + ww.size[ow] * ew];
            let best = Number.NEGATIVE_INFINITY;
            let at = (d0 * H + h0) * W + w0;
            for (let d = d0; d < d1; d += ed)
              for (let h = h0; h < h1; h += eh) {
                const row = base + d * sD + h * sH;
                for (let w = w0; w < w1; w += ew) {
                  const v = read(xs, row + w * sW);
                  if (v > best || Number.isNaN(v)) {
                    best = v;
                    at = (d * H + h) * W + w;
                  }
                }
              }
            write(vs, vb + od * ov.stride[0] + oh * ov.stride[1] + ow * ov.stride[2], best);
            is[ib + od * oi.stride[0] + oh * oi.stride[1] + ow * oi.stride[2]] = BigInt(at);
          }
    }
}

/** A window's extent including the padding (its count where the axis has no padded extent). */
const extentOf = (a: AxisWindows, i: number, n: number) => (a.extent ? a.extent[i] : n);

/** Rounds to the dtype aten accumulates in. */
export type Accumulate = (v: number) => number;

/**
 * How a window's sum becomes its average, from the window's element count and extent per axis. By default
 * adaptive pooling's: divided by each axis's count in turn, each step rounded by `acc`.
 */
export type Divide = (
  sum: number,
  kd: number,
  kh: number,
  kw: number,
  ed: number,
  eh: number,
  ew: number,
) => number;

/**
 * The average of each window: its elements summed (each step rounded by `acc` to aten's accumulation type), then
 * `divide`d.
 */
export function avgPoolCpu(
  x: Tensor,
  k: number,
  out: Tensor,
  windows: readonly AxisWindows[],
  acc: Accumulate,
  divide: Divide = (sum, kd, kh, kw) => acc(acc(acc(sum / kd) / kh) / kw),
): void {
  const g = planes(x, k);
  const o = planes(out, k);
  const read = numberReader(x.dtype);
  const write = numberWriter(out.dtype);
  const xs = x.storage.data!;
  const os = out.storage.data!;
  const [sD, sH, sW] = g.stride;
  const [wd, wh, ww] = pad3(windows);
  for (let n = 0; n < g.n; n++)
    for (let c = 0; c < g.c; c++) {
      const base = x.storageOffset + n * g.sn + c * g.sc;
      const ob = out.storageOffset + n * o.sn + c * o.sc;
      for (let od = 0; od < wd.start.length; od++)
        for (let oh = 0; oh < wh.start.length; oh++)
          for (let ow = 0; ow < ww.start.length; ow++) {
            const [d0, h0, w0] = [wd.start[od], wh.start[oh], ww.start[ow]];
            const [kd, kh, kw] = [wd.size[od], wh.size[oh], ww.size[ow]];
            let sum = 0;
            for (let d = d0; d < d0 + kd; d++)
              for (let h = h0; h < h0 + kh; h++) {
                const row = base + d * sD + h * sH;
                for (let w = w0; w < w0 + kw; w++) sum = acc(sum + read(xs, row + w * sW));
              }
            const mean = divide(
              sum,
              kd,
              kh,
              kw,
              extentOf(wd, od, kd),
              extentOf(wh, oh, kh),
              extentOf(ww, ow, kw),
            );
            write(os, ob + od * o.stride[0] + oh * o.stride[1] + ow * o.stride[2], mean);
          }
    }
}

/**
 * Every max pooling's gradient (max_pool, adaptive, fractional) in runtime ops: each output's gradient added to
 * the input element its maximum came from, per plane (a scatter-add into [planes, plane] zeros). Differentiable
 * in grad (its derivative gathers), so gradgrad works. Sizes are spelled out: an empty batch leaves -1
 * undetermined.
 */
export function maxPoolBackward(
  grad: Tensor,
  indices: Tensor,
  inShape: readonly number[],
  nd: number,
): Tensor {
  const planes = prod(inShape.slice(0, inShape.length - nd));
  const per = prod(grad.shape.slice(grad.ndim - nd));
  const plane = prod(inShape.slice(inShape.length - nd));
  const zeros = t('zeros', [[planes, plane]], { dtype: grad.dtype, device: grad.device });
  const src = t('reshape', [grad, [planes, per]]);
  const flat = t('scatter', [zeros, 1, t('reshape', [indices, [planes, per]]), src], { reduce: 'add' });
  return t('reshape', [flat, [...inShape]]);
}

/** A cpu tensor of `shape` holding `v`. */
function hostTensor(v: readonly number[], shape: readonly number[], dtype: 'int64' | 'float64'): Tensor {
  const h = Tensor.empty([...shape], dtype, 'cpu');
  if (dtype === 'int64') (h.storage.data as BigInt64Array).set(v.map(BigInt));
  else (h.storage.data as Float64Array).set(v);
  return h;
}

/** Each output's mean per unit of its sum (`divide` of 1: the mean is linear in the sum), [Od, Oh, Ow]. */
function outputWeights(windows: readonly AxisWindows[], divide: Divide): number[] {
  const [wd, wh, ww] = pad3(windows);
  const w: number[] = [];
  wd.size.forEach((kd, od) => {
    wh.size.forEach((kh, oh) => {
      ww.size.forEach((kw, ow) => {
        w.push(divide(1, kd, kh, kw, extentOf(wd, od, kd), extentOf(wh, oh, kh), extentOf(ww, ow, kw)));
      });
    });
  });
  return w;
}

/**
 * Dim `d` of `g` (one entry per output position) spread onto `inSize` positions: each input position sums the
 * outputs whose windows hold it, picked (index_select) from g, padded with a zero appended to g where fewer
 * windows hold it than the most.
 */
function spreadAxis(g: Tensor, d: number, a: AxisWindows, inSize: number): Tensor {
  const zeroAt = a.start.length;
  const covers: number[][] = Array.from({ length: inSize }, () => []);
  a.start.forEach((first, o) => {
    for (let j = 0; j < a.size[o]; j++) covers[first + j * (a.step ?? 1)].push(o);
  });
  const width = covers.reduce((w, c) => Math.max(w, c.length), 1);
  const pick = covers.flatMap((c) => [...c, ...new Array(width - c.length).fill(zeroAt)]);
  const along = (n: number[]) => [...g.shape.slice(0, d), ...n, ...g.shape.slice(d + 1)];
  const zero = () => t('zeros', [along([1])], { dtype: g.dtype, device: g.device });
  const from = pick.includes(zeroAt) ? t('cat', [[g, zero()], d]) : g;
  const picked = t('index_select', [from, d, t('to', [hostTensor(pick, [pick.length], 'int64'), g.device])]);
  return width === 1 ? picked : t('sum', [t('reshape', [picked, along([inSize, width])]), [d + 1]]);
}

/**
 * Every average pooling's gradient (avg_pool, adaptive) in runtime ops: each output's gradient times its weight
 * (`divide` of 1 with the forward's window sizes; adaptive pooling's by default), added to every input element
 * of its window. A window is a product of per-axis windows, so the spreading is separable: per spatial axis, one
 * index_select of the outputs holding each input position (and a sum where windows overlap), work in proportion
 * to the taps, and a non-finite gradient reaches only its own window. Linear in grad, and differentiable (cat,
 * index_select and sum are), so gradgrad works.
 */
export function avgPoolBackward(
  grad: Tensor,
  inShape: readonly number[],
  windows: readonly AxisWindows[],
  divide: Divide = (sum, kd, kh, kw) => sum / kd / kh / kw,
): Tensor {
  const nd = windows.length;
  const lead = inShape.length - nd;
  const spatial = grad.shape.slice(lead);
  const weights = hostTensor(outputWeights(windows, divide), spatial, 'float64');
  let g = t('mul', [grad, t('to', [weights, grad.device, grad.dtype])]);
  windows.forEach((a, i) => {
    g = spreadAxis(g, lead + i, a, inShape[lead + i]);
  });
  return g;
}
