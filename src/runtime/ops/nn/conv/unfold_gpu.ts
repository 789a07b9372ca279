/**
 * im2col / col2im on webgpu, in runtime ops on strided views: im2col copies a [N, C, kh, kw, oh, ow] view of the
 * (zero-padded) input into the output; col2im adds each kernel offset's columns into a strided view of a padded
 * image (one add per offset, so overlapping windows accumulate), then copies the image's middle out.
 */
import { contiguousStrides, Tensor } from '../../../core/index.ts';
import { callTensor as t } from '../../op_helpers.ts';

/** Window geometry: kernel (kh, kw), dilation, padding, stride; `oh` x `ow` windows over an `h` x `w` image. */
export interface Blocks {
  readonly k: readonly number[];
  readonly d: readonly number[];
  readonly p: readonly number[];
  readonly s: readonly number[];
  readonly h: number;
  readonly w: number;
  readonly oh: number;
  readonly ow: number;
}

/** webgpu im2col: the windows as a strided view of the zero-padded input, copied into the output. */
export function im2colGPU(x: Tensor, out: Tensor, b: Blocks): void {
  const x4 = x.dim() === 4 ? x : t('unsqueeze', [x, 0]);
  const xp = b.p[0] || b.p[1] ? t('constant_pad_nd', [x4, [b.p[1], b.p[1], b.p[0], b.p[0]]]) : x4;
  const [sN, sC, sH, sW] = xp.strides;
  const [n, c] = xp.shape;
  const windows = t('as_strided', [
    xp,
    [n, c, b.k[0], b.k[1], b.oh, b.ow],
    [sN, sC, b.d[0] * sH, b.d[1] * sW, b.s[0] * sH, b.s[1] * sW],
    xp.storageOffset,
  ]);
  t('copy_', [t('view', [out, [n, c, b.k[0], b.k[1], b.oh, b.ow]]), windows]);
}

/** webgpu col2im: each kernel offset's columns added into a strided view of a padded image. */
export function col2imGPU(cols: Tensor, out: Tensor, b: Blocks): void {
  const o4 = out.dim() === 4 ? out : t('unsqueeze', [out, 0]);
  const [n, c] = o4.shape;
  const [hp, wp] = [b.h + 2 * b.p[0], b.w + 2 * b.p[1]];
  const padded = Tensor.empty([n, c, hp, wp], out.dtype, out.device, contiguousStrides([n, c, hp, wp]));
  t('zero_', [padded]);
  const blocks = t('view', [cols, [n, c, b.k[0], b.k[1], b.oh, b.ow]]);
  for (let ki = 0; ki < b.k[0]; ki++)
    for (let kj = 0; kj < b.k[1]; kj++) {
      const at = t('as_strided', [
        padded,
        [n, c, b.oh, b.ow],
        [c * hp * wp, hp * wp, b.s[0] * wp, b.s[1]],
        ki * b.d[0] * wp + kj * b.d[1],
      ]);
      t('add_', [at, t('select', [t('select', [blocks, 2, ki]), 2, kj])]);
    }
  t('copy_', [o4, t('narrow', [t('narrow', [padded, 2, b.p[0], b.h]), 3, b.p[1], b.w])]);
}
