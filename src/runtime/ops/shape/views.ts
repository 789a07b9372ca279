/**
 * View ops: new sizes/strides/offset over the same storage (CompositeImplicit, so they work on every device,
 * meta included). reshape views when computeViewStrides allows and copies otherwise, like PyTorch.
 */
import {
  checkedNumel,
  checkSizes,
  computeViewStrides,
  expandStrides,
  IndexOutOfRangeError,
  InvalidArgumentError,
  inferSize,
  numelOf,
  ShapeMismatchError,
  type Tensor,
  viewError,
  wrapDim,
} from '../../core/index.ts';
import { type ApiDecl, type BoundArgs, callOp, operatorTable } from '../../dispatch/index.ts';
import { defineOp } from '../structured.ts';
import { makeView, movedimOrder, needDims, selectDim, sliceDim } from './view_helpers.ts';
import { registerSplitViews } from './views_split.ts';

export { makeView, selectDim, sliceDim };

const tags = { family: 'view', isView: true } as const;
const self = (a: BoundArgs) => a.self as Tensor;

function viewAs(t: Tensor, size: readonly number[], op: string): Tensor {
  const shape = inferSize(size, t.numel, op);
  const strides = computeViewStrides(t.shape, t.strides, shape);
  if (strides === null) throw viewError(op, shape);
  return makeView(t, shape, strides, t.storageOffset);
}

function transposeDims(t: Tensor, d0: number, d1: number): Tensor {
  const a = wrapDim(d0, t.ndim, 'transpose', 'dim0');
  const b = wrapDim(d1, t.ndim, 'transpose', 'dim1');
  if (t.ndim === 0) return makeView(t, [], [], t.storageOffset);
  const shape = [...t.shape];
  const strides = [...t.strides];
  [shape[a], shape[b]] = [shape[b], shape[a]];
  [strides[a], strides[b]] = [strides[b], strides[a]];
  return makeView(t, shape, strides, t.storageOffset);
}

function unsqueezeDim(t: Tensor, dim: number): Tensor {
  const d = wrapDim(dim, t.ndim + 1, 'unsqueeze');
  const shape = [...t.shape];
  const strides = [...t.strides];
  const st = d < t.ndim ? t.shape[d] * t.strides[d] : 1;
  shape.splice(d, 0, 1);
  strides.splice(d, 0, st);
  return makeView(t, shape, strides, t.storageOffset);
}

/** The Python variants of the ops registered here (native_functions.yaml's `variants`; see dispatch/variants.ts). */
export const VIEW_API = {
  view: 'function, method',
  reshape: 'function, method',
  permute: 'function, method',
  transpose: 'function, method',
  t: 'function, method',
  expand: 'function, method',
  expand_as: 'function, method',
  squeeze: 'function, method',
  unsqueeze: 'function, method',
  flatten: 'function, method',
  narrow: 'function, method',
  select: 'function, method',
  slice: 'function, method',
  detach: 'function, method',
  as_strided: 'function, method',
  unfold: 'function, method',
  diagonal: 'function, method',
  movedim: 'function, method',
} as const satisfies ApiDecl;

export function registerViews(): void {
  // detach: a view with no autograd history (the Autograd key lets it fall through).
  defineOp({
    schema: 'detach(Tensor(a) self) -> Tensor(a)',
    tags,
    composite: (a) => makeView(self(a), self(a).shape, self(a).strides, self(a).storageOffset),
  });
  defineOp({
    schema: 'view(Tensor(a) self, SymInt[] size) -> Tensor(a)',
    tags,
    composite: (a) => viewAs(self(a), a.size as number[], 'view'),
  });
  defineOp({
    schema: 'reshape(Tensor(a) self, SymInt[] shape) -> Tensor(a)',
    tags: { family: 'view' },
    composite: (a) => {
      const t = self(a);
      const shape = inferSize(a.shape as number[], t.numel, 'reshape');
      const strides = computeViewStrides(t.shape, t.strides, shape);
      if (strides !== null) return makeView(t, shape, strides, t.storageOffset);
      return viewAs(callOp('clone', [t], { memory_format: 'contiguous_format' }) as Tensor, shape, 'reshape');
    },
  });
  defineOp({
    schema: 'permute(Tensor(a) self, int[] dims) -> Tensor(a)',
    tags,
    composite: (a) => {
      const t = self(a);
      const dims = (a.dims as number[]).map((d) => wrapDim(d, t.ndim, 'permute', 'dims'));
      if (dims.length !== t.ndim || new Set(dims).size !== dims.length) {
        throw new InvalidArgumentError('permute(): dims must be a permutation of the tensor dims', {
          op: 'permute',
          arg: 'dims',
          got: a.dims,
          expected: `a permutation of ${t.ndim} dims`,
        });
      }
      return makeView(
        t,
        dims.map((d) => t.shape[d]),
        dims.map((d) => t.strides[d]),
        t.storageOffset,
      );
    },
  });
  defineOp({
    schema: 'transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)',
    tags,
    composite: (a) => transposeDims(self(a), a.dim0 as number, a.dim1 as number),
  });
  operatorTable.alias('swapaxes', 'transpose');
  defineOp({
    schema: 't(Tensor(a) self) -> Tensor(a)',
    tags,
    composite: (a) => {
      const t = self(a);
      if (t.ndim > 2)
        throw new InvalidArgumentError(`t() expects a tensor with <= 2 dimensions, but self is ${t.ndim}D`, {
          op: 't',
          arg: 'self',
          got: t.ndim,
          expected: '<= 2',
        });
      return t.ndim < 2 ? makeView(t, t.shape, t.strides, t.storageOffset) : transposeDims(t, 0, 1);
    },
  });
  defineOp({
    schema: 'expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a)',
    tags,
    composite: (a) => {
      const t = self(a);
      const size = a.size as number[];
      // expandStrides refuses negative sizes (other than -1) and an uncountable numel.
      const strides = expandStrides(t.shape, t.strides, size);
      const shape = size.map((s, i) => (s === -1 ? t.shape[i - (size.length - t.ndim)] : s));
      return makeView(t, shape, strides, t.storageOffset);
    },
  });
  defineOp({
    schema: 'expand_as(Tensor(a) self, Tensor other) -> Tensor(a)',
    tags,
    composite: (a) => callOp('expand', [self(a), (a.other as Tensor).shape]),
  });
  defineOp({
    schema: 'squeeze(Tensor(a) self) -> Tensor(a)',
    tags,
    composite: (a) => {
      const t = self(a);
      const keep = t.shape.map((s, i) => (s !== 1 ? i : -1)).filter((i) => i >= 0);
      return makeView(
        t,
        keep.map((i) => t.shape[i]),
        keep.map((i) => t.strides[i]),
        t.storageOffset,
      );
    },
  });
  defineOp({
    schema: 'squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)',
    tags,
    composite: (a) => {
      const t = self(a);
      const d = wrapDim(a.dim as number, t.ndim, 'squeeze');
      if (t.ndim === 0) return makeView(t, [], [], t.storageOffset);
      if (t.shape[d] !== 1) return makeView(t, t.shape, t.strides, t.storageOffset);
      return makeView(
        t,
        t.shape.filter((_, i) => i !== d),
        t.strides.filter((_, i) => i !== d),
        t.storageOffset,
      );
    },
  });
  defineOp({
    schema: 'unsqueeze(Tensor(a) self, int dim) -> Tensor(a)',
    tags,
    composite: (a) => unsqueezeDim(self(a), a.dim as number),
  });
  defineOp({
    schema: 'flatten.using_ints(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a)',
    tags: { family: 'view' },
    composite: (a) => {
      const t = self(a);
      if (t.ndim === 0) return callOp('reshape', [t, [1]]);
      const s = wrapDim(a.start_dim as number, t.ndim, 'flatten', 'start_dim');
      const e = wrapDim(a.end_dim as number, t.ndim, 'flatten', 'end_dim');
      if (s > e)
        throw new InvalidArgumentError('flatten() has invalid args: start_dim cannot come after end_dim', {
          op: 'flatten',
          arg: 'start_dim',
          got: s,
          expected: `<= ${e}`,
        });
      const shape = [...t.shape.slice(0, s), numelOf(t.shape.slice(s, e + 1)), ...t.shape.slice(e + 1)];
      return callOp('reshape', [t, shape]);
    },
  });
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
  registerSplitViews();
  defineOp({
    schema: 'movedim.int(Tensor(a) self, int source, int destination) -> Tensor(a)',
    tags,
    composite: (a) => {
      const t = self(a);
      const s = wrapDim(a.source as number, t.ndim, 'movedim', 'source');
      const d = wrapDim(a.destination as number, t.ndim, 'movedim', 'destination');
      // Through callOp (not makeView) so autograd records it: movedim is differentiated by its decomposition.
      if (t.ndim === 0) return callOp('view', [t, []]);
      const order = t.shape.map((_, i) => i).filter((i) => i !== s);
      order.splice(d, 0, s);
      return callOp('permute', [t, order]);
    },
  });
  defineOp({
    schema: 'movedim.intlist(Tensor(a) self, int[] source, int[] destination) -> Tensor(a)',
    tags,
    composite: (a) => {
      const t = self(a);
      const order = movedimOrder(t.ndim, a.source as number[], a.destination as number[]);
      return t.ndim === 0 ? callOp('view', [t, []]) : callOp('permute', [t, order]);
    },
  });
  operatorTable.declare(VIEW_API);
}
