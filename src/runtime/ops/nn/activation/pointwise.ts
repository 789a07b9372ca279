/**
 * torch.nn.functional's pointwise activations as table rows (aten's kernels in Activation.cpp): each formula is
 * aten's, NaN included (a comparison with NaN is false, so NaN takes the branch aten's ternary puts last), and each
 * derivative is its `*_backward` written with runtime ops, so it is differentiable again (gradgrad). Python's
 * `nn.functional.X(..., inplace=True)` reaches the `X_` overload through the alias (see `inplaceKwarg`).
 */
import { arg, type Derivative, type GradContext, gradOps, unaryGrad } from '../../../autograd/index.ts';
import {
  InvalidArgumentError,
  roundBf16,
  Scalar,
  type Tensor,
  ZeroDivisionError,
} from '../../../core/index.ts';
import type { PointwiseRow } from '../../pointwise/index.ts';
import { clampBigInt, clampNumber, erf } from '../../pointwise/index.ts';
import { RECTIFIER_ROWS } from './rectifiers.ts';

const { add, mul, neg, op, sub } = gradOps;
const self = (c: GradContext) => arg(c, 'self');
/** A Scalar argument as a number (a 0-dim tensor bound to it stays a tensor, so meta inputs work too). */
const num = (c: GradContext, name: string): number | Tensor =>
  c.args[name] instanceof Scalar ? (c.args[name] as Scalar).toNumber() : (c.args[name] as Tensor);
const negate = (v: number | Tensor): number | Tensor => (typeof v === 'number' ? -v : neg(v));
const where = (cond: Tensor, a: unknown, b: unknown): Tensor => op('where', cond, a, b);
const scalarOf = (args: Readonly<Record<string, unknown>>, name: string, dflt: number): number =>
  args[name] instanceof Scalar ? (args[name] as Scalar).toNumber() : dflt;

const SQRT1_2 = Math.SQRT1_2;
const INV_SQRT_2PI = 1 / Math.sqrt(2 * Math.PI);
/** gelu(approximate='tanh')'s sqrt(2 / pi) and cubic coefficient (aten's kBeta / kKappa). */
const K_BETA = Math.sqrt(2 / Math.PI);
const K_KAPPA = 0.044715;
const SELU_ALPHA = 1.6732632423543772;
const SELU_SCALE = 1.0507009873554805;

// expm1(-0) is -0 where PyTorch 1.13's exp(x) - 1 is +0: `+ 0` gives its signed zeros, and changes nothing else.
const eluNum = (x: number, alpha: number, scale: number, inputScale: number) =>
  x <= 0 ? (Math.expm1(x * inputScale) + 0) * alpha * scale : x * scale;
/** elu_backward(is_result=false): the negative side's slope alpha * scale * input_scale * exp(x * input_scale). */
const eluGrad = (
  c: GradContext,
  alpha: number | Tensor,
  scale: number | Tensor,
  inputScale: number | Tensor,
): Tensor => {
  const x = self(c);
  const neg = mul(mul(mul(op('exp', mul(x, inputScale)), inputScale), alpha), scale);
  return mul(c.grad, where(op('le', x, 0), neg, scale));
};

const floatRow = { arity: 1, promotion: 'default', kinds: ['float'], variants: 'function' } as const;

const geluNone = (x: number) => x * 0.5 * (1 + erf(x * SQRT1_2));
const geluTanh = (x: number) => 0.5 * x * (1 + Math.tanh(K_BETA * (x + K_KAPPA * x * x * x)));
/**
 * PyTorch 1.13's CPU gelu on bfloat16 (GeluKernelImpl over Vectorized<BFloat16>): its constants are bfloat16 and
 * every product, sum, erf and tanh is rounded back to bfloat16, in the kernel's order. 1 + erf(x / sqrt 2) is
 * then 0 below about -2.5, so gelu gives 0 where the exact result is about -1e-3.
 */
const [BF_SQRT1_2, BF_BETA, BF_KAPPA] = [SQRT1_2, K_BETA, K_KAPPA].map(roundBf16);
const geluNoneBf16 = (x: number) =>
  roundBf16(roundBf16(x * 0.5) * roundBf16(1 + roundBf16(erf(roundBf16(x * BF_SQRT1_2)))));
const geluTanhBf16 = (x: number) => {
  const cube = roundBf16(roundBf16(x * x) * x);
  const inner = roundBf16(BF_BETA * roundBf16(x + roundBf16(BF_KAPPA * cube)));
  return roundBf16(roundBf16(0.5 * x) * roundBf16(1 + roundBf16(Math.tanh(inner))));
};
const GELU_TANH = {
  ...floatRow,
  name: 'gelu',
  num: geluTanh,
  bf16: geluTanhBf16,
  wgsl: {
    f32: '0.5 * a * (1.0 + tanh(clamp(0.7978845608028654 * (a + 0.044715 * a * a * a), -10.0, 10.0)))',
  },
} as const satisfies PointwiseRow;

/**
 * aten's hardtanh: min(max(x, lo), hi), as clamp computes it (clampNumber: lo > hi gives hi, NaN stays NaN, -0
 * stays -0 at lo = 0); integer dtypes truncate the limits (the Scalar converts to int).
 */
const clampInt = (x: number, lo: number, hi: number) => clampNumber(x, Math.trunc(lo), Math.trunc(hi));
const hardtanhGrad = (
  lo: (c: GradContext) => number | Tensor,
  hi: (c: GradContext) => number | Tensor,
): Derivative =>
  unaryGrad(['self'], (c) => {
    const x = self(c);
    return where(op('logical_or', op('le', x, lo(c)), op('ge', x, hi(c))), 0, c.grad);
  });

function checkUnsignedLimits(args: Readonly<Record<string, unknown>>): undefined {
  const t = args.self as Tensor;
  if (t.dtype === 'uint8' && (scalarOf(args, 'min_val', -1) < 0 || scalarOf(args, 'max_val', 1) < 0))
    throw new InvalidArgumentError('cannot do hardtanh on an unsigned type with negative limits', {
      op: 'hardtanh',
      arg: 'min_val',
      got: `${scalarOf(args, 'min_val', -1)} on uint8`,
      expected: 'non-negative limits for an unsigned dtype',
    });
  return undefined;
}

const HARDTANH = {
  name: 'hardtanh',
  schema: 'hardtanh(Tensor self, Scalar min_val=-1, Scalar max_val=1) -> Tensor',
  arity: 1,
  promotion: 'default',
  scalars: ['min_val', 'max_val'],
  num: clampNumber,
  int: clampInt,
  big: clampBigInt,
  kinds: ['int', 'float'],
  refuse: { bool: 'Bool inputs not supported for hardtanh' },
  select: checkUnsignedLimits,
  variants: 'function',
  aliases: ['nn.functional.hardtanh'],
  // min(max()) rather than clamp(): WGSL's clamp is undefined for min_val > max_val, which gives max_val here.
  wgsl: { f32: 'min(max(a, s0), s1)', i32: 'min(max(a, s0), s1)' },
  derivative: hardtanhGrad(
    (c) => num(c, 'min_val'),
    (c) => num(c, 'max_val'),
  ),
} as const satisfies PointwiseRow;

export const ACTIVATION_ROWS = [
  ...RECTIFIER_ROWS,
  {
    ...floatRow,
    name: 'elu',
    schema: 'elu(Tensor self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1) -> Tensor',
    scalars: ['alpha', 'scale', 'input_scale'],
    num: eluNum,
    aliases: ['nn.functional.elu'],
    wgsl: { f32: 'select(a * s1, (exp(a * s2) - 1.0) * s0 * s1, a <= 0.0)' },
    derivative: unaryGrad(['self'], (c) =>
      eluGrad(c, num(c, 'alpha'), num(c, 'scale'), num(c, 'input_scale')),
    ),
  },
  {
    // aten's celu is elu(self, alpha, 1, 1 / alpha), refusing alpha = 0.
    ...floatRow,
    name: 'celu',
    schema: 'celu(Tensor self, Scalar alpha=1.) -> Tensor',
    scalars: ['alpha'],
    num: (x: number, alpha: number) => eluNum(x, alpha, 1, 1 / alpha),
    select: (args): PointwiseRow | undefined => {
      if (scalarOf(args, 'alpha', 1) === 0)
        throw new ZeroDivisionError('ZeroDivisionError: alpha cannot be 0 for CELU', {
          op: 'celu',
          arg: 'alpha',
          got: 0,
          expected: 'a nonzero alpha',
        });
      return undefined;
    },
    aliases: ['nn.functional.celu'],
    wgsl: { f32: 'select(a, (exp(a / s0) - 1.0) * s0, a <= 0.0)' },
    derivative: unaryGrad(['self'], (c): Tensor => {
      const alpha = num(c, 'alpha');
      const inputScale: number | Tensor = typeof alpha === 'number' ? 1 / alpha : op('reciprocal', alpha);
      return eluGrad(c, alpha, 1, inputScale);
    }),
  },
  {
    ...floatRow,
    name: 'selu',
    num: (x: number) => eluNum(x, SELU_ALPHA, SELU_SCALE, 1),
    out: false,
    aliases: ['nn.functional.selu'],
    wgsl: { f32: `select(a * ${SELU_SCALE}, (exp(a) - 1.0) * ${SELU_ALPHA * SELU_SCALE}, a <= 0.0)` },
    derivative: unaryGrad(['self'], (c) => eluGrad(c, SELU_ALPHA, SELU_SCALE, 1)),
  },
  {
    ...floatRow,
    name: 'gelu',
    schema: "gelu(Tensor self, *, str approximate='none') -> Tensor",
    num: geluNone,
    bf16: geluNoneBf16,
    select: (args): PointwiseRow | undefined => {
      if (args.approximate === 'tanh') return GELU_TANH;
      if (args.approximate === 'none') return undefined;
      throw new InvalidArgumentError('approximate argument must be either none or tanh.', {
        op: 'gelu',
        arg: 'approximate',
        got: String(args.approximate),
        expected: "'none' or 'tanh'",
      });
    },
    aliases: ['nn.functional.gelu'],
    wgsl: { f32: 'a * 0.5 * (1.0 + erf_f(a * 0.7071067811865476))' },
    // gelu_backward: the normal cdf plus x times its pdf; for 'tanh', aten's left / right derivative.
    derivative: unaryGrad(['self'], (c) => {
      const x = self(c);
      if (c.args.approximate === 'tanh') {
        const inner = mul(add(x, mul(op('pow', x, 3), K_KAPPA)), K_BETA);
        const t = op('tanh', inner);
        const left = mul(add(t, 1), 0.5);
        const dInner = mul(add(mul(op('square', x), 3 * K_KAPPA), 1), K_BETA);
        return mul(c.grad, add(left, mul(mul(mul(x, 0.5), sub(1, op('square', t))), dInner)));
      }
      const cdf = mul(add(op('erf', mul(x, SQRT1_2)), 1), 0.5);
      const pdf = mul(op('exp', mul(op('square', x), -0.5)), INV_SQRT_2PI);
      return mul(c.grad, add(cdf, mul(x, pdf)));
    }),
  },
  {
    // x where |x| > lambd (NaN fails both comparisons and is kept), else 0.
    ...floatRow,
    name: 'hardshrink',
    schema: 'hardshrink(Tensor self, Scalar lambd=0.5) -> Tensor',
    scalars: ['lambd'],
    num: (x: number, l: number) => (x >= -l && x <= l ? 0 : x),
    variants: 'function, method',
    inplace: false,
    aliases: ['nn.functional.hardshrink'],
    wgsl: { f32: 'select(a, 0.0, a >= -s0 && a <= s0)' },
    derivative: unaryGrad(['self'], (c) => {
      const x = self(c);
      const l = num(c, 'lambd');
      return where(op('logical_and', op('ge', x, negate(l)), op('le', x, l)), 0, c.grad);
    }),
  },
  {
    ...floatRow,
    name: 'softshrink',
    schema: 'softshrink(Tensor self, Scalar lambd=0.5) -> Tensor',
    scalars: ['lambd'],
    // NaN fails both comparisons: 0, as aten's kernel gives.
    num: (x: number, l: number) => (x > l ? x - l : x < -l ? x + l : 0),
    select: (args): PointwiseRow | undefined => {
      const l = scalarOf(args, 'lambd', 0.5);
      if (!(l >= 0))
        throw new InvalidArgumentError(`lambda must be greater or equal to 0, but found to be ${l}.`, {
          op: 'softshrink',
          arg: 'lambd',
          got: l,
          expected: 'lambd >= 0',
        });
      return undefined;
    },
    inplace: false,
    aliases: ['nn.functional.softshrink'],
    wgsl: { f32: 'select(select(select(0.0, a + s0, a < -s0), a - s0, a > s0), 0.0, is_nan(a))', nan: 'own' },
    derivative: unaryGrad(['self'], (c) => {
      const x = self(c);
      const l = num(c, 'lambd');
      return where(op('logical_or', op('gt', x, l), op('lt', x, negate(l))), c.grad, 0);
    }),
  },
  {
    ...floatRow,
    name: 'hardsigmoid',
    num: (x: number) => Math.min(Math.max(x + 3, 0), 6) / 6,
    aliases: ['nn.functional.hardsigmoid'],
    wgsl: { f32: 'min(max(a + 3.0, 0.0), 6.0) / 6.0' },
    derivative: unaryGrad(['self'], (c) => {
      const x = self(c);
      return where(op('logical_and', op('gt', x, -3), op('lt', x, 3)), mul(c.grad, 1 / 6), 0);
    }),
  },
  {
    ...floatRow,
    name: 'hardswish',
    num: (x: number) => (x * Math.min(Math.max(x + 3, 0), 6)) / 6,
    aliases: ['nn.functional.hardswish'],
    wgsl: { f32: 'a * min(max(a + 3.0, 0.0), 6.0) / 6.0' },
    // hardswish_backward: 0 below -3, grad * (x / 3 + 1/2) up to 3, grad above.
    derivative: unaryGrad(['self'], (c) => {
      const x = self(c);
      const mid = mul(c.grad, add(mul(x, 1 / 3), 0.5));
      return where(op('lt', x, -3), 0, where(op('le', x, 3), mid, c.grad));
    }),
  },
  HARDTANH,
  {
    // aten's relu6 is hardtanh(self, 0, 6) (so uint8 works: no negative limit); no out= overload.
    name: 'relu6',
    arity: 1,
    promotion: 'default',
    num: (x: number) => clampNumber(x, 0, 6),
    big: (x: bigint) => clampBigInt(x, 0n, 6n),
    kinds: ['int', 'float'],
    refuse: { bool: 'Bool inputs not supported for hardtanh' },
    variants: 'function',
    out: false,
    aliases: ['nn.functional.relu6'],
    wgsl: { f32: 'clamp(a, 0.0, 6.0)', i32: 'clamp(a, 0, 6)' },
    derivative: hardtanhGrad(
      () => 0,
      () => 6,
    ),
  },
  {
    ...floatRow,
    name: 'leaky_relu',
    schema: 'leaky_relu(Tensor self, Scalar negative_slope=0.01) -> Tensor',
    scalars: ['negative_slope'],
    num: (x: number, s: number) => (x > 0 ? x : x * s),
    aliases: ['nn.functional.leaky_relu'],
    wgsl: { f32: 'select(a * s0, a, a > 0.0)' },
    derivative: unaryGrad(['self'], (c) =>
      where(op('gt', self(c), 0), c.grad, mul(c.grad, num(c, 'negative_slope'))),
    ),
  },
  {
    // -softplus(-x) without overflow: min(x, 0) - log1p(exp(-|x|)).
    ...floatRow,
    name: 'log_sigmoid',
    num: (x: number) => Math.min(x, 0) - Math.log1p(Math.exp(-Math.abs(x))),
    inplace: false,
    aliases: ['nn.functional.logsigmoid'],
    wgsl: { f32: 'min(a, 0.0) - log(1.0 + exp(-abs(a)))' },
    derivative: unaryGrad(['self'], (c) => mul(c.grad, op('sigmoid', neg(self(c))))),
  },
  {
    ...floatRow,
    name: 'mish',
    num: (x: number) => x * Math.tanh(x > 20 ? x : Math.log1p(Math.exp(x))),
    aliases: ['nn.functional.mish'],
    wgsl: { f32: 'a * tanh(min(select(log(1.0 + exp(a)), a, a > 20.0), 10.0))' },
    // mish_backward: tanh(softplus(x)) + x * sigmoid(x) * (1 - tanh(softplus(x))^2).
    derivative: unaryGrad(['self'], (c) => {
      const x = self(c);
      const t = op('tanh', op('softplus', x));
      return mul(c.grad, add(t, mul(mul(x, op('sigmoid', x)), sub(1, op('square', t)))));
    }),
  },
  {
    // x where x > threshold, else value (NaN fails x <= threshold and is kept); integer dtypes truncate both.
    name: 'threshold',
    schema: 'threshold(Tensor self, Scalar threshold, Scalar value) -> Tensor',
    arity: 1,
    promotion: 'default',
    scalars: ['threshold', 'value'],
    num: (x: number, t: number, v: number) => (x <= t ? v : x),
    int: (x: number, t: number, v: number) => (x <= Math.trunc(t) ? Math.trunc(v) : x),
    big: (x: bigint, t: bigint, v: bigint) => (x <= t ? v : x),
    kinds: ['int', 'float'],
    variants: 'function',
    aliases: ['nn.functional.threshold'],
    wgsl: { f32: 'select(a, s1, a <= s0)', i32: 'select(a, s1, a <= s0)' },
    derivative: unaryGrad(['self'], (c) => where(op('le', self(c), num(c, 'threshold')), 0, c.grad)),
  },
] as const satisfies readonly PointwiseRow[];
