/**
 * The derivative of the gather pads, in runtime ops (so it is differentiable again, for gradgrad): dim by dim,
 * each output position's gradient goes back to the input position it was read from. The middle returns to the
 * (uncropped part of the) input; reflection's pads return flipped to the positions they mirror, replication's
 * pads sum into the edge, circular's pads return to the other end of the cropped window.
 */
import type { PadMode } from '../../../backends/webgpu/index.ts';
import type { Tensor } from '../../../core/index.ts';
import { callTensor as t } from '../../op_helpers.ts';

/** x padded with zeros by (l, r) along dim d. */
function padDim(x: Tensor, d: number, l: number, r: number): Tensor {
  const pad = new Array<number>(2 * (x.dim() - d)).fill(0);
  pad[pad.length - 2] = l;
  pad[pad.length - 1] = r;
  return t('constant_pad_nd', [x, pad]);
}

function foldDim(g: Tensor, mode: PadMode, d: number, l: number, r: number, n: number): Tensor {
  const [lp, rp, cl, cr] = [Math.max(l, 0), Math.max(r, 0), Math.max(-l, 0), Math.max(-r, 0)];
  const m = n - cl - cr;
  let gin = padDim(t('narrow', [g, d, lp, m]), d, cl, cr);
  if (lp > 0) {
    const left = t('narrow', [g, d, 0, lp]);
    const back =
      mode === 'reflect'
        ? padDim(t('flip', [left, [d]]), d, 1, n - 1 - lp)
        : mode === 'replicate'
          ? padDim(t('sum', [left, [d], true]), d, 0, n - 1)
          : padDim(left, d, cl + m - lp, cr);
    gin = t('add', [gin, back]);
  }
  if (rp > 0) {
    const right = t('narrow', [g, d, g.shape[d] - rp, rp]);
    const back =
      mode === 'reflect'
        ? padDim(t('flip', [right, [d]]), d, n - 1 - rp, 1)
        : mode === 'replicate'
          ? padDim(t('sum', [right, [d], true]), d, n - 1, 0)
          : padDim(right, d, cl, n - cl - rp);
    gin = t('add', [gin, back]);
  }
  return gin;
}

/** The input's gradient from the output's, `pairs` the (left, right) pads of every dim of the input. */
export function padBackward(
  grad: Tensor,
  mode: PadMode,
  pairs: readonly [number, number][],
  shape: readonly number[],
): Tensor {
  let g = grad;
  pairs.forEach(([l, r], d) => {
    if (l !== 0 || r !== 0) g = foldDim(g, mode, d, l, r, shape[d]);
  });
  return g;
}
