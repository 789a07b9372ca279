/** OpInfos for unary pointwise ops: one line each (name, reference, claimed dtypes, options). */
import { DTYPE_GROUPS, DTYPE_INFO, type DType, opVariants, tensor } from '../../../src/runtime/index.ts';
import { unaryArbitrary } from '../../families/arbitraries.ts';
import { sample, type UnaryOptions, unaryErrors, unarySamples } from '../../families/unary.ts';
import { opInfo } from '../../info.ts';
import { type ComplexFn, elementwise, unaryRef } from '../../refs/pointwise.ts';
import { type PromotionRule, pointwiseResultDType } from '../../refs/promotion.ts';
import { erfRef, roundHalfEvenRef } from '../../refs/special.ts';
import { castValue } from '../../refs/tensor.ts';
import type { OpInfo } from '../../types.ts';

const ALL = DTYPE_GROUPS.all;
const NO_COMPLEX = DTYPE_GROUPS.allButComplex;
const NO_BOOL = DTYPE_GROUPS.allButBool;
const REAL_NUMERIC = DTYPE_GROUPS.realNumeric;
const FLOATS = DTYPE_GROUPS.floating;
const INT_BOOL = DTYPE_GROUPS.integralAndBool;

interface UnarySpec {
  readonly dtypes: readonly DType[];
  readonly complexRef?: ComplexFn;
  readonly samples?: UnaryOptions;
  readonly aliases?: readonly string[];
  readonly intToFloat?: boolean;
  readonly name?: string;
  readonly rule?: PromotionRule;
  readonly exact?: boolean;
}

function unary(op: string, ref: (x: number) => number, spec: UnarySpec): OpInfo {
  return opInfo({
    name: spec.name ?? op,
    op,
    family: 'unary',
    aliases: spec.aliases ?? [],
    dtypes: spec.dtypes,
    sampleInputs: unarySamples(spec.samples),
    errorInputs: unaryErrors((spec.intToFloat ?? false) && opVariants(op).inplace),
    arbitrary: unaryArbitrary(spec.samples),
    ref: unaryRef(ref, spec.complexRef),
    resultDType: (s) => pointwiseResultDType(s, spec.rule ?? (spec.intToFloat ? 'intToFloat' : 'promote')),
    flags: { promotesIntToFloat: spec.intToFloat ?? false, exactRounding: spec.exact ?? false },
  });
}

const cexp: ComplexFn = (re, im) => [Math.exp(re) * Math.cos(im), Math.exp(re) * Math.sin(im)];
// |z| via hypot: re² + im² overflows / underflows at the extremes the property oracle generates.
const clog: ComplexFn = (re, im) => [Math.log(Math.hypot(re, im)), Math.atan2(im, re)];
/** Smooth domains for gradient samples (outside them the derivative is NaN or infinite). */
const POSITIVE = { gradDomain: { low: 0.5, high: 9 } };
const UNIT = { gradDomain: { low: -0.9, high: 0.9 } };
/**
 * ATen's round(decimals=d) in the dtype: nearbyint(x * 10^d) / 10^d (x / 10^-d, then * 10^-d for negative d), each
 * product and quotient rounded to the dtype as ATen's scalar_t arithmetic rounds it.
 */
const roundDecimalsRef = (x: number, d: number, dtype: DType) => {
  if (d === 0) return roundHalfEvenRef(x);
  const p = 10 ** Math.abs(d);
  const scaled = castValue(d > 0 ? x * p : x / p, dtype);
  return castValue(d > 0 ? roundHalfEvenRef(scaled) / p : roundHalfEvenRef(scaled) * p, dtype);
};
/** PyTorch's softplus in float64: the input itself above the threshold, else log(1 + e^(beta x)) / beta. */
const softplusRef = (x: number, beta: number, threshold: number) =>
  beta * x > threshold ? x : Math.log1p(Math.exp(beta * x)) / beta;

const float = (dtypes: readonly DType[], complexRef?: ComplexFn, samples?: UnaryOptions): UnarySpec => ({
  dtypes,
  complexRef,
  samples,
  intToFloat: true,
});

export const UNARY_OPINFOS: readonly OpInfo[] = [
  unary('abs', Math.abs, {
    dtypes: NO_BOOL,
    rule: 'complexToFloat',
    complexRef: (re, im) => [Math.hypot(re, im), 0],
  }),
  unary('neg', (x) => -x, {
    dtypes: NO_BOOL,
    exact: true,
    complexRef: (re, im) => [-re, -im],
    aliases: ['negative'],
  }),
  unary('exp', Math.exp, float(ALL, cexp)),
  unary('deg2rad', (x) => x / (180 / Math.PI), float(NO_COMPLEX)),
  unary('exp2', (x) => 2 ** x, float(NO_COMPLEX)),
  unary('expm1', Math.expm1, float(NO_COMPLEX)),
  unary('log', Math.log, float(ALL, clog, POSITIVE)),
  unary('log2', Math.log2, float(NO_COMPLEX, undefined, POSITIVE)),
  unary('log10', Math.log10, float(NO_COMPLEX, undefined, POSITIVE)),
  unary('log1p', Math.log1p, float(NO_COMPLEX, undefined, { gradDomain: { low: -0.5, high: 9 } })),
  unary('sqrt', Math.sqrt, {
    ...float(
      ALL,
      (re, im) => {
        const m = Math.hypot(re, im);
        return [Math.sqrt((m + re) / 2), Math.sign(im || 1) * Math.sqrt((m - re) / 2)];
      },
      POSITIVE,
    ),
    exact: true,
  }),
  unary('rsqrt', (x) => 1 / Math.sqrt(x), float(NO_COMPLEX, undefined, POSITIVE)),
  unary(
    'sin',
    Math.sin,
    float(ALL, (re, im) => [Math.sin(re) * Math.cosh(im), Math.cos(re) * Math.sinh(im)]),
  ),
  unary(
    'cos',
    Math.cos,
    float(ALL, (re, im) => [Math.cos(re) * Math.cosh(im), -Math.sin(re) * Math.sinh(im)]),
  ),
  unary('tan', Math.tan, float(NO_COMPLEX)),
  unary('asin', Math.asin, { ...float(NO_COMPLEX, undefined, UNIT), aliases: ['arcsin'] }),
  unary('acos', Math.acos, { ...float(NO_COMPLEX, undefined, UNIT), aliases: ['arccos'] }),
  unary('atan', Math.atan, { ...float(NO_COMPLEX), aliases: ['arctan'] }),
  unary('sinh', Math.sinh, float(NO_COMPLEX)),
  unary('cosh', Math.cosh, float(NO_COMPLEX)),
  unary('tanh', Math.tanh, float(NO_COMPLEX)),
  unary('sigmoid', (x) => 1 / (1 + Math.exp(-x)), float(NO_COMPLEX)),
  unary('erf', erfRef, float(NO_COMPLEX)),
  unary('silu', (x) => x / (1 + Math.exp(-x)), { dtypes: FLOATS, name: 'nn.functional.silu' }),
  unary('relu', (x) => (Number.isNaN(x) ? x : Math.max(x, 0)), {
    dtypes: REAL_NUMERIC,
    exact: true,
    name: 'nn.functional.relu',
  }),
  {
    ...unary('softplus', (x) => softplusRef(x, 1, 20), { dtypes: FLOATS, name: 'nn.functional.softplus' }),
    // The defaults, then beta/threshold kwargs: threshold 5 puts beta * x on both sides of the switch.
    sampleInputs: (ctx) => [
      ...unarySamples()(ctx),
      ...unarySamples({ kwargs: { beta: 2, threshold: 5 }, noSpecials: true, low: -4, high: 4 })(ctx).slice(
        0,
        3,
      ),
    ],
    ref: (s) =>
      elementwise(
        [s.input],
        (x) => softplusRef(x, Number(s.kwargs.beta ?? 1), Number(s.kwargs.threshold ?? 20)),
        s.input.dtype,
      ),
  },
  unary('floor', Math.floor, { dtypes: REAL_NUMERIC, exact: true }),
  unary('ceil', Math.ceil, { dtypes: REAL_NUMERIC, exact: true }),
  unary('trunc', Math.trunc, { dtypes: REAL_NUMERIC, exact: true, aliases: ['fix'] }),
  {
    ...unary('round', roundHalfEvenRef, { dtypes: REAL_NUMERIC, exact: true }),
    // round.decimals on floating dtypes (integers raise with decimals, an error input); it has no out= form here.
    outApplies: (s) => s.kwargs.decimals === undefined,
    sampleInputs: (ctx) => [
      ...unarySamples()(ctx),
      ...(DTYPE_INFO[ctx.dtype].kind === 'float'
        ? [2, -1, 0].flatMap((decimals) =>
            unarySamples({ kwargs: { decimals }, noSpecials: true })(ctx).slice(0, 2),
          )
        : []),
    ],
    errorInputs: (ctx) => [
      ...unaryErrors(false)(ctx),
      {
        sample: sample(tensor([1, 2]), [], { decimals: 1 }, { name: 'int64 with decimals' }),
        code: 'E_DTYPE_UNSUPPORTED',
        regex: /"round_cpu" not implemented for 'Long'/,
      },
    ],
    ref: (s) =>
      elementwise(
        [s.input],
        (x) => roundDecimalsRef(x, Number(s.kwargs.decimals ?? 0), s.input.dtype),
        s.input.dtype,
      ),
  },
  unary('frac', (x) => x - Math.trunc(x), { dtypes: FLOATS }),
  // PyTorch 1.13's kernel is (0 < a) - (a < 0): NaN and -0 both give +0.
  unary('sign', (x) => (x > 0 ? 1 : 0) - (x < 0 ? 1 : 0), {
    dtypes: NO_COMPLEX,
    exact: true,
  }),
  unary(
    'reciprocal',
    (x) => 1 / x,
    float(ALL, (re, im) => [re / (re * re + im * im), -im / (re * re + im * im)]),
  ),
  unary('square', (x) => x * x, {
    dtypes: NO_BOOL,
    exact: true,
    complexRef: (re, im) => [re * re - im * im, 2 * re * im],
  }),
  unary('logical_not', (x) => (x === 0 ? 1 : 0), {
    dtypes: ALL,
    rule: 'bool',
    complexRef: (re, im) => [re === 0 && im === 0 ? 1 : 0, 0],
  }),
  {
    ...unary('bitwise_not', (x) => ~x, { dtypes: INT_BOOL }),
    ref: (s) => elementwise([s.input], s.input.dtype === 'bool' ? (x) => 1 - x : (x) => ~x, s.input.dtype),
  },
  unary('isnan', (x) => (Number.isNaN(x) ? 1 : 0), {
    dtypes: ALL,
    rule: 'bool',
    complexRef: (re, im) => [Number.isNaN(re) || Number.isNaN(im) ? 1 : 0, 0],
  }),
  unary('isinf', (x) => (x === Infinity || x === -Infinity ? 1 : 0), {
    dtypes: NO_COMPLEX,
    rule: 'bool',
  }),
  unary('isfinite', (x) => (Number.isFinite(x) ? 1 : 0), {
    dtypes: ALL,
    rule: 'bool',
    complexRef: (re, im) => [Number.isFinite(re) && Number.isFinite(im) ? 1 : 0, 0],
  }),
];
