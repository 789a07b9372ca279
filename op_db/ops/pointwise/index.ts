/**
 * OpInfos of the pointwise ops by sub-family (arith, exp_log, trig, rounding, special, bitwise, compare), the same
 * folders as the runtime's rows.
 */
export { POINTWISE_OPINFOS, TERNARY_OPINFOS } from './rows.ts';
