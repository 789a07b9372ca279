/** Every pointwise row, by sub-family (ops/index.ts registers each with definePointwise). */
import { ARITH_BINARY_ROWS, ARITH_UNARY_ROWS } from './arith/index.ts';
import { BITWISE_ROWS } from './bitwise/index.ts';
import { COMPARE_ROWS, TERNARY_ROWS } from './compare/index.ts';
import { EXP_LOG_ROWS, POW_ROW } from './exp_log/index.ts';
import { ROUNDING_ROWS } from './rounding/index.ts';
import { SPECIAL_ROWS } from './special/index.ts';
import { TRIG_ROWS } from './trig/index.ts';

export const POINTWISE_ROWS = [
  ...ARITH_UNARY_ROWS,
  ...ARITH_BINARY_ROWS,
  ...EXP_LOG_ROWS,
  POW_ROW,
  ...TRIG_ROWS,
  ...ROUNDING_ROWS,
  ...SPECIAL_ROWS,
  ...BITWISE_ROWS,
  ...COMPARE_ROWS,
  ...TERNARY_ROWS,
] as const;
