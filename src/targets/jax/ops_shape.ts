/**
 * jax-js's shape, indexing and linear-algebra rows: views (as the functional ops JAX has: its arrays are
 * immutable, so a view is a new array), cat/stack/split, flip/roll, tril/triu, gather/index_select, matmul.
 */
import { num } from '../rows.ts';
import { NotExpressible } from '../target.ts';
import {
  type A,
  type Args,
  arr,
  arrs,
  dtypeOf,
  ints,
  on0d,
  type R,
  type Row,
  shapeOf,
  wrap,
} from './common.ts';

/** Boundaries at which np.split cuts a dim into pieces of the given sizes. */
function cuts(sizes: number[]): number[] {
  const at: number[] = [];
  let s = 0;
  for (const n of sizes.slice(0, -1)) {
    s += n;
    at.push(s);
  }
  return at;
}

function split(rt: R, a: Args, sizes: (n: number) => number[]): A[] {
  const shape = shapeOf(a.self);
  const d = wrap(num(a.dim, 'dim'), shape.length);
  if (shape[d] === undefined) throw new NotExpressible('split over a dim the tensor does not have');
  const s = sizes(shape[d]);
  // The cut points are glue: sizes PyTorch refuses (negative, not summing to the dim) have no np.split call.
  if (s.some((n) => n < 0) || s.reduce((p, q) => p + q, 0) !== shape[d])
    throw new NotExpressible(`split sizes ${JSON.stringify(s)} for a dim of ${shape[d]}`);
  return rt.numpy.split(arr(a.self), cuts(s), d);
}

/** PyTorch's split_size (an int): pieces of that size, the last one smaller. */
const bySize = (size: number) => (n: number) =>
  size < 1
    ? [size]
    : Array.from({ length: Math.max(1, Math.ceil(n / size)) }, (_, i) => Math.min(size, n - i * size));

/** Python's slice(start, end, step) over a dim of n: the indices it takes. */
function sliceIndices(n: number, start: number | null, end: number | null, step: number): number[] {
  const clamp = (v: number) => Math.min(Math.max(v < 0 ? v + n : v, 0), n);
  const out: number[] = [];
  for (let i = start === null ? 0 : clamp(start); i < (end === null ? n : clamp(end)); i += step) out.push(i);
  return out;
}

/** Keeps `[from, to)` of dim `d` (x.slice with `[]` for the other dims). */
function narrow(x: A, d: number, from: number, to: number): A {
  const idx: ([] | [number, number])[] = x.shape.map(() => []);
  idx[d] = [from, to];
  return x.slice(...idx);
}

function take(rt: R, x: A, indices: number[], d: number): A {
  return rt.numpy.take(x, rt.numpy.array(Int32Array.from(indices), { dtype: rt.numpy.int32 }), d);
}

/** contiguous/clone: the values as they are (memory formats are PyTorch's layouts; channels_last needs 4 dims). */
function same(a: Args): A {
  if (a.memory_format === 'channels_last' && shapeOf(a.self).length !== 4)
    throw new NotExpressible('channels_last of a tensor without 4 dims (PyTorch refuses it)');
  return arr(a.self);
}

export const SHAPE_OPS: Readonly<Record<string, Row>> = {
  view: { as: 'np.reshape', call: (rt, a) => rt.numpy.reshape(arr(a.self), ints(a.size, 'size')) },
  reshape: { as: 'np.reshape', call: (rt, a) => rt.numpy.reshape(arr(a.self), ints(a.shape, 'shape')) },
  flatten: {
    as: 'np.reshape',
    call: (rt, a) => {
      const shape = shapeOf(a.self);
      if (shape.length === 0) return rt.numpy.reshape(arr(a.self), [1]);
      const s = wrap(num(a.start_dim, 'start_dim'), shape.length);
      const e = wrap(num(a.end_dim, 'end_dim'), shape.length);
      if (s > e || e >= shape.length)
        throw new NotExpressible('start_dim after end_dim (no reshape to compute)');
      const mid = shape.slice(s, e + 1).reduce((p, q) => p * q, 1);
      return rt.numpy.reshape(arr(a.self), [...shape.slice(0, s), mid, ...shape.slice(e + 1)]);
    },
  },
  permute: {
    as: 'np.transpose',
    call: (rt, a) => {
      const n = shapeOf(a.self).length;
      return rt.numpy.transpose(
        arr(a.self),
        ints(a.dims, 'dims').map((d) => wrap(d, n)),
      );
    },
  },
  transpose: {
    as: 'np.transpose',
    call: (rt, a) => {
      const [d0, d1] = [num(a.dim0, 'dim0'), num(a.dim1, 'dim1')];
      if (shapeOf(a.self).length === 0 && [d0, d1].every((d) => d === 0 || d === -1)) return arr(a.self);
      return rt.numpy.swapaxes(arr(a.self), d0, d1);
    },
  },
  t: {
    as: 'np.transpose',
    call: (rt, a) => (shapeOf(a.self).length < 2 ? arr(a.self) : rt.numpy.transpose(arr(a.self))),
  },
  expand: {
    as: 'np.broadcastTo',
    call: (rt, a) => {
      const shape = shapeOf(a.self);
      const size = ints(a.size, 'size');
      const lead = size.length - shape.length;
      return rt.numpy.broadcastTo(
        arr(a.self),
        size.map((s, i) => (s === -1 && i >= lead ? shape[i - lead] : s)),
      );
    },
  },
  expand_as: { as: 'np.broadcastTo', call: (rt, a) => rt.numpy.broadcastTo(arr(a.self), shapeOf(a.other)) },
  squeeze: {
    as: 'np.squeeze',
    call: (rt, a) => {
      if (a.dim === undefined) return rt.numpy.squeeze(arr(a.self));
      const shape = shapeOf(a.self);
      // PyTorch leaves a dim that is not of size 1 (and a 0-d tensor's dim 0 or -1) as it is; NumPy refuses it.
      const ds = ints(a.dim, 'dim').map((d) => wrap(d, Math.max(shape.length, 1)));
      // A dim out of range goes to np.squeeze as it is: jax-js refuses it, as PyTorch does.
      if (ds.some((d) => d < 0 || d >= Math.max(shape.length, 1)))
        return rt.numpy.squeeze(arr(a.self), ints(a.dim, 'dim'));
      const ones = ds.filter((d) => shape[d] === 1);
      return ones.length ? rt.numpy.squeeze(arr(a.self), ones) : arr(a.self);
    },
  },
  unsqueeze: { as: 'np.expandDims', call: (rt, a) => rt.numpy.expandDims(arr(a.self), num(a.dim, 'dim')) },
  narrow: {
    as: 'Array.slice',
    call: (_rt, a) => {
      const shape = shapeOf(a.self);
      const d = wrap(num(a.dim, 'dim'), shape.length);
      const start = wrap(num(a.start, 'start'), shape[d]);
      return narrow(arr(a.self), d, start, start + num(a.length, 'length'));
    },
  },
  select: {
    as: 'Array.slice',
    call: (_rt, a) => {
      const x = arr(a.self);
      const idx: ([] | number)[] = x.shape.map(() => []);
      idx[wrap(num(a.dim, 'dim'), x.ndim)] = num(a.index, 'index');
      return x.slice(...idx);
    },
  },
  slice: {
    as: 'Array.slice (np.take for a step)',
    call: (rt, a) => {
      const shape = shapeOf(a.self);
      const d = wrap(num(a.dim, 'dim'), shape.length);
      if (num(a.step, 'step') < 1)
        throw new NotExpressible('a step below 1 (PyTorch refuses it; no jax-js call)');
      const [start, end] = [a.start, a.end].map((v) => (v === null ? null : num(v, 'start/end')));
      const at = sliceIndices(shape[d], start, end, num(a.step, 'step'));
      if (num(a.step, 'step') !== 1) return take(rt, arr(a.self), at, d);
      const from = at.length ? at[0] : Math.min(Math.max(start ?? 0, 0), shape[d]);
      return narrow(arr(a.self), d, from, from + at.length);
    },
  },
  diagonal: {
    as: 'np.diagonal',
    call: (rt, a) =>
      rt.numpy.diagonal(arr(a.self), num(a.offset, 'offset'), num(a.dim1, 'dim1'), num(a.dim2, 'dim2')),
  },
  movedim: {
    as: 'np.moveaxis',
    call: (rt, a) =>
      shapeOf(a.self).length === 0 && a.source === 0 && a.destination === 0
        ? arr(a.self)
        : rt.numpy.moveaxis(arr(a.self), num(a.source, 'source'), num(a.destination, 'destination')),
  },
  split: {
    as: 'np.split',
    call: (rt, a) =>
      split(
        rt,
        a,
        typeof a.split_size === 'number' ? bySize(a.split_size) : () => ints(a.split_size, 'sizes'),
      ),
  },
  split_with_sizes: {
    as: 'np.split',
    call: (rt, a) => split(rt, a, () => ints(a.split_sizes, 'split_sizes')),
  },
  chunk: {
    as: 'np.split',
    // PyTorch cuts an empty dim into `chunks` empty pieces.
    call: (rt, a) =>
      split(rt, a, (n) =>
        n === 0 ? Array(num(a.chunks, 'chunks')).fill(0) : bySize(Math.ceil(n / num(a.chunks, 'chunks')))(n),
      ),
  },
  unbind: { as: 'np.unstack', call: (rt, a) => rt.numpy.unstack(arr(a.self), num(a.dim, 'dim')) },
  contiguous: { as: 'the array itself (jax arrays have no strides)', call: (_rt, a) => same(a) },
  clone: { as: 'the array itself (jax arrays are immutable)', call: (_rt, a) => same(a) },
  detach: { as: 'lax.stopGradient', call: (rt, a) => rt.lax.stopGradient(arr(a.self)) },
  to: {
    as: 'np.astype',
    call: (rt, a, overload) => {
      if (overload !== 'dtype') throw new NotExpressible(`to(${overload}): only to(dtype)`);
      return rt.numpy.astype(arr(a.self), dtypeOf(a.dtype) ?? (a.self as A).dtype);
    },
  },
  cat: {
    as: 'np.concatenate',
    call: (rt, a) => {
      const ts = a.tensors as A[];
      // PyTorch skips legacy 1-D empty tensors among tensors of more dims.
      const kept = ts.some((t) => t.ndim > 1) ? ts.filter((t) => !(t.ndim === 1 && t.shape[0] === 0)) : ts;
      return rt.numpy.concatenate(arrs(kept), num(a.dim, 'dim'));
    },
  },
  stack: { as: 'np.stack', call: (rt, a) => rt.numpy.stack(arrs(a.tensors), num(a.dim, 'dim')) },
  flip: {
    as: 'np.flip',
    call: (rt, a) => {
      const ds = ints(a.dims, 'dims');
      return ds.length ? rt.numpy.flip(arr(a.self), ds) : arr(a.self);
    },
  },
  roll: {
    as: 'np.roll',
    call: (rt, a) => {
      const ds = ints(a.dims, 'dims');
      const shifts = ints(a.shifts, 'shifts');
      return ds.length ? rt.numpy.roll(arr(a.self), shifts, ds) : rt.numpy.roll(arr(a.self), shifts[0]);
    },
  },
  tril: { as: 'np.tril', call: (rt, a) => rt.numpy.tril(arr(a.self), num(a.diagonal, 'diagonal')) },
  triu: { as: 'np.triu', call: (rt, a) => rt.numpy.triu(arr(a.self), num(a.diagonal, 'diagonal')) },
  gather: {
    as: 'np.takeAlongAxis',
    call: (rt, a) => {
      const shape = shapeOf(a.self);
      const ix = shapeOf(a.index);
      if (shape.length === 0)
        return on0d(rt, arr(a.self), (x) =>
          rt.numpy.takeAlongAxis(x, rt.numpy.reshape(arr(a.index), [1]), 0),
        );
      const d = wrap(num(a.dim, 'dim'), Math.max(shape.length, 1));
      // PyTorch's index may be smaller than self in the other dims: only that corner of self is gathered from.
      const corner = shape.map((n, i) => (i === d ? [] : [0, ix[i] ?? n])) as ([] | [number, number])[];
      const x = shape.length && ix.length === shape.length ? arr(a.self).slice(...corner) : arr(a.self);
      return rt.numpy.takeAlongAxis(x, arr(a.index), d);
    },
  },
  index_select: {
    as: 'np.take',
    call: (rt, a) => {
      // PyTorch takes a 0-d index as a 1-element one (the output keeps the dim); a 0-d self as 1-element too.
      const index = shapeOf(a.index).length ? arr(a.index) : rt.numpy.reshape(arr(a.index), [1]);
      if (shapeOf(a.self).length === 0) return on0d(rt, arr(a.self), (x) => rt.numpy.take(x, index, 0));
      return rt.numpy.take(arr(a.self), index, num(a.dim, 'dim'));
    },
  },
  mm: { as: 'np.matmul', call: (rt, a) => rt.numpy.matmul(arr(a.self), arr(a.mat2)) },
  bmm: { as: 'np.matmul', call: (rt, a) => rt.numpy.matmul(arr(a.self), arr(a.mat2)) },
  mv: { as: 'np.matmul', call: (rt, a) => rt.numpy.matmul(arr(a.self), arr(a.vec)) },
  dot: { as: 'np.dot', call: (rt, a) => rt.numpy.dot(arr(a.self), arr(a.tensor)) },
  matmul: { as: 'np.matmul', call: (rt, a) => rt.numpy.matmul(arr(a.self), arr(a.other)) },
};
