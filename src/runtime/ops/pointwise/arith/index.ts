/** Arithmetic: abs, neg, sign, reciprocal, square, add, sub, mul, div, remainder, fmod, maximum, minimum, copysign, clamp. */
export { ARITH_BINARY_ROWS } from './binary.ts';
export { type CLAMP_API, registerClamp } from './clamp.ts';
export { cmul } from './scalar_math.ts';
export { ARITH_UNARY_ROWS } from './unary.ts';
export { checkIntegerDivisor } from './zero_divisor.ts';
