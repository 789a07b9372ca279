/** onnxruntime rows: views and shape ops, joining and splitting, indexing, padding, factories. */
import type { DType } from '../../runtime/index.ts';
import { dims, num, swapPerm } from '../rows.ts';
import { NotExpressible } from '../target.ts';
import { axis, cast, promote, type Row, t, unmapped } from './build.ts';
import { ints, node, nodeN, type OrtT, rankOf, scalar, shapeOf } from './graph.ts';

const INT64_MAX = 2 ** 63 - 1;
const INT64_MIN = -(2 ** 63);
const same = (x: OrtT, rank?: number) => ({ dtype: x.dtype, rank: rank ?? rankOf(x) });
const list = (v: unknown, what: string): number[] => {
  if (Array.isArray(v) && v.every((x) => typeof x === 'number')) return v as number[];
  if (typeof v === 'number') return [v];
  throw new NotExpressible(`${what} is not a list of ints`);
};

const reshape = (x: OrtT, shape: readonly number[]) =>
  node('Reshape', [x, ints(shape)], { allowzero: 1 }, same(x, shape.length));
const transpose = (x: OrtT, perm: readonly number[]) => node('Transpose', [x], { perm: [...perm] }, same(x));
const identity = (x: OrtT) => node('Identity', [x], {}, same(x));

/** Split along `dim` into pieces of the given sizes. */
function split(x: OrtT, dim: number, sizes: readonly number[]): OrtT[] {
  const ax = dim < 0 ? dim + rankOf(x) : dim;
  return nodeN(
    'Split',
    [x, ints(sizes)],
    { axis: ax },
    sizes.map(() => same(x)),
  );
}

/** The sizes torch.split(x, size, dim) gives. */
function pieces(n: number, size: number): number[] {
  if (!(size > 0)) throw new NotExpressible(`a split size of ${size}`);
  const out: number[] = [];
  for (let i = 0; i < n; i += size) out.push(Math.min(size, n - i));
  return out.length ? out : [0];
}

export const SHAPE: Readonly<Record<string, Row>> = {
  view: { as: 'Reshape', call: (_rt, a) => reshape(t(a.self), list(a.size, 'size')) },
  reshape: { as: 'Reshape', call: (_rt, a) => reshape(t(a.self), list(a.shape, 'shape')) },
  flatten: {
    as: 'Reshape',
    call: (_rt, a) => {
      const x = t(a.self);
      const s = shapeOf(x);
      if (s.length === 0) return reshape(x, [1]);
      const [b, e] = [axis(a.start_dim, s.length), axis(a.end_dim, s.length)];
      return reshape(x, [...s.slice(0, b), s.slice(b, e + 1).reduce((p, q) => p * q, 1), ...s.slice(e + 1)]);
    },
  },
  permute: {
    as: 'Transpose',
    call: (_rt, a) => {
      const x = t(a.self);
      return transpose(
        x,
        list(a.dims, 'dims').map((d) => axis(d, rankOf(x))),
      );
    },
  },
  transpose: {
    as: 'Transpose',
    call: (_rt, a) => {
      const x = t(a.self);
      if (rankOf(x) === 0) return identity(x);
      return transpose(x, swapPerm(rankOf(x), num(a.dim0, 'dim0'), num(a.dim1, 'dim1')));
    },
  },
  t: {
    as: 'Transpose',
    call: (_rt, a) => (rankOf(t(a.self)) < 2 ? identity(t(a.self)) : transpose(t(a.self), [1, 0])),
  },
  movedim: {
    as: 'Transpose',
    call: (_rt, a) => {
      const x = t(a.self);
      const r = rankOf(x);
      const [src, dst] = [axis(a.source, r), axis(a.destination, r)];
      const perm = [...Array(r).keys()].filter((d) => d !== src);
      perm.splice(dst, 0, src);
      return transpose(x, perm);
    },
  },
  expand: {
    as: 'Expand',
    call: (_rt, a) => {
      const x = t(a.self);
      const size = list(a.size, 'size');
      const s = shapeOf(x);
      const full = size.map((v, i) => (v === -1 ? s[i - (size.length - s.length)] : v));
      return node('Expand', [x, ints(full)], {}, same(x, full.length));
    },
  },
  expand_as: {
    as: 'Expand(x, Shape(other))',
    call: (_rt, a) =>
      node('Expand', [t(a.self), node('Shape', [t(a.other)])], {}, same(t(a.self), rankOf(t(a.other)))),
  },
  squeeze: {
    as: 'Squeeze',
    call: (_rt, a) => {
      const x = t(a.self);
      const s = shapeOf(x);
      // PyTorch leaves a dim of size other than 1 alone; ONNX Squeeze refuses it, so only the size-1 dims go.
      const want = dims(a.dim)?.map((d) => axis(d, s.length)) ?? [...s.keys()];
      const axes = want.filter((d) => s[d] === 1);
      return axes.length
        ? node('Squeeze', [x, ints(axes)], {}, same(x, s.length - axes.length))
        : identity(x);
    },
  },
  unsqueeze: {
    as: 'Unsqueeze',
    call: (_rt, a) => {
      const x = t(a.self);
      return node('Unsqueeze', [x, ints([axis(a.dim, rankOf(x) + 1)])], {}, same(x, rankOf(x) + 1));
    },
  },
  narrow: {
    as: 'Slice',
    call: (_rt, a) => {
      const x = t(a.self);
      const [d, s] = [axis(a.dim, rankOf(x)), num(a.start, 'start')];
      const start = s < 0 ? s + shapeOf(x)[d] : s;
      return node(
        'Slice',
        [x, ints([start]), ints([start + num(a.length, 'length')]), ints([d])],
        {},
        same(x),
      );
    },
  },
  slice: {
    as: 'Slice',
    call: (_rt, a) => {
      const x = t(a.self);
      const start = a.start === null || a.start === undefined ? 0 : num(a.start, 'start');
      const end = a.end === null || a.end === undefined ? INT64_MAX : num(a.end, 'end');
      const r = [ints([start]), ints([end]), ints([axis(a.dim, rankOf(x))]), ints([num(a.step, 'step')])];
      return node('Slice', [x, ...r], {}, same(x));
    },
  },
  select: {
    as: 'Gather (0-dim index)',
    call: (_rt, a) => {
      const x = t(a.self);
      const d = axis(a.dim, rankOf(x));
      return node('Gather', [x, scalar(num(a.index, 'index'), 'int64')], { axis: d }, same(x, rankOf(x) - 1));
    },
  },
  split: {
    as: 'Split',
    call: (_rt, a) => {
      const x = t(a.self);
      const d = axis(a.dim, rankOf(x));
      return split(x, d, pieces(shapeOf(x)[d], num(a.split_size, 'split_size')));
    },
  },
  split_with_sizes: {
    as: 'Split',
    call: (_rt, a) => split(t(a.self), axis(a.dim, rankOf(t(a.self))), list(a.split_sizes, 'split_sizes')),
  },
  chunk: {
    as: 'Split',
    call: (_rt, a) => {
      const x = t(a.self);
      const d = axis(a.dim, rankOf(x));
      const n = shapeOf(x)[d];
      return split(x, d, pieces(n, Math.max(1, Math.ceil(n / num(a.chunks, 'chunks')))));
    },
  },
  unbind: {
    as: 'Split + Squeeze',
    call: (_rt, a) => {
      const x = t(a.self);
      const d = axis(a.dim, rankOf(x));
      return split(x, d, Array(shapeOf(x)[d]).fill(1)).map((p) =>
        node('Squeeze', [p, ints([d])], {}, same(x, rankOf(x) - 1)),
      );
    },
  },
  cat: {
    as: 'Concat',
    call: (_rt, a) => {
      const xs = (a.tensors as OrtT[]).map((x) => t(x));
      const d = promote(xs);
      const r = Math.max(...xs.map(rankOf));
      return node(
        'Concat',
        xs.map((x) => cast(x, d)),
        { axis: axis(a.dim, r) },
        { dtype: d, rank: r },
      );
    },
  },
  stack: {
    as: 'Unsqueeze + Concat',
    call: (_rt, a) => {
      const xs = (a.tensors as OrtT[]).map((x) => t(x));
      const d = promote(xs);
      const ax = axis(a.dim, rankOf(xs[0]) + 1);
      const us = xs.map((x) => node('Unsqueeze', [cast(x, d), ints([ax])], {}, { dtype: d }));
      return node('Concat', us, { axis: ax }, { dtype: d, rank: rankOf(xs[0]) + 1 });
    },
  },
  flip: {
    as: 'Slice (steps -1)',
    call: (_rt, a) => {
      const x = t(a.self);
      const ds = list(a.dims, 'dims').map((d) => axis(d, rankOf(x)));
      if (ds.length === 0 || rankOf(x) === 0) return identity(x);
      const [st, en, st1] = [ints(ds.map(() => -1)), ints(ds.map(() => INT64_MIN)), ints(ds.map(() => -1))];
      return node('Slice', [x, st, en, ints(ds), st1], {}, same(x));
    },
  },
  tril: { as: 'Trilu(upper=0)', call: (_rt, a) => trilu(t(a.self), num(a.diagonal, 'diagonal'), 0) },
  triu: { as: 'Trilu(upper=1)', call: (_rt, a) => trilu(t(a.self), num(a.diagonal, 'diagonal'), 1) },
  contiguous: { as: 'Identity', call: (_rt, a) => identity(t(a.self)) },
  clone: { as: 'Identity', call: (_rt, a) => identity(t(a.self)) },
  detach: { as: 'Identity', call: (_rt, a) => identity(t(a.self)) },
  to: {
    as: 'Cast',
    call: (_rt, a, overload) => {
      if (overload !== 'dtype') throw new NotExpressible(`to(${overload}): only a dtype`);
      const x = t(a.self);
      const d = a.dtype as DType;
      return x.dtype === d ? identity(x) : cast(x, d);
    },
  },
  empty: unmapped('uninitialised values: nothing to compare (ONNX has no uninitialised tensors)'),
  empty_like: unmapped('uninitialised values: nothing to compare (ONNX has no uninitialised tensors)'),
  linspace: unmapped('ONNX has no Linspace operator'),
  roll: unmapped('ONNX has no Roll operator'),
  diagonal: unmapped('ONNX has no Diagonal operator (a view of strided storage)'),
  as_strided: unmapped('ONNX tensors have no strides: no as_strided'),
  unfold: unmapped('ONNX has no sliding-window view (Tensor.unfold)'),
  fill_: unmapped('in place: ONNX graphs are functional'),
  zero_: unmapped('in place: ONNX graphs are functional'),
  copy_: unmapped('in place: ONNX graphs are functional'),
  resize_: unmapped('in place: ONNX graphs are functional'),
  uniform_: unmapped('random, in place: ONNX RandomUniformLike draws from another generator'),
  slice_scatter: unmapped('ONNX has no SliceScatter (a composite of ScatterND)'),
  select_scatter: unmapped('ONNX has no SelectScatter (a composite of ScatterND)'),
  diagonal_scatter: unmapped('ONNX has no DiagonalScatter'),
  as_strided_scatter: unmapped('ONNX tensors have no strides: no as_strided_scatter'),
  'nn.functional.pixel_unshuffle': unmapped(
    "ONNX SpaceToDepth orders the output channels block-major ((i*r+j)*C+c), PyTorch's pixel_unshuffle channel-major",
  ),
};

function trilu(x: OrtT, k: number, upper: 0 | 1): OrtT {
  return node('Trilu', [x, scalar(k, 'int64')], { upper }, same(x));
}
