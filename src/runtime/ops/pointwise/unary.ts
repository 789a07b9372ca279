/** Unary pointwise rows. Float functions take float64 and the store rounds to the compute dtype. */
import type { PointwiseRow } from './row.ts';

type F = (x: number) => number;

/** A float-only unary op that promotes ints to the default float dtype (exp, sin, ...). */
const floatOp = (
  name: string,
  num: F,
  complex?: (re: number, im: number) => [number, number],
  aliases?: string[],
  wgsl = `${name}(a)`,
): PointwiseRow => ({
  name,
  arity: 1,
  promotion: 'intToFloat',
  num,
  complex,
  aliases,
  wgsl: { f32: wgsl },
});

// Abramowitz-Stegun is not accurate enough for float64 references; this is W. J. Cody's rational erf.
function erf(x: number): number {
  if (Number.isNaN(x)) return x;
  const ax = Math.abs(x);
  if (ax > 6) return Math.sign(x);
  // Series for small |x|, continued fraction (via erfc) for large.
  if (ax < 2.5) {
    let sum = x;
    let term = x;
    const x2 = x * x;
    for (let n = 1; n < 200; n++) {
      term *= -x2 / n;
      const add = term / (2 * n + 1);
      sum += add;
      if (Math.abs(add) < 1e-17 * Math.abs(sum)) break;
    }
    return (2 / Math.sqrt(Math.PI)) * sum;
  }
  // erfc continued fraction (Lentz), accurate for x >= 2.5.
  let f = ax;
  let c = ax;
  let d = 0;
  for (let n = 1; n < 300; n++) {
    const an = n / 2;
    d = ax + an * d;
    d = d === 0 ? 1e-300 : 1 / d;
    c = ax + an / c;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  const erfc = Math.exp(-ax * ax) / (f * Math.sqrt(Math.PI));
  return Math.sign(x) * (1 - erfc);
}

/** Round half to even (torch.round). */
function roundHalfEven(x: number): number {
  if (!Number.isFinite(x)) return x;
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r === 0 ? x * 0 : r;
}

const identity = (x: number) => x;
const identityBig = (x: bigint) => x;

/** floor/ceil/trunc/round: round floats, pass integers through unchanged (PyTorch returns a copy). */
const rounding = (name: string, num: (x: number) => number, aliases?: string[]): PointwiseRow => ({
  name,
  arity: 1,
  promotion: 'default',
  num,
  int: identity,
  big: identityBig,
  kinds: ['int', 'float'],
  aliases,
  wgsl: { f32: `${name}(a)`, i32: 'a' },
});
const cexp = (re: number, im: number): [number, number] => {
  const m = Math.exp(re);
  return [m * Math.cos(im), m * Math.sin(im)];
};
const clog = (re: number, im: number): [number, number] => [Math.log(Math.hypot(re, im)), Math.atan2(im, re)];

export const UNARY_ROWS: readonly PointwiseRow[] = [
  {
    name: 'abs',
    arity: 1,
    promotion: 'complexToFloat',
    num: Math.abs,
    big: (x: bigint) => (x < 0n ? -x : x),
    complex: (re: number, im: number) => Math.hypot(re, im),
    kinds: ['int', 'float', 'complex'],
    wgsl: 'abs(a)',
  },
  {
    name: 'neg',
    arity: 1,
    promotion: 'default',
    num: (x: number) => -x,
    big: (x: bigint) => -x,
    complex: (re: number, im: number) => [-re, -im],
    refuse: {
      bool: 'Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.',
    },
    aliases: ['negative'],
    wgsl: '-a',
  },
  floatOp('exp', Math.exp, cexp),
  floatOp('exp2', (x) => 2 ** x),
  floatOp('expm1', Math.expm1, undefined, undefined, 'select(exp(a) - 1.0, a + 0.5 * a * a, abs(a) < 1e-4)'),
  floatOp('log', Math.log, clog),
  floatOp('log2', Math.log2),
  floatOp('log10', Math.log10, undefined, undefined, 'log2(a) * 0.30102999566398120'),
  floatOp('log1p', Math.log1p, undefined, undefined, 'select(log(1.0 + a), a - 0.5 * a * a, abs(a) < 1e-4)'),
  floatOp('sqrt', Math.sqrt, (re, im) => {
    const m = Math.hypot(re, im);
    const r = Math.sqrt((m + re) / 2);
    const i = Math.sqrt((m - re) / 2);
    return [r, im < 0 || (im === 0 && Object.is(im, -0)) ? -i : i];
  }),
  floatOp('rsqrt', (x) => 1 / Math.sqrt(x), undefined, undefined, '1.0 / sqrt(a)'),
  floatOp('sin', Math.sin, (re, im) => [Math.sin(re) * Math.cosh(im), Math.cos(re) * Math.sinh(im)]),
  floatOp('cos', Math.cos, (re, im) => [Math.cos(re) * Math.cosh(im), -Math.sin(re) * Math.sinh(im)]),
  floatOp('tan', Math.tan),
  // Through atan2: llvmpipe's asin/acos builtins are off by ~2e-4.
  floatOp(
    'asin',
    Math.asin,
    undefined,
    ['arcsin'],
    'select(atan2(a, sqrt((1.0 - a) * (1.0 + a))), f_nan(), abs(a) > 1.0)',
  ),
  floatOp(
    'acos',
    Math.acos,
    undefined,
    ['arccos'],
    'select(atan2(sqrt((1.0 - a) * (1.0 + a)), a), f_nan(), abs(a) > 1.0)',
  ),
  floatOp('atan', Math.atan, undefined, ['arctan']),
  floatOp('sinh', Math.sinh),
  floatOp('cosh', Math.cosh),
  floatOp('tanh', Math.tanh, undefined, undefined, 'select(tanh(a), sign(a), abs(a) > 10.0)'),
  floatOp('sigmoid', (x) => 1 / (1 + Math.exp(-x)), undefined, ['special.expit'], '1.0 / (1.0 + exp(-a))'),
  floatOp('erf', erf, undefined, ['special.erf'], 'erf_f(a)'),
  floatOp('silu', (x) => x / (1 + Math.exp(-x)), undefined, ['nn.functional.silu'], 'a / (1.0 + exp(-a))'),
  {
    name: 'relu',
    arity: 1,
    promotion: 'default',
    num: (x: number) => (x > 0 || Number.isNaN(x) ? x : 0),
    big: (x: bigint) => (x > 0n ? x : 0n),
    kinds: ['int', 'float'],
    aliases: ['nn.functional.relu'],
    wgsl: { f32: 'select(a, 0.0, a < 0.0)', i32: 'max(a, 0)' },
  },
  rounding('floor', Math.floor),
  rounding('ceil', Math.ceil),
  rounding('trunc', Math.trunc, ['fix']),
  rounding('round', roundHalfEven),
  {
    name: 'frac',
    arity: 1,
    promotion: 'default',
    num: (x: number) => x - Math.trunc(x),
    kinds: ['float'],
    wgsl: { f32: 'a - trunc(a)' },
  },
  {
    name: 'sign',
    arity: 1,
    promotion: 'default',
    // (0 < x) - (x < 0), as in aten: sign(NaN) and sign(-0.0) are +0 (verified with PyTorch 1.13).
    num: (x: number) => (x > 0 ? 1 : 0) - (x < 0 ? 1 : 0),
    big: (x: bigint) => (x > 0n ? 1n : x < 0n ? -1n : 0n),
    kinds: ['bool', 'int', 'float'],
    wgsl: {
      f32: 'select(select(0.0, 1.0, a > 0.0) - select(0.0, 1.0, a < 0.0), 0.0, is_nan(a))',
      i32: 'select(0, 1, a > 0) - select(0, 1, a < 0)',
      nan: 'own',
    },
  },
  {
    name: 'reciprocal',
    arity: 1,
    promotion: 'intToFloat',
    num: (x: number) => 1 / x,
    complex: (re: number, im: number) => {
      const d = re * re + im * im;
      return [re / d, -im / d];
    },
    wgsl: '1.0 / a',
  },
  {
    name: 'square',
    arity: 1,
    promotion: 'default',
    num: (x: number) => x * x,
    int: (x: number) => Math.imul(x, x),
    big: (x: bigint) => x * x,
    complex: (re: number, im: number) => [re * re - im * im, 2 * re * im],
    refuse: {
      bool: 'square is not supported for bool tensors (PyTorch promotes bool to int64 here); use logical ops instead',
    },
    wgsl: 'a * a',
  },
  {
    name: 'logical_not',
    arity: 1,
    promotion: 'alwaysBool',
    num: (x: number) => x === 0,
    big: (x: bigint) => x === 0n,
    complex: (re: number, im: number) => re === 0 && im === 0,
    wgsl: { f32: 'a == 0.0 && !is_nan(a)', i32: 'a == 0' },
  },
  {
    name: 'bitwise_not',
    arity: 1,
    promotion: 'default',
    num: (x: number) => ~x,
    bool: (x: number) => (x === 0 ? 1 : 0),
    big: (x: bigint) => ~x,
    kinds: ['bool', 'int'],
    wgsl: { i32: '~a', bool: '1 - a' },
  },
  {
    name: 'isnan',
    arity: 1,
    promotion: 'alwaysBool',
    num: Number.isNaN,
    big: () => false,
    complex: (re: number, im: number) => Number.isNaN(re) || Number.isNaN(im),
    inplace: false,
    out: false,
    wgsl: { f32: 'is_nan(a)', i32: 'false' },
  },
  {
    name: 'isinf',
    arity: 1,
    promotion: 'alwaysBool',
    num: (x: number) => x === Number.POSITIVE_INFINITY || x === Number.NEGATIVE_INFINITY,
    big: () => false,
    inplace: false,
    out: false,
    kinds: ['bool', 'int', 'float'],
    wgsl: { f32: 'is_inf(a)', i32: 'false' },
  },
  {
    name: 'isfinite',
    arity: 1,
    promotion: 'alwaysBool',
    num: Number.isFinite,
    big: () => true,
    complex: (re: number, im: number) => Number.isFinite(re) && Number.isFinite(im),
    inplace: false,
    out: false,
    wgsl: { f32: '!is_nan(a) && !is_inf(a)', i32: 'true' },
  },
];
