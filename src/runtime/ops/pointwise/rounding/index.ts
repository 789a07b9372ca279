/** Rounding: floor, ceil, trunc, round (with decimals), frac. */
export { registerRoundDecimals } from './round_decimals.ts';
export { ROUNDING_ROWS } from './rounding.ts';
