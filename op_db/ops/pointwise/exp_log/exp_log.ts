/** OpInfos of exponentials, logarithms, roots and pow. */
import { DTYPE_INFO } from '../../../../src/runtime/index.ts';
import {
  ALL,
  binaryOpInfo as binary,
  floatSpec as float_,
  NO_BOOL,
  NO_COMPLEX,
  unaryOpInfo as unary,
} from '../../../families/pointwise.ts';
import type { ComplexFn } from '../../../refs/pointwise.ts';
import { intPowWrap } from '../../../refs/special.ts';
import type { OpInfo } from '../../../types.ts';
import { negativeIntExponent } from '../binary_errors.ts';
import { withSamples } from '../binary_samples.ts';

const cexp: ComplexFn = (re, im) => [Math.exp(re) * Math.cos(im), Math.exp(re) * Math.sin(im)];
// |z| via hypot: re² + im² overflows / underflows at the extremes the property oracle generates.
const clog: ComplexFn = (re, im) => [Math.log(Math.hypot(re, im)), Math.atan2(im, re)];
/** Smooth domains for gradient samples (outside them the derivative is NaN or infinite). */
const POSITIVE = { gradDomain: { low: 0.5, high: 9 } };
/** C's pow (what PyTorch computes): 1 ** y and x ** 0 are 1 even for NaN, (-1) ** ±inf is 1; JS's ** says NaN. */
function cPow(a: number, b: number): number {
  if (b === 0 || a === 1) return 1;
  if (a === -1 && (b === Number.POSITIVE_INFINITY || b === Number.NEGATIVE_INFINITY)) return 1;
  return a ** b;
}

export const EXP_LOG_OPINFOS: readonly OpInfo[] = [
  unary('exp', Math.exp, float_(ALL, cexp)),
  unary('exp2', (x) => 2 ** x, float_(NO_COMPLEX)),
  unary('expm1', Math.expm1, float_(NO_COMPLEX)),
  unary('log', Math.log, float_(ALL, clog, POSITIVE)),
  unary('log2', Math.log2, float_(NO_COMPLEX, undefined, POSITIVE)),
  unary('log10', Math.log10, float_(NO_COMPLEX, undefined, POSITIVE)),
  unary('log1p', Math.log1p, float_(NO_COMPLEX, undefined, { gradDomain: { low: -0.5, high: 9 } })),
  unary('sqrt', Math.sqrt, {
    ...float_(
      ALL,
      (re, im) => {
        const m = Math.hypot(re, im);
        return [Math.sqrt((m + re) / 2), Math.sign(im || 1) * Math.sqrt((m - re) / 2)];
      },
      POSITIVE,
    ),
    exact: true,
  }),
  unary('rsqrt', (x) => 1 / Math.sqrt(x), float_(NO_COMPLEX, undefined, POSITIVE)),
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
];
