/**
 * jax-js's reduction rows: sums and extremes over `dim` with keepdims, argmax/argmin, var/std (PyTorch's
 * `unbiased`/`correction` as NumPy's `correction`), norms, logsumexp, softmax, cumulative ops, sort and top-k.
 */
import { defaults, num } from '../rows.ts';
import { NotExpressible } from '../target.ts';
import { type A, type Args, arr, axes, axis, castArg, on0d, type R, type Row, shapeOf } from './common.ts';

type Reducer = 'sum' | 'mean' | 'prod' | 'max' | 'min' | 'all' | 'any';

/** `np.<fn>(self, axis, {keepdims})`, self cast to `dtype=` first where the op takes one. */
const reduction = (fn: Reducer): Row => ({
  as: `np.${fn}`,
  call: (rt, a) =>
    rt.numpy[fn](castArg(rt, a.self, a.dtype), axes(a.self, a.dim), { keepdims: a.keepdim === true }),
});

/** argmax/argmin: over the flattened tensor when dim is None. */
const arg = (fn: 'argmax' | 'argmin'): Row => ({
  as: `np.${fn}`,
  call: (rt, a) => {
    if (a.dim === null || a.dim === undefined) {
      defaults(a, { keepdim: false });
      return rt.numpy[fn](arr(a.self));
    }
    const ax = axis(a.self, a.dim);
    return rt.numpy[fn](arr(a.self), ax ?? undefined, { keepdims: a.keepdim === true });
  },
});

/** max/min: the whole tensor, (values, indices) over a dim, or the pointwise extreme of two tensors. */
const extreme = (fn: 'max' | 'min'): Row => ({
  as: `np.${fn} / np.arg${fn} / np.${fn}imum`,
  call: (rt, a, overload) => {
    const np = rt.numpy;
    if (overload === 'other') return np[fn === 'max' ? 'maximum' : 'minimum'](arr(a.self), arr(a.other));
    if (a.dim === undefined) return np[fn](arr(a.self));
    const ax = axis(a.self, a.dim);
    const keepdims = a.keepdim === true;
    const values = np[fn](arr(a.self), ax, { keepdims });
    return [values, np[fn === 'max' ? 'argmax' : 'argmin'](arr(a.self), ax ?? undefined, { keepdims })];
  },
});

/** var/std: PyTorch's `unbiased` (Bessel's correction) or `correction` (default 1) as NumPy's `correction`. */
const spread = (fn: 'var_' | 'std'): Row => ({
  as: `np.${fn}`,
  call: (rt, a) => {
    const correction =
      a.unbiased !== undefined
        ? a.unbiased === false
          ? 0
          : 1
        : a.correction == null
          ? 1
          : num(a.correction, 'c');
    return rt.numpy[fn](arr(a.self), axes(a.self, a.dim), { correction, keepdims: a.keepdim === true });
  },
});

/** A vector norm of order `ord` over `dim` (all dims when None). */
function vectorNorm(rt: R, a: Args, x: unknown, ord: number): A {
  return rt.numpy.linalg.vectorNorm(castArg(rt, x as A, a.dtype), {
    ord,
    axis: axes(x as A, a.dim),
    keepdims: a.keepdim === true,
  });
}

/** torch.norm's p: a number, None (2) or 'fro' (the 2-norm of the flattened dims); 'nuc' needs an SVD. */
function normOrder(p: unknown): number {
  if (p === null || p === undefined || p === 'fro') return 2;
  if (typeof p === 'number') return p;
  throw new NotExpressible(`p=${JSON.stringify(p)}`);
}

/** softmax/log_softmax/cumsum/cumprod over one dim (dim 0 of a 0-d tensor: the tensor as one element). */
const alongDim = (fn: (rt: R, x: A, ax: number) => A, as: string): Row => ({
  as,
  call: (rt, a) => {
    const x = castArg(rt, a.self, a.dtype);
    const ax = axis(a.self, a.dim);
    return ax === null ? on0d(rt, x, (y, d) => fn(rt, y, d)) : fn(rt, x, ax);
  },
});

export const REDUCTION_OPS: Readonly<Record<string, Row>> = {
  sum: reduction('sum'),
  mean: reduction('mean'),
  prod: reduction('prod'),
  amax: reduction('max'),
  amin: reduction('min'),
  all: reduction('all'),
  any: reduction('any'),
  max: extreme('max'),
  min: extreme('min'),
  argmax: arg('argmax'),
  argmin: arg('argmin'),
  var: spread('var_'),
  std: spread('std'),
  logsumexp: {
    as: 'nn.logsumexp',
    call: (rt, a) => rt.nn.logsumexp(arr(a.self), axes(a.self, a.dim), { keepdims: a.keepdim === true }),
  },
  'linalg.vector_norm': {
    as: 'np.linalg.vectorNorm',
    call: (rt, a) => vectorNorm(rt, a, a.self, num(a.ord, 'ord')),
  },
  norm: { as: 'np.linalg.vectorNorm', call: (rt, a) => vectorNorm(rt, a, a.self, normOrder(a.p)) },
  'norm.fro': { as: 'np.linalg.vectorNorm', call: (rt, a) => vectorNorm(rt, a, a.input, normOrder(a.p)) },
  softmax: alongDim((rt, x, d) => rt.nn.softmax(x, d), 'nn.softmax'),
  log_softmax: alongDim((rt, x, d) => rt.nn.logSoftmax(x, d), 'nn.logSoftmax'),
  cumsum: alongDim((rt, x, d) => rt.numpy.cumsum(x, d), 'np.cumsum'),
  cumprod: alongDim((rt, x, d) => rt.numpy.cumprod(x, d), 'np.cumprod'),
  sort: {
    as: 'np.sort + np.argsort',
    call: (rt, a) => {
      if (a.descending === true) throw new NotExpressible('descending=True (jax-js sort has no descending)');
      const ax = axis(a.self, a.dim);
      if (ax === null) return [arr(a.self), rt.numpy.zerosLike(arr(a.self), { dtype: rt.numpy.int32 })];
      return [rt.numpy.sort(arr(a.self), ax), rt.numpy.argsort(arr(a.self), ax)];
    },
  },
  topk: {
    as: 'lax.topK',
    call: (rt, a) => {
      if (a.largest === false) throw new NotExpressible('largest=False (lax.topK takes the largest)');
      if (a.sorted === false && num(a.k, 'k') > 1) throw new NotExpressible('sorted=False');
      const ax = axis(a.self, a.dim);
      if (ax === null) throw new NotExpressible('topk of a 0-d tensor');
      const ndim = shapeOf(a.self).length;
      return rt.lax.topK(arr(a.self), num(a.k, 'k'), ax < 0 ? ax + ndim : ax);
    },
  },
};
