/** OpInfos of the trigonometric and hyperbolic functions, deg2rad, atan2 and hypot. */
import {
  ALL,
  binaryOpInfo as binary,
  FLOATS,
  floatSpec as float_,
  NO_COMPLEX,
  unaryOpInfo as unary,
} from '../../../families/pointwise.ts';
import type { OpInfo } from '../../../types.ts';

const UNIT = { gradDomain: { low: -0.9, high: 0.9 } };

export const TRIG_OPINFOS: readonly OpInfo[] = [
  unary(
    'sin',
    Math.sin,
    float_(ALL, (re, im) => [Math.sin(re) * Math.cosh(im), Math.cos(re) * Math.sinh(im)]),
  ),
  unary(
    'cos',
    Math.cos,
    float_(ALL, (re, im) => [Math.cos(re) * Math.cosh(im), -Math.sin(re) * Math.sinh(im)]),
  ),
  unary('tan', Math.tan, float_(NO_COMPLEX)),
  unary('asin', Math.asin, { ...float_(NO_COMPLEX, undefined, UNIT), aliases: ['arcsin'] }),
  unary('acos', Math.acos, { ...float_(NO_COMPLEX, undefined, UNIT), aliases: ['arccos'] }),
  unary('atan', Math.atan, { ...float_(NO_COMPLEX), aliases: ['arctan'] }),
  unary('sinh', Math.sinh, float_(NO_COMPLEX)),
  unary('cosh', Math.cosh, float_(NO_COMPLEX)),
  unary('tanh', Math.tanh, float_(NO_COMPLEX)),
  unary('deg2rad', (x) => x / (180 / Math.PI), float_(NO_COMPLEX)),
  binary('atan2', Math.atan2, { dtypes: NO_COMPLEX, intToFloat: true }),
  binary('hypot', (a, b) => Math.hypot(a, b), { dtypes: FLOATS }),
];
