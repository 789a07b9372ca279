/**
 * The cpu loops shared by the adaptive and fractional poolings: every plane (batch x channel) of a 1-, 2- or
 * 3-d input is cut into windows given per spatial axis (a start and a size per output position), read through
 * the input's strides and written through the outputs' strides. Fewer than 3 spatial dims are padded in front
 * with size-1, stride-0 axes, so one blocked loop serves pool1d, pool2d and pool3d. Indices are flat within the
 * plane, as aten's (d * H + h) * W + w. The gradients are written in runtime ops (differentiable, for gradgrad).
 */
import { numberReader, numberWriter } from '../../../backends/cpu/index.ts';
import type { Tensor } from '../../../core/index.ts';
import { callTensor as t } from '../../op_helpers.ts';

/** Where each output position's window starts along one axis, and how many elements it has. */
export interface AxisWindows {
  readonly start: Int32Array;
  readonly size: Int32Array;
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
      for (let od = 0; od < wd.start.length; od++)
        for (let oh = 0; oh < wh.start.length; oh++)
          for (let ow = 0; ow < ww.start.length; ow++) {
            const [d0, h0, w0] = [wd.start[od], wh.start[oh], ww.start[ow]];
            const [d1, h1, w1] = [d0 + wd.size[od], h0 + wh.size[oh], w0 + ww.size[ow]];
            let best = Number.NEGATIVE_INFINITY;
            let at = (d0 * H + h0) * W + w0;
            for (let d = d0; d < d1; d++)
              for (let h = h0; h < h1; h++) {
                const row = base + d * sD + h * sH;
                for (let w = w0; w < w1; w++) {
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

/** Rounds to the dtype aten accumulates in. */
export type Accumulate = (v: number) => number;

/**
 * Mean over each window: summed and divided by the window's extent per axis as aten does, each step rounded by
 * `acc` to aten's accumulation type.
 */
export function avgPoolCpu(
  x: Tensor,
  k: number,
  out: Tensor,
  windows: readonly AxisWindows[],
  acc: Accumulate,
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
            const mean = acc(acc(acc(sum / kd) / kh) / kw);
            write(os, ob + od * o.stride[0] + oh * o.stride[1] + ow * o.stride[2], mean);
          }
    }
}

/**
 * The gradient of a max pooling (adaptive or fractional) in runtime ops: each output's gradient added at the
 * index its maximum came from, per plane. Differentiable in grad (its derivative gathers), so gradgrad works.
 */
export function maxPoolBackward(
  grad: Tensor,
  indices: Tensor,
  inputShape: readonly number[],
  k: number,
): Tensor {
  const lead = inputShape.slice(0, inputShape.length - k);
  const planeSize = inputShape.slice(lead.length).reduce((a, b) => a * b, 1);
  // Sizes spelled out: an empty batch leaves -1 undetermined.
  const outPlane = grad.shape.slice(lead.length).reduce((a, b) => a * b, 1);
  const g = t('reshape', [grad, [...lead, outPlane]]);
  const at = t('reshape', [indices, [...lead, outPlane]]);
  const zeros = t('zeros', [[...lead, planeSize]], { dtype: grad.dtype, device: grad.device });
  return t('reshape', [t('scatter', [zeros, -1, at, g], { reduce: 'add' }), inputShape]);
}

/** Weights [out, in] of one axis: 1 / window size inside each output's window. */
function windowWeights(inSize: number, outSize: number, like: Tensor): Tensor {
  const { start, size } = adaptiveWindows(inSize, outSize);
  const m = t('zeros', [[outSize, inSize]], { dtype: like.dtype });
  const write = numberWriter(like.dtype);
  const data = m.storage.data!;
  for (let o = 0; o < outSize; o++)
    for (let i = start[o]; i < start[o] + size[o]; i++) write(data, o * inSize + i, 1 / size[o]);
  return like.device === 'cpu' ? m : t('to', [m, like.device]);
}

/**
 * The gradient of adaptive average pooling: each output's gradient spread evenly over its window. The pooling is
 * separable (a window is a product of per-axis ranges), so this is one matmul per axis with that axis's weights:
 * linear in grad, and differentiable for gradgrad.
 */
export function avgPoolBackward(grad: Tensor, inputShape: readonly number[], k: number): Tensor {
  let g = grad;
  for (let d = inputShape.length - k; d < inputShape.length; d++) {
    const w = windowWeights(inputShape[d], grad.shape[d], grad);
    g = t('movedim', [t('matmul', [t('movedim', [g, d, -1]), w]), -1, d]);
  }
  return g;
}
