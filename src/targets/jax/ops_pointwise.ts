/**
 * jax-js's pointwise rows: unary and binary math, comparisons, logical and bitwise ops, where/clamp/masked_fill,
 * and the activations of jax.nn. A Python number stays a JS number (jax-js's weakly typed scalar).
 */
import { defaults, num } from '../rows.ts';
import { NotExpressible } from '../target.ts';
import { type A, type Args, arr, operand, type R, type Row } from './common.ts';

type Np = R['numpy'];

const isInt = (x: unknown): boolean =>
  typeof x === 'object' && x !== null && ['int32', 'bool'].includes((x as A).dtype as string);
type Nn = R['nn'];
type Unary = (x: A) => A;
type Binary = (x: A | number | boolean, y: A | number | boolean) => A;

/** `np.<fn>(self)` (`input` for the ops whose Python spelling names it so). */
const unary = (fn: keyof Np): Row => ({
  as: `np.${String(fn)}`,
  call: (rt, a) => (rt.numpy[fn] as Unary)(arr(a.self ?? a.input)),
});

/** `jax.nn.<fn>(self)`, with PyTorch's extra arguments held at the values jax.nn's function has built in. */
const nnUnary = (fn: keyof Nn, fixed: Readonly<Record<string, unknown>> = {}): Row => ({
  as: `nn.${String(fn)}`,
  call: (rt, a) => {
    defaults(a, fixed);
    return (rt.nn[fn] as Unary)(arr(a.self ?? a.input));
  },
});

/** `np.<fn>(self, other)`: either may be a Python number. */
const binary = (fn: keyof Np, other = 'other'): Row => ({
  as: `np.${String(fn)}`,
  call: (rt, a) => (rt.numpy[fn] as Binary)(operand(a.self), operand(a[other])),
});

/** add/sub: `alpha` scales `other` first (np.multiply), as PyTorch's does. */
const withAlpha = (fn: 'add' | 'subtract'): Row => ({
  as: `np.${fn} (np.multiply for alpha)`,
  call: (rt, a) => {
    // PyTorch checks alpha's kind against the result's; jax-js has no alpha to check.
    if (typeof a.alpha === 'boolean') throw new NotExpressible('a bool alpha');
    const alpha = num(a.alpha, 'alpha');
    if (!Number.isInteger(alpha) && isInt(a.self))
      throw new NotExpressible('a float alpha for an integer tensor');
    const o = operand(a.other);
    const other = alpha === 1 ? o : typeof o === 'object' ? rt.numpy.multiply(o, alpha) : Number(o) * alpha;
    return rt.numpy[fn](arr(a.self), other);
  },
});

function div(rt: R, a: Args): A {
  const np = rt.numpy;
  if (a.rounding_mode === 'floor') return np.floorDivide(operand(a.self), operand(a.other));
  if (a.rounding_mode === 'trunc') {
    if (isInt(a.self) && (isInt(a.other) || Number.isInteger(a.other)))
      throw new NotExpressible("integer division rounding to zero (jax-js's lax has no div)");
    return np.trunc(np.trueDivide(operand(a.self), operand(a.other)));
  }
  defaults(a, { rounding_mode: null });
  return np.trueDivide(operand(a.self), operand(a.other));
}

const clip: Row = {
  as: 'np.clip',
  call: (rt, a) => {
    if (a.min == null && a.max == null) throw new NotExpressible('neither min nor max (PyTorch refuses it)');
    return rt.numpy.clip(
      arr(a.self),
      a.min == null ? undefined : operand(a.min),
      a.max == null ? undefined : operand(a.max),
    );
  },
};

export const POINTWISE_OPS: Readonly<Record<string, Row>> = {
  abs: unary('abs'),
  neg: unary('negative'),
  sign: unary('sign'),
  reciprocal: unary('reciprocal'),
  square: unary('square'),
  exp: unary('exp'),
  exp2: unary('exp2'),
  expm1: unary('expm1'),
  log: unary('log'),
  log2: unary('log2'),
  log10: unary('log10'),
  log1p: unary('log1p'),
  sqrt: unary('sqrt'),
  sin: unary('sin'),
  cos: unary('cos'),
  tan: unary('tan'),
  asin: unary('asin'),
  acos: unary('acos'),
  atan: unary('atan'),
  sinh: unary('sinh'),
  cosh: unary('cosh'),
  tanh: unary('tanh'),
  deg2rad: unary('deg2rad'),
  floor: unary('floor'),
  ceil: unary('ceil'),
  trunc: unary('trunc'),
  round: {
    as: 'np.round',
    call: (rt, a) => rt.numpy.round(arr(a.self), a.decimals === undefined ? 0 : num(a.decimals, 'decimals')),
  },
  frac: {
    as: 'np.modf (its fractional part)',
    call: (rt, a) => {
      const [frac, whole] = rt.numpy.modf(arr(a.self));
      whole.dispose();
      return frac;
    },
  },
  sigmoid: nnUnary('sigmoid'),
  erf: { as: 'scipySpecial.erf', call: (rt, a) => rt.scipySpecial.erf(arr(a.self)) },
  logical_not: unary('logicalNot'),
  bitwise_not: unary('invert'),
  isnan: unary('isnan'),
  isinf: unary('isinf'),
  isfinite: unary('isfinite'),
  add: withAlpha('add'),
  sub: withAlpha('subtract'),
  mul: binary('multiply'),
  div: { as: 'np.trueDivide / np.floorDivide / np.trunc', call: div },
  remainder: binary('remainder'),
  fmod: binary('fmod'),
  maximum: binary('maximum'),
  minimum: binary('minimum'),
  copysign: binary('copysign'),
  pow: binary('power', 'exponent'),
  atan2: binary('atan2'),
  hypot: binary('hypot'),
  eq: binary('equal'),
  ne: binary('notEqual'),
  lt: binary('less'),
  le: binary('lessEqual'),
  gt: binary('greater'),
  ge: binary('greaterEqual'),
  logical_and: binary('logicalAnd'),
  logical_or: binary('logicalOr'),
  logical_xor: binary('logicalXor'),
  bitwise_and: binary('bitwiseAnd'),
  bitwise_or: binary('bitwiseOr'),
  bitwise_xor: binary('bitwiseXor'),
  where: {
    as: 'np.where',
    call: (rt, a) => rt.numpy.where(arr(a.condition), operand(a.self), operand(a.other)),
  },
  masked_fill: {
    as: 'np.where',
    call: (rt, a) => rt.numpy.where(arr(a.mask), operand(a.value), arr(a.self)),
  },
  clamp: clip,
  'clamp.Tensor': clip,
  'nn.functional.relu': nnUnary('relu'),
  'nn.functional.relu6': nnUnary('relu6'),
  'nn.functional.silu': nnUnary('silu'),
  'nn.functional.selu': nnUnary('selu'),
  'nn.functional.mish': nnUnary('mish'),
  'nn.functional.logsigmoid': nnUnary('logSigmoid'),
  'nn.functional.softsign': nnUnary('softSign'),
  'nn.functional.hardsigmoid': nnUnary('hardSigmoid'),
  'nn.functional.hardswish': nnUnary('hardSilu'),
  'nn.functional.hardtanh': nnUnary('hardTanh', { min_val: -1, max_val: 1 }),
  'nn.functional.softplus': nnUnary('softplus', { beta: 1, threshold: 20 }),
  'nn.functional.leaky_relu': {
    as: 'nn.leakyRelu',
    call: (rt, a) => rt.nn.leakyRelu(arr(a.self), num(a.negative_slope, 'negative_slope')),
  },
  'nn.functional.elu': {
    as: 'nn.elu',
    call: (rt, a) => {
      defaults(a, { scale: 1, input_scale: 1 });
      return rt.nn.elu(arr(a.self), num(a.alpha, 'alpha'));
    },
  },
  'nn.functional.celu': {
    as: 'nn.celu',
    call: (rt, a) => rt.nn.celu(arr(a.self), num(a.alpha, 'alpha')),
  },
  'nn.functional.gelu': {
    as: 'nn.gelu',
    call: (rt, a) => {
      if (a.approximate !== 'none' && a.approximate !== 'tanh')
        throw new NotExpressible(`approximate=${JSON.stringify(a.approximate)}`);
      return rt.nn.gelu(arr(a.self), { approximate: a.approximate === 'tanh' });
    },
  },
  'nn.functional.glu': {
    as: 'nn.glu',
    call: (rt, a) => rt.nn.glu(arr(a.self), num(a.dim, 'dim')),
  },
};
