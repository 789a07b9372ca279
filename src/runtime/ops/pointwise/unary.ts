/**
 * Unary pointwise rows, each with its derivative (derivatives.yaml). Float functions take float64 and the
 * store rounds to the compute dtype; formulas use runtime ops, so they are differentiable again (gradgrad).
 */
import {
  arg,
  type Derivative,
  gradOps,
  type NonDifferentiable,
  unaryGrad,
  zeroGrad,
} from '../../autograd/index.ts';
import { Scalar } from '../../core/index.ts';
import type { PointwiseRow } from './row.ts';
import { cexp, clog, erf, roundHalfEven } from './unary_math.ts';

type F = (x: number) => number;
type C = (re: number, im: number) => [number, number];
const { add, div, mul, neg, op, sub } = gradOps;
const LN2 = Math.LN2;
const LN10 = Math.LN10;
const DEG2RAD = Math.PI / 180;

/** A float-only unary op that promotes ints to the default float dtype (exp, sin, ...). */
const floatOp = <N extends string>(
  name: N,
  num: F,
  derivative: Derivative,
  more: { complex?: C; aliases?: string[]; wgsl?: string; simd?: PointwiseRow['simd'] } = {},
) =>
  ({
    name,
    arity: 1,
    promotion: 'intToFloat',
    num,
    complex: more.complex,
    aliases: more.aliases,
    wgsl: { f32: more.wgsl ?? `${name}(a)` },
    simd: more.simd,
    derivative,
  }) satisfies PointwiseRow;

const identity = (x: number) => x;
const identityBig = (x: bigint) => x;

/** floor/ceil/trunc/round: round floats, pass integers through unchanged (PyTorch returns a copy). */
const rounding = <N extends string>(name: N, num: (x: number) => number, aliases?: string[]) =>
  ({
    name,
    arity: 1,
    promotion: 'default',
    num,
    int: identity,
    big: identityBig,
    kinds: ['int', 'float'],
    aliases,
    wgsl: { f32: `${name}(a)`, i32: 'a' },
    derivative: zeroGrad,
  }) satisfies PointwiseRow;

const self = (c: Parameters<Derivative['formula']>[0]) => arg(c, 'self');
/** A Scalar argument as a number (a 0-dim tensor bound to it stays a tensor, so meta inputs work too). */
const scalarArg = (c: Parameters<Derivative['formula']>[0], name: string): unknown =>
  c.args[name] instanceof Scalar ? (c.args[name] as Scalar).toNumber() : c.args[name];
const predicate: NonDifferentiable = { nondifferentiable: 'predicate: bool result' };

export const UNARY_ROWS = [
  {
    name: 'abs',
    arity: 1,
    promotion: 'complexToFloat',
    num: Math.abs,
    big: (x: bigint) => (x < 0n ? -x : x),
    complex: (re: number, im: number) => Math.hypot(re, im),
    kinds: ['int', 'float', 'complex'],
    wgsl: 'abs(a)',
    simd: { op: 'abs' },
    derivative: unaryGrad(['self'], (c) => mul(c.grad, op('sign', self(c)))),
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
    simd: { op: 'neg' },
    derivative: unaryGrad([], (c) => neg(c.grad)),
  },
  floatOp(
    'exp',
    Math.exp,
    unaryGrad(['result'], (c) => mul(c.grad, c.result)),
    { complex: cexp },
  ),
  // at::deg2rad: a product with the double M_PI / 180 (ints and bool promote to the default float dtype).
  floatOp(
    'deg2rad',
    (x) => x * DEG2RAD,
    unaryGrad([], (c) => mul(c.grad, DEG2RAD)),
    { wgsl: `a * ${DEG2RAD}` },
  ),
  floatOp(
    'exp2',
    (x) => 2 ** x,
    unaryGrad(['result'], (c) => mul(c.grad, mul(c.result, LN2))),
  ),
  floatOp(
    'expm1',
    Math.expm1,
    unaryGrad(['result'], (c) => mul(c.grad, add(c.result, 1))),
    { wgsl: 'select(exp(a) - 1.0, a + 0.5 * a * a, abs(a) < 1e-4)' },
  ),
  floatOp(
    'log',
    Math.log,
    unaryGrad(['self'], (c) => div(c.grad, self(c))),
    { complex: clog },
  ),
  floatOp(
    'log2',
    Math.log2,
    unaryGrad(['self'], (c) => div(c.grad, mul(self(c), LN2))),
  ),
  floatOp(
    'log10',
    Math.log10,
    unaryGrad(['self'], (c) => div(c.grad, mul(self(c), LN10))),
    { wgsl: 'log2(a) * 0.30102999566398120' },
  ),
  floatOp(
    'log1p',
    Math.log1p,
    unaryGrad(['self'], (c) => div(c.grad, add(self(c), 1))),
    { wgsl: 'select(log(1.0 + a), a - 0.5 * a * a, abs(a) < 1e-4)' },
  ),
  floatOp(
    'sqrt',
    Math.sqrt,
    unaryGrad(['result'], (c) => div(c.grad, mul(c.result, 2))),
    {
      simd: { op: 'sqrt' },
      complex: (re, im) => {
        const m = Math.hypot(re, im);
        const r = Math.sqrt((m + re) / 2);
        const i = Math.sqrt((m - re) / 2);
        return [r, im < 0 || (im === 0 && Object.is(im, -0)) ? -i : i];
      },
    },
  ),
  floatOp(
    'rsqrt',
    (x) => 1 / Math.sqrt(x),
    unaryGrad(['result'], (c) => mul(c.grad, mul(op('pow', c.result, 3), -0.5))),
    { wgsl: '1.0 / sqrt(a)' },
  ),
  floatOp(
    'sin',
    Math.sin,
    unaryGrad(['self'], (c) => mul(c.grad, op('cos', self(c)))),
    { complex: (re, im) => [Math.sin(re) * Math.cosh(im), Math.cos(re) * Math.sinh(im)] },
  ),
  floatOp(
    'cos',
    Math.cos,
    unaryGrad(['self'], (c) => mul(c.grad, neg(op('sin', self(c))))),
    { complex: (re, im) => [Math.cos(re) * Math.cosh(im), -Math.sin(re) * Math.sinh(im)] },
  ),
  floatOp(
    'tan',
    Math.tan,
    unaryGrad(['result'], (c) => mul(c.grad, add(op('square', c.result), 1))),
  ),
  // Through atan2: llvmpipe's asin/acos builtins are off by ~2e-4.
  floatOp(
    'asin',
    Math.asin,
    unaryGrad(['self'], (c) => div(c.grad, op('sqrt', sub(1, op('square', self(c)))))),
    { aliases: ['arcsin'], wgsl: 'select(atan2(a, sqrt((1.0 - a) * (1.0 + a))), f_nan(), abs(a) > 1.0)' },
  ),
  floatOp(
    'acos',
    Math.acos,
    unaryGrad(['self'], (c) => neg(div(c.grad, op('sqrt', sub(1, op('square', self(c))))))),
    { aliases: ['arccos'], wgsl: 'select(atan2(sqrt((1.0 - a) * (1.0 + a)), a), f_nan(), abs(a) > 1.0)' },
  ),
  floatOp(
    'atan',
    Math.atan,
    unaryGrad(['self'], (c) => div(c.grad, add(op('square', self(c)), 1))),
    { aliases: ['arctan'] },
  ),
  floatOp(
    'sinh',
    Math.sinh,
    unaryGrad(['self'], (c) => mul(c.grad, op('cosh', self(c)))),
  ),
  floatOp(
    'cosh',
    Math.cosh,
    unaryGrad(['self'], (c) => mul(c.grad, op('sinh', self(c)))),
  ),
  floatOp(
    'tanh',
    Math.tanh,
    unaryGrad(['result'], (c) => mul(c.grad, sub(1, op('square', c.result)))),
    { wgsl: 'select(tanh(a), sign(a), abs(a) > 10.0)' },
  ),
  floatOp(
    'sigmoid',
    (x) => 1 / (1 + Math.exp(-x)),
    unaryGrad(['result'], (c) => mul(c.grad, mul(c.result, sub(1, c.result)))),
    { aliases: ['special.expit'], wgsl: '1.0 / (1.0 + exp(-a))' },
  ),
  floatOp(
    'erf',
    erf,
    unaryGrad(['self'], (c) =>
      mul(c.grad, mul(op('exp', neg(op('square', self(c)))), 2 / Math.sqrt(Math.PI))),
    ),
    { aliases: ['special.erf'], wgsl: 'erf_f(a)' },
  ),
  {
    // Floating inputs only: PyTorch 1.13 raises "silu_cpu" not implemented for 'Long' (no int-to-float promotion).
    ...floatOp(
      'silu',
      (x) => x / (1 + Math.exp(-x)),
      unaryGrad(['self'], (c) => {
        const s = op('sigmoid', self(c));
        return mul(c.grad, mul(s, add(mul(self(c), sub(1, s)), 1)));
      }),
      { aliases: ['nn.functional.silu'], wgsl: 'a / (1.0 + exp(-a))' },
    ),
    promotion: 'default',
    kinds: ['float'],
  },
  {
    name: 'relu',
    arity: 1,
    promotion: 'default',
    // clamp_min(x, 0): -0 stays -0, NaN stays NaN (as PyTorch 1.13).
    // biome-ignore lint/complexity/useMathMinMax: Math.max(-0, 0) is +0
    num: (x: number) => (x < 0 ? 0 : x),
    big: (x: bigint) => (x > 0n ? x : 0n),
    kinds: ['int', 'float'],
    aliases: ['nn.functional.relu'],
    wgsl: { f32: 'select(a, 0.0, a < 0.0)', i32: 'max(a, 0)' },
    derivative: unaryGrad(['result'], (c) => mul(c.grad, op('gt', c.result, 0)), 'ReluBackward0'),
  },
  {
    // aten's softplus: x where beta * x > threshold (log1p(exp(.)) would only round to x there), else
    // log1p(exp(beta * x)) / beta. Python reaches it as nn.functional.softplus: no method, no softplus_.
    name: 'softplus',
    schema: 'softplus(Tensor self, Scalar beta=1, Scalar threshold=20) -> Tensor',
    arity: 1,
    promotion: 'default',
    scalars: ['beta', 'threshold'],
    num: (x: number, beta: number, threshold: number) =>
      x * beta > threshold ? x : Math.log1p(Math.exp(x * beta)) / beta,
    kinds: ['float'], // "softplus_cpu" is not implemented for integers or bool
    variants: 'function',
    inplace: false,
    aliases: ['nn.functional.softplus'],
    wgsl: { f32: 'select(log(1.0 + exp(a * s0)) / s0, a, a * s0 > s1)' },
    // softplus_backward: grad * sigmoid(beta * x), or grad where beta * x > threshold.
    derivative: unaryGrad(['self'], (c) => {
      const bx = mul(self(c), scalarArg(c, 'beta'));
      return mul(c.grad, op('where', op('gt', bx, scalarArg(c, 'threshold')), 1, op('sigmoid', bx)));
    }),
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
    derivative: unaryGrad([], (c) => c.grad),
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
    derivative: zeroGrad,
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
    derivative: unaryGrad(['result'], (c) => neg(mul(c.grad, op('square', c.result)))),
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
    derivative: unaryGrad(['self'], (c) => mul(c.grad, mul(self(c), 2)), 'PowBackward0'),
  },
  {
    name: 'logical_not',
    arity: 1,
    promotion: 'alwaysBool',
    num: (x: number) => x === 0,
    big: (x: bigint) => x === 0n,
    complex: (re: number, im: number) => re === 0 && im === 0,
    wgsl: { f32: 'a == 0.0 && !is_nan(a)', i32: 'a == 0' },
    derivative: { nondifferentiable: 'logical op: bool result' },
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
    derivative: { nondifferentiable: 'bitwise op: integer/bool domain' },
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
    derivative: predicate,
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
    derivative: predicate,
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
    derivative: predicate,
  },
] as const satisfies readonly PointwiseRow[];
