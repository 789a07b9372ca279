/**
 * Pointwise ops as table rows (unary, binary, ternary: scalar functions, WGSL, promotion, variants, derivative),
 * definePointwise that registers a row, and the pointwise ops that are not rows (clamp, round with decimals).
 */
export { BINARY_ROWS } from './binary.ts';
export { type CLAMP_API, registerClamp } from './clamp.ts';
export {
  definePointwise,
  POINTWISE_OVERLOADS,
  type PointwiseInfo,
  pointwisePlan,
  wgslExpr,
} from './define.ts';
export { registerRoundDecimals } from './round_decimals.ts';
export type { PointwiseRow, PromotionKind, RowsApi } from './row.ts';
export { TERNARY_ROWS } from './ternary.ts';
export { UNARY_ROWS } from './unary.ts';
export { clampBigInt, clampNumber, erf } from './unary_math.ts';
