/**
 * The indexing views: narrow, select, slice, as_strided, unfold and diagonal (a sub-range, one index, a step, raw
 * strides, sliding windows, a diagonal) over the same storage; the shape views are in views.ts and the views that
 * return a list in views_split.ts. Part of registerViews, registered at the same point.
 */
import {
  checkedNumel,
  checkSizes,
  IndexOutOfRangeError,
  InvalidArgumentError,
  numelOf,
  ShapeMismatchError,
  wrapDim,
} from '../../core/index.ts';
import { defineOp } from '../structured.ts';
import { makeView, needDims, selectDim, self, sliceDim, tags } from './view_helpers.ts';

export function registerIndexViews(): void {
  defineOp({
    schema: 'narrow(Tensor(a) self, int dim, SymInt start, SymInt length) -> Tensor(a)',
    tags,
    composite: (a) => {
      const t = self(a);
      needDims(t, 'narrow');
      const d = wrapDim(a.dim as number, t.ndim, 'narrow');
      let start = a.start as number;
      const length = a.length as number;
      if (start < 0) start += t.shape[d];
      if (start < 0 || length < 0 || start + length > t.shape[d]) {
        throw new IndexOutOfRangeError(
          `start (${a.start}) + length (${length}) exceeds dimension size (${t.shape[d]}).`,
          { op: 'narrow', arg: 'length', got: length, expected: `start + length <= ${t.shape[d]}` },
        );
      }
      return sliceDim(t, d, start, start + length, 1, 'narrow');
    },
  });
  defineOp({
    schema: 'select.int(Tensor(a) self, int dim, SymInt index) -> Tensor(a)',
    tags,
    composite: (a) => selectDim(self(a), a.dim as number, a.index as number),
  });
  defineOp({
    schema:
      'slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor(a)',
    tags,
    composite: (a) =>
      sliceDim(self(a), a.dim as number, a.start as number | null, a.end as number | null, a.step as number),
  });
  defineOp({
    schema:
      'as_strided(Tensor(a) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor(a)',
    tags,
    composite: (a) => {
      const t = self(a);
      const size = a.size as number[];
      const stride = a.stride as number[];
      if (size.length !== stride.length) {
        throw new ShapeMismatchError('mismatch in length of strides and shape', {
          op: 'as_strided',
          arg: 'stride',
          got: stride.length,
          expected: size.length,
        });
      }
      const offset = (a.storage_offset as number | null) ?? t.storageOffset;
      checkSizes(size, 'as_strided', 'size');
      checkedNumel(size, 'as_strided');
      if (offset < 0)
        throw new InvalidArgumentError(`Tensor: invalid storage offset ${offset}`, {
          op: 'as_strided',
          arg: 'storage_offset',
          got: offset,
          expected: '>= 0',
        });
      if (stride.some((s) => s < 0))
        throw new InvalidArgumentError('as_strided: Negative strides are not supported at the moment', {
          op: 'as_strided',
          arg: 'stride',
          got: stride,
        });
      let span = offset;
      for (let i = 0; i < size.length; i++) if (size[i] > 0) span += (size[i] - 1) * stride[i];
      if (numelOf(size) > 0 && span >= t.storage.numel) {
        throw new IndexOutOfRangeError(
          `setStorage: sizes [${size.join(', ')}], strides [${stride.join(', ')}], storage offset ${offset} are out of bounds for storage of size ${t.storage.numel}`,
          { op: 'as_strided', arg: 'size', got: span + 1, expected: `<= ${t.storage.numel}` },
        );
      }
      return makeView(t, size, stride, offset);
    },
  });
  defineOp({
    schema: 'unfold(Tensor(a) self, int dimension, int size, int step) -> Tensor(a)',
    tags,
    composite: (a) => {
      const t = self(a);
      const d = wrapDim(a.dimension as number, t.ndim, 'unfold', 'dimension');
      const size = a.size as number;
      const step = a.step as number;
      const len = t.ndim === 0 ? 1 : t.shape[d];
      if (size < 0)
        throw new InvalidArgumentError(`size is ${size} but must be >= 0`, {
          op: 'unfold',
          arg: 'size',
          got: size,
          expected: '>= 0',
        });
      if (size > len)
        throw new ShapeMismatchError(
          `maximum size for tensor at dimension ${d} is ${len} but size is ${size}`,
          { op: 'unfold', arg: 'size', got: size, expected: `<= ${len}` },
        );
      if (step <= 0)
        throw new InvalidArgumentError(`step is ${step} but must be > 0`, {
          op: 'unfold',
          arg: 'step',
          got: step,
          expected: '> 0',
        });
      if (t.ndim === 0) return makeView(t, [size], [1], t.storageOffset);
      const shape = [...t.shape];
      const strides = [...t.strides];
      shape[d] = Math.floor((len - size) / step) + 1;
      strides[d] = t.strides[d] * step;
      checkedNumel([...shape, size], 'unfold');
      return makeView(t, [...shape, size], [...strides, t.strides[d]], t.storageOffset);
    },
  });
  defineOp({
    schema: 'diagonal(Tensor(a) self, int offset=0, int dim1=0, int dim2=1) -> Tensor(a)',
    tags,
    composite: (a) => {
      const t = self(a);
      const d1 = wrapDim(a.dim1 as number, t.ndim, 'diagonal', 'dim1');
      const d2 = wrapDim(a.dim2 as number, t.ndim, 'diagonal', 'dim2');
      if (d1 === d2)
        throw new InvalidArgumentError('diagonal dimensions cannot be identical', {
          op: 'diagonal',
          arg: 'dim2',
          got: a.dim2,
          expected: `!= ${a.dim1}`,
        });
      const off = a.offset as number;
      let diagSize: number;
      let storageOffset = t.storageOffset;
      if (off >= 0) {
        diagSize = Math.max(Math.min(t.shape[d1], t.shape[d2] - off), 0);
        if (diagSize > 0) storageOffset += off * t.strides[d2];
      } else {
        diagSize = Math.max(Math.min(t.shape[d1] + off, t.shape[d2]), 0);
        if (diagSize > 0) storageOffset -= off * t.strides[d1];
      }
      const keep = t.shape.map((_, i) => i).filter((i) => i !== d1 && i !== d2);
      return makeView(
        t,
        [...keep.map((i) => t.shape[i]), diagSize],
        [...keep.map((i) => t.strides[i]), t.strides[d1] + t.strides[d2]],
        storageOffset,
      );
    },
  });
}
