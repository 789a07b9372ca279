/** OpInfos for binary pointwise ops: one line each (name, reference, claimed dtypes, sample options). */
import {
  DTYPE_GROUPS,
  DTYPE_INFO,
  type DType,
  float,
  takesNumbersAsTensors,
} from '../../../src/runtime/index.ts';
import { binaryArbitrary } from '../../families/arbitraries.ts';
import { type BinaryOptions, binaryErrors, binarySamples } from '../../families/binary.ts';
import { opInfo } from '../../info.ts';
import { binaryRef } from '../../refs/pointwise.ts';
import { type PromotionRule, pointwiseResultDType } from '../../refs/promotion.ts';
import { intPowWrap } from '../../refs/special.ts';
import type { OpInfo, RefSample } from '../../types.ts';
import { alphaErrors, negativeIntExponent } from './binary_errors.ts';

const ALL = DTYPE_GROUPS.all;
const NO_COMPLEX = DTYPE_GROUPS.allButComplex;
const NO_BOOL = DTYPE_GROUPS.allButBool;
const REAL_NUMERIC = DTYPE_GROUPS.realNumeric;
const FLOATS = DTYPE_GROUPS.floating;
const INT_BOOL = DTYPE_GROUPS.integralAndBool;

type CRef = (ar: number, ai: number, br: number, bi: number, s: RefSample) => [number, number];

interface BinarySpec {
  readonly dtypes: readonly DType[];
  readonly complexRef?: CRef;
  readonly samples?: BinaryOptions;
  readonly intToFloat?: boolean;
  readonly name?: string;
  readonly rule?: PromotionRule;
  readonly exact?: boolean;
  /** Kwargs under which an integer zero divisor raises (one error input each). */
  readonly zeroDivisor?: readonly Readonly<Record<string, unknown>>[];
}

function binary(op: string, ref: (a: number, b: number, s: RefSample) => number, spec: BinarySpec): OpInfo {
  const lhs = spec.samples?.lhs;
  const rhs = spec.samples?.rhs;
  const bounds = (o?: { low?: number; high?: number; excludeZero?: boolean }) => ({
    min: o?.low,
    max: o?.high,
    excludeZero: o?.excludeZero,
  });
  return opInfo({
    name: spec.name ?? op,
    op,
    family: 'binary',
    dtypes: spec.dtypes,
    // A Python number for `other` binds only where PyTorch takes one (a Scalar overload, or add/sub/mul/div):
    // elsewhere (atan2, maximum, logical_and) it is an argument-parsing error, checked as one.
    sampleInputs: binarySamples({
      ...spec.samples,
      noScalar: spec.samples?.noScalar || !takesNumbersAsTensors(op),
    }),
    errorInputs: binaryErrors(spec.zeroDivisor, !takesNumbersAsTensors(op)),
    arbitrary: binaryArbitrary(bounds(lhs), bounds(rhs), spec.samples?.kwargs),
    ref: binaryRef(ref, spec.complexRef),
    resultDType: (s) => pointwiseResultDType(s, spec.rule ?? (spec.intToFloat ? 'intToFloat' : 'promote')),
    flags: { promotesIntToFloat: spec.intToFloat ?? false, exactRounding: spec.exact ?? false },
  });
}

import {
  AWAY_FROM_JUMPS,
  addErrors,
  alpha,
  cmp,
  floorDivSamples,
  nanAware,
  narrowedDivisor,
  nonZeroRhs,
  pyRemainder,
  tensorAlphaSamples,
  tiedStrideSamples,
  tieSamples,
  tiledSamples,
  truthy,
  withKwargSamples,
  withSamples,
  wrappedZeroDivisor,
} from './binary_samples.ts';

/** div keeps integer dtypes when it rounds (trunc/floor) and promotes them to float otherwise. */
const withDivRule = (info: OpInfo): OpInfo => ({
  ...info,
  resultDType: (s) => pointwiseResultDType(s, s.kwargs.rounding_mode ? 'promote' : 'intToFloat'),
});
/** Rounding modes exist for real non-bool dtypes (PyTorch: "div_floor_cpu" not implemented for 'Bool'). */
const roundable = (d: DType) => DTYPE_INFO[d].kind === 'int' || DTYPE_INFO[d].kind === 'float';
const intAlpha = (d: DType) => DTYPE_INFO[d].kind === 'int';
const floatAlpha = (d: DType) => DTYPE_INFO[d].kind === 'float' || DTYPE_INFO[d].kind === 'complex';

/** C's pow (what PyTorch computes): 1 ** y and x ** 0 are 1 even for NaN, (-1) ** ±inf is 1; JS's ** says NaN. */
function cPow(a: number, b: number): number {
  if (b === 0 || a === 1) return 1;
  if (a === -1 && (b === Number.POSITIVE_INFINITY || b === Number.NEGATIVE_INFINITY)) return 1;
  return a ** b;
}

export const BINARY_OPINFOS: readonly OpInfo[] = [
  withSamples(
    withKwargSamples(
      binary('add', (a, b, s) => a + alpha(s) * b, {
        dtypes: ALL,
        samples: { beyondFloat64: true, mixedScalar: true, subnormals: true },
        exact: true,
        // alpha * other is a complex product (alpha + 0i), as in c10::complex: 0 * inf gives NaN like PyTorch.
        complexRef: (ar, ai, br, bi, s) => [ar + (alpha(s) * br - 0 * bi), ai + (alpha(s) * bi + 0 * br)],
      }),
      [
        { kwargs: { alpha: 2 }, when: intAlpha },
        { kwargs: { alpha: float(0.5) }, when: floatAlpha },
      ],
    ),
    (ctx) => [...tiledSamples(ctx), ...tiedStrideSamples(ctx)],
    (ctx) => [...addErrors(ctx), ...alphaErrors(ctx)],
  ),
  withSamples(
    withKwargSamples(
      binary('sub', (a, b, s) => a - alpha(s) * b, {
        dtypes: NO_BOOL,
        samples: { beyondFloat64: true, mixedScalar: true, subnormals: true },
        exact: true,
        complexRef: (ar, ai, br, bi, s) => [ar - (alpha(s) * br - 0 * bi), ai - (alpha(s) * bi + 0 * br)],
      }),
      [
        { kwargs: { alpha: -3 }, when: intAlpha },
        { kwargs: { alpha: float(1.5) }, when: floatAlpha },
      ],
    ),
    tensorAlphaSamples,
  ),
  binary('mul', (a, b) => a * b, {
    dtypes: ALL,
    samples: { beyondFloat64: true, mixedScalar: true, subnormals: true },
    exact: true,
    complexRef: (ar, ai, br, bi) => [ar * br - ai * bi, ar * bi + ai * br],
  }),
  withDivRule(
    withSamples(
      withKwargSamples(
        binary(
          'div',
          (a, b, s) => {
            const q = a / b;
            if (s.kwargs.rounding_mode === 'trunc') return Math.trunc(q);
            if (s.kwargs.rounding_mode === 'floor') return b === 0 ? q : Math.floor(q);
            return q;
          },
          {
            dtypes: ALL,
            intToFloat: true,
            exact: true,
            samples: { mixedScalar: true },
            zeroDivisor: [{ rounding_mode: 'trunc' }, { rounding_mode: 'floor' }],
            complexRef: (ar, ai, br, bi) => {
              const d = br * br + bi * bi;
              return [(ar * br + ai * bi) / d, (ai * br - ar * bi) / d];
            },
          },
        ),
        [
          { kwargs: { rounding_mode: 'trunc' }, opts: { rhs: { excludeZero: true } }, when: roundable },
          { kwargs: { rounding_mode: 'floor' }, opts: { rhs: { excludeZero: true } }, when: roundable },
        ],
      ),
      floorDivSamples,
    ),
  ),
  withSamples(
    binary('remainder', pyRemainder, {
      dtypes: REAL_NUMERIC,
      samples: { ...nonZeroRhs, ...AWAY_FROM_JUMPS },
      zeroDivisor: [{}],
    }),
    narrowedDivisor,
    wrappedZeroDivisor,
  ),
  binary('fmod', (a, b) => a % b, {
    dtypes: REAL_NUMERIC,
    exact: true,
    zeroDivisor: [{}],
    samples: { ...nonZeroRhs, ...AWAY_FROM_JUMPS },
  }),
  withSamples(
    binary(
      'pow',
      (a, b, s) => (DTYPE_INFO[s.input.dtype].kind === 'int' && b >= 0 ? intPowWrap(a, b) : cPow(a, b)),
      {
        dtypes: NO_BOOL,
        samples: {
          rhs: { low: 0, high: 4 },
          lhs: { low: -4, high: 4 },
          gradLhs: { low: 0.5, high: 3 },
          gradRhs: { low: -2, high: 2 },
        },
        complexRef: (ar, ai, br, bi) => {
          if (ar === 0 && ai === 0) return br === 0 && bi === 0 ? [1, 0] : [0, 0];
          const lr = Math.log(Math.hypot(ar, ai));
          const th = Math.atan2(ai, ar);
          const mag = Math.exp(br * lr - bi * th);
          return [mag * Math.cos(bi * lr + br * th), mag * Math.sin(bi * lr + br * th)];
        },
      },
    ),
    () => [],
    negativeIntExponent,
  ),
  withSamples(binary('maximum', nanAware(Math.max), { dtypes: NO_COMPLEX, exact: true }), tieSamples),
  withSamples(binary('minimum', nanAware(Math.min), { dtypes: NO_COMPLEX, exact: true }), tieSamples),
  binary('atan2', Math.atan2, { dtypes: NO_COMPLEX, intToFloat: true }),
  binary('hypot', (a, b) => Math.hypot(a, b), { dtypes: FLOATS }),
  binary('copysign', (a, b) => (b < 0 || Object.is(b, -0) ? -Math.abs(a) : Math.abs(a)), {
    dtypes: NO_COMPLEX,
    intToFloat: true,
    exact: true,
  }),
  binary(
    'eq',
    cmp((a, b) => a === b),
    { dtypes: ALL, rule: 'bool', complexRef: (ar, ai, br, bi) => [ar === br && ai === bi ? 1 : 0, 0] },
  ),
  binary(
    'ne',
    cmp((a, b) => a !== b),
    { dtypes: ALL, rule: 'bool', complexRef: (ar, ai, br, bi) => [ar !== br || ai !== bi ? 1 : 0, 0] },
  ),
  binary(
    'lt',
    cmp((a, b) => a < b),
    { dtypes: NO_COMPLEX, rule: 'bool' },
  ),
  binary(
    'le',
    cmp((a, b) => a <= b),
    { dtypes: NO_COMPLEX, rule: 'bool' },
  ),
  binary(
    'gt',
    cmp((a, b) => a > b),
    { dtypes: NO_COMPLEX, rule: 'bool' },
  ),
  binary(
    'ge',
    cmp((a, b) => a >= b),
    { dtypes: NO_COMPLEX, rule: 'bool' },
  ),
  binary(
    'logical_and',
    cmp((a, b) => truthy(a) && truthy(b)),
    {
      dtypes: ALL,
      rule: 'bool',
      complexRef: (ar, ai, br, bi) => [(truthy(ar) || truthy(ai)) && (truthy(br) || truthy(bi)) ? 1 : 0, 0],
    },
  ),
  binary(
    'logical_or',
    cmp((a, b) => truthy(a) || truthy(b)),
    {
      dtypes: ALL,
      rule: 'bool',
      complexRef: (ar, ai, br, bi) => [truthy(ar) || truthy(ai) || truthy(br) || truthy(bi) ? 1 : 0, 0],
    },
  ),
  binary(
    'logical_xor',
    cmp((a, b) => truthy(a) !== truthy(b)),
    {
      dtypes: ALL,
      rule: 'bool',
      complexRef: (ar, ai, br, bi) => [(truthy(ar) || truthy(ai)) !== (truthy(br) || truthy(bi)) ? 1 : 0, 0],
    },
  ),
  binary('bitwise_and', (a, b) => a & b, { dtypes: INT_BOOL }),
  binary('bitwise_or', (a, b) => a | b, { dtypes: INT_BOOL }),
  binary('bitwise_xor', (a, b) => a ^ b, { dtypes: INT_BOOL }),
];
