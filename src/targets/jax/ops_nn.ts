/**
 * jax-js's rows for nn layers (convolution through lax.convGeneralDilated, whose default layout is PyTorch's NCHW
 * and OIHW; layer_norm as jax.nn.standardize; embedding as np.take; one_hot; zero padding) and the factories.
 */
import { defaults, num } from '../rows.ts';
import { NotExpressible } from '../target.ts';
import { type A, type Args, arr, dtypeOf, ints, operand, type R, type Row, shapeOf } from './common.ts';

/** conv{1,2,3}d: an unbatched input gets its batch dim and loses it again; the bias is added per channel. */
const conv = (nd: number): Row => ({
  as: 'lax.convGeneralDilated',
  call: (rt, a) => {
    const np = rt.numpy;
    const batched = shapeOf(a.input).length === nd + 2;
    const per = (v: unknown, what: string) => {
      const xs = ints(v as number[], what);
      return xs.length === 1 && nd > 1 ? Array(nd).fill(xs[0]) : xs;
    };
    if (typeof a.padding !== 'string' && per(a.padding, 'padding').some((p) => p < 0))
      throw new NotExpressible('negative padding (PyTorch refuses it; lax pads it as a crop)');
    if (a.padding === 'same' && per(a.stride, 'stride').some((s) => s !== 1))
      throw new NotExpressible("padding='same' with a stride (PyTorch refuses it; lax's SAME defines it)");
    const padding =
      a.padding === 'same'
        ? 'SAME'
        : a.padding === 'valid'
          ? 'VALID'
          : per(a.padding, 'padding').map((p): [number, number] => [p, p]);
    const lhs = batched ? arr(a.input) : np.expandDims(arr(a.input), 0);
    let y = rt.lax.convGeneralDilated(lhs, arr(a.weight), per(a.stride, 'stride'), padding, {
      rhsDilation: per(a.dilation, 'dilation'),
      featureGroupCount: num(a.groups, 'groups'),
    });
    if (a.bias !== null && a.bias !== undefined)
      y = np.add(y, np.reshape(arr(a.bias), [shapeOf(a.bias)[0], ...Array(nd).fill(1)]));
    return batched ? y : np.squeeze(y, 0);
  },
});

/** PyTorch's pad list (last dim first, a pair per dim) as np.pad's widths; zero padding only. */
function pad(rt: R, a: Args, value: unknown): A {
  if (value !== null && value !== 0) throw new NotExpressible('a fill value other than 0 (np.pad has none)');
  const p = ints(a.pad, 'pad');
  const n0 = shapeOf(a.self).length;
  if (p.length % 2 || p.length > 2 * n0) throw new NotExpressible(`a pad list of ${p.length} for ${n0} dims`);
  if (p.some((v) => v < 0)) throw new NotExpressible('negative padding (np.pad refuses it)');
  const n = shapeOf(a.self).length;
  const widths = Array.from({ length: n }, (_, d): [number, number] => {
    const k = n - 1 - d;
    return [p[2 * k] ?? 0, p[2 * k + 1] ?? 0];
  });
  return rt.numpy.pad(arr(a.self), widths);
}

/** pin_memory and requires_grad have no jax-js counterpart (PyTorch refuses them for a cpu/int tensor). */
function plain(a: Args): Args {
  if (a.pin_memory === true || a.requires_grad === true)
    throw new NotExpressible('pin_memory=True or requires_grad=True');
  return a;
}
/** A factory's dtype (PyTorch's default float32 when None). */
const factoryDtype = (rt: R, a: Args) => dtypeOf(plain(a).dtype) ?? rt.numpy.float32;
/** A *_like factory's dtype (self's when None). */
const likeDtype = (a: Args) => dtypeOf(plain(a).dtype) ?? (a.self as A).dtype;

export const NN_OPS: Readonly<Record<string, Row>> = {
  'nn.functional.conv1d': conv(1),
  'nn.functional.conv2d': conv(2),
  'nn.functional.conv3d': conv(3),
  'nn.functional.layer_norm': {
    as: 'nn.standardize (np.multiply, np.add for weight and bias)',
    call: (rt, a) => {
      const n = shapeOf(a.input).length;
      const ns = ints(a.normalized_shape, 'normalized_shape');
      const k = ns.length;
      if (k === 0) throw new NotExpressible('an empty normalized_shape (PyTorch refuses it)');
      if (JSON.stringify(shapeOf(a.input).slice(n - k)) !== JSON.stringify(ns))
        throw new NotExpressible("normalized_shape is not the input's trailing shape (PyTorch refuses it)");
      const ax = Array.from({ length: k }, (_, i) => n - k + i);
      let y = rt.nn.standardize(arr(a.input), ax, { epsilon: num(a.eps, 'eps') });
      if (a.weight !== null && a.weight !== undefined) y = rt.numpy.multiply(y, arr(a.weight));
      if (a.bias !== null && a.bias !== undefined) y = rt.numpy.add(y, arr(a.bias));
      return y;
    },
  },
  'nn.functional.embedding': {
    as: 'np.take',
    call: (rt, a) => {
      // padding_idx, scale_grad_by_freq and sparse only change the gradient.
      defaults(a, { max_norm: null });
      return rt.numpy.take(arr(a.weight), arr(a.input), 0);
    },
  },
  'nn.functional.one_hot': {
    as: 'nn.oneHot',
    call: (rt, a) => {
      const n = num(a.num_classes, 'num_classes');
      if (n < 0) throw new NotExpressible('num_classes=-1 (jax.nn.one_hot needs the count)');
      return rt.nn.oneHot(arr(a.self), n);
    },
  },
  'nn.functional.pad': {
    as: 'np.pad',
    call: (rt, a) => {
      if (a.mode !== 'constant')
        throw new NotExpressible(`mode=${JSON.stringify(a.mode)} (jax-js np.pad has none)`);
      return pad(rt, a, a.value);
    },
  },
  constant_pad_nd: { as: 'np.pad', call: (rt, a) => pad(rt, a, a.value) },
  zeros: {
    as: 'np.zeros',
    call: (rt, a) => rt.numpy.zeros(ints(a.size, 'size'), { dtype: factoryDtype(rt, a) }),
  },
  ones: {
    as: 'np.ones',
    call: (rt, a) => rt.numpy.ones(ints(a.size, 'size'), { dtype: factoryDtype(rt, a) }),
  },
  full: {
    as: 'np.full',
    call: (rt, a) => {
      if (a.dtype === null) throw new NotExpressible("dtype=None (PyTorch infers it from fill_value's kind)");
      return rt.numpy.full(ints(a.size, 'size'), num(a.fill_value, 'fill_value'), {
        dtype: factoryDtype(rt, a),
      });
    },
  },
  zeros_like: {
    as: 'np.zerosLike',
    call: (rt, a) => rt.numpy.zerosLike(arr(a.self), { dtype: likeDtype(a) }),
  },
  ones_like: { as: 'np.onesLike', call: (rt, a) => rt.numpy.onesLike(arr(a.self), { dtype: likeDtype(a) }) },
  full_like: {
    as: 'np.fullLike',
    call: (rt, a) => rt.numpy.fullLike(arr(a.self), num(a.fill_value, 'fill_value'), { dtype: likeDtype(a) }),
  },
  fill_: {
    as: 'np.fullLike (jax arrays are immutable: the filled array is a new one)',
    call: (rt, a) => {
      const v = operand(a.value);
      return rt.numpy.fullLike(arr(a.self), v as number | A);
    },
  },
  zero_: { as: 'np.zerosLike (jax arrays are immutable)', call: (rt, a) => rt.numpy.zerosLike(arr(a.self)) },
  arange: {
    as: 'np.arange',
    call: (rt, a) => {
      if (a.dtype === null) throw new NotExpressible('dtype=None (PyTorch infers int64 from ints)');
      const start = a.start === undefined ? 0 : num(a.start, 'start');
      const step = a.step === undefined ? 1 : num(a.step, 'step');
      return rt.numpy.arange(start, num(a.end, 'end'), step, { dtype: factoryDtype(rt, a) });
    },
  },
  linspace: {
    as: 'np.linspace',
    call: (rt, a) =>
      rt.numpy.linspace(num(a.start, 'start'), num(a.end, 'end'), num(a.steps, 'steps'), true, {
        dtype: factoryDtype(rt, a),
      }),
  },
  eye: {
    as: 'np.eye',
    call: (rt, a) =>
      rt.numpy.eye(num(a.n, 'n'), a.m === undefined ? undefined : num(a.m, 'm'), {
        dtype: factoryDtype(rt, a),
      }),
  },
};
