/**
 * OpInfos of the pointwise rows (unary, binary, ternary) and clamp.
 */
export { BINARY_OPINFOS } from './binary.ts';
export { TERNARY_OPINFOS } from './ternary.ts';
export { UNARY_OPINFOS } from './unary.ts';
