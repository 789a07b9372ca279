/** Comparisons, predicates (isnan, isinf, isfinite) and where. */
export { COMPARE_ROWS } from './compare.ts';
export { TERNARY_ROWS } from './where.ts';
