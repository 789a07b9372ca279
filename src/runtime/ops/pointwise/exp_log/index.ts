/** Exponentials, logarithms, roots and pow. */
export { EXP_LOG_ROWS } from './exp_log.ts';
export { POW_ROW } from './pow.ts';
