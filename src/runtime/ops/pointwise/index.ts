/**
 * Pointwise ops as table rows (scalar functions, WGSL, promotion, variants, derivative), by sub-family: arith,
 * exp_log, trig, rounding, special, bitwise, compare. definePointwise registers a row; clamp and round with
 * decimals are the pointwise ops that are not rows.
 */
export { type CLAMP_API, registerClamp } from './arith/index.ts';
export {
  definePointwise,
  POINTWISE_OVERLOADS,
  type PointwiseInfo,
  pointwisePlan,
  wgslExpr,
} from './define.ts';
export { registerRoundDecimals } from './rounding/index.ts';
export type { PointwiseRow, PromotionKind, RowsApi } from './row.ts';
export { floatOp } from './row_helpers.ts';
export { POINTWISE_ROWS } from './rows.ts';
export { clampBigInt, clampNumber, erf } from './unary_math.ts';
