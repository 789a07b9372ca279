/** OpInfos of arithmetic: abs, neg, sign, reciprocal, square, add, sub, mul, div, remainder, fmod, maximum, minimum, copysign. */
import { DTYPE_INFO, type DType, float } from '../../../../src/runtime/index.ts';
import {
  ALL,
  binaryOpInfo as binary,
  floatSpec as float_,
  NO_BOOL,
  NO_COMPLEX,
  REAL_NUMERIC,
  unaryOpInfo as unary,
} from '../../../families/pointwise.ts';
import { pointwiseResultDType } from '../../../refs/promotion.ts';
import type { OpInfo } from '../../../types.ts';
import { alphaErrors } from '../binary_errors.ts';
import {
  AWAY_FROM_JUMPS,
  addErrors,
  alpha,
  floorDivSamples,
  nanAware,
  narrowedDivisor,
  nonZeroRhs,
  pyRemainder,
  tensorAlphaSamples,
  tiedStrideSamples,
  tieSamples,
  tiledSamples,
  withKwargSamples,
  withSamples,
  wrappedZeroDivisor,
} from '../binary_samples.ts';

/** div keeps integer dtypes when it rounds (trunc/floor) and promotes them to float otherwise. */
const withDivRule = (info: OpInfo): OpInfo => ({
  ...info,
  resultDType: (s) => pointwiseResultDType(s, s.kwargs.rounding_mode ? 'promote' : 'intToFloat'),
});
/** Rounding modes exist for real non-bool dtypes (PyTorch: "div_floor_cpu" not implemented for 'Bool'). */
const roundable = (d: DType) => DTYPE_INFO[d].kind === 'int' || DTYPE_INFO[d].kind === 'float';
const intAlpha = (d: DType) => DTYPE_INFO[d].kind === 'int';
const floatAlpha = (d: DType) => DTYPE_INFO[d].kind === 'float' || DTYPE_INFO[d].kind === 'complex';

export const ARITH_OPINFOS: readonly OpInfo[] = [
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
  // PyTorch 1.13's kernel is (0 < a) - (a < 0): NaN and -0 both give +0.
  unary('sign', (x) => (x > 0 ? 1 : 0) - (x < 0 ? 1 : 0), {
    dtypes: NO_COMPLEX,
    exact: true,
  }),
  unary(
    'reciprocal',
    (x) => 1 / x,
    float_(ALL, (re, im) => [re / (re * re + im * im), -im / (re * re + im * im)]),
  ),
  unary('square', (x) => x * x, {
    dtypes: NO_BOOL,
    exact: true,
    complexRef: (re, im) => [re * re - im * im, 2 * re * im],
  }),
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
  withSamples(binary('maximum', nanAware(Math.max), { dtypes: NO_COMPLEX, exact: true }), tieSamples),
  withSamples(binary('minimum', nanAware(Math.min), { dtypes: NO_COMPLEX, exact: true }), tieSamples),
  binary('copysign', (a, b) => (b < 0 || Object.is(b, -0) ? -Math.abs(a) : Math.abs(a)), {
    dtypes: NO_COMPLEX,
    intToFloat: true,
    exact: true,
  }),
];
