/**
 * References for the *_scatter ops: self's values with the view region replaced by src. The region is found
 * by applying the view's own reference to a tensor of flat indices (element k of the view sits at self's flat
 * index `region.re[k]`), so each scatter reuses its view's reference and nothing here calls the runtime.
 */
import { numelOf, type RefTensor } from './tensor.ts';
import { asStridedRef, convertRef, diagonalRef, selectRef, sliceRef } from './views.ts';

/** `self` with `self[region(self)] = src` (src cast to self's dtype; its shape must be the region's). */
export function scatterRef(self: RefTensor, src: RefTensor, region: (x: RefTensor) => RefTensor): RefTensor {
  const n = numelOf(self.shape);
  const flat: RefTensor = {
    shape: self.shape,
    dtype: 'float64',
    re: Float64Array.from({ length: n }, (_, i) => i),
    im: null,
  };
  const at = region(flat).re;
  const s = convertRef(src, self.dtype);
  const re = self.re.slice();
  const im = self.im ? self.im.slice() : null;
  at.forEach((j, k) => {
    re[j] = s.re[k];
    if (im) im[j] = s.im ? s.im[k] : 0;
  });
  return { shape: [...self.shape], dtype: self.dtype, re, im };
}

export const sliceScatterRef = (
  self: RefTensor,
  src: RefTensor,
  dim = 0,
  start: number | null = null,
  end: number | null = null,
  step = 1,
): RefTensor => scatterRef(self, src, (x) => sliceRef(x, dim, start, end, step));

export const selectScatterRef = (self: RefTensor, src: RefTensor, dim: number, index: number): RefTensor =>
  scatterRef(self, src, (x) => selectRef(x, dim, index));

export const diagonalScatterRef = (
  self: RefTensor,
  src: RefTensor,
  offset = 0,
  dim1 = 0,
  dim2 = 1,
): RefTensor => scatterRef(self, src, (x) => diagonalRef(x, offset, dim1, dim2));

/** Treats self's row-major values as the storage (the output is a fresh clone; valid when it is contiguous). */
export const asStridedScatterRef = (
  self: RefTensor,
  src: RefTensor,
  size: readonly number[],
  stride: readonly number[],
  offset: number | null = null,
): RefTensor => scatterRef(self, src, (x) => asStridedRef(x, size, stride, offset ?? 0));
