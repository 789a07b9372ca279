/**
 * View ops: new sizes/strides/offset over the same storage (CompositeImplicit, so they work on every device,
 * meta included). reshape views when computeViewStrides allows and copies otherwise, like PyTorch.
 */
import {
  computeViewStrides,
  expandStrides,
  InvalidArgumentError,
  inferSize,
  numelOf,
  type Tensor,
  viewError,
  wrapDim,
} from '../../core/index.ts';
import { type ApiDecl, callOp, operatorTable } from '../../dispatch/index.ts';
import { defineOp } from '../structured.ts';
import { makeView, movedimOrder, selectDim, self, sliceDim, tags } from './view_helpers.ts';
import { registerIndexViews } from './views_index.ts';
import { registerSplitViews } from './views_split.ts';

export { makeView, selectDim, sliceDim };

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
  registerIndexViews();
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
