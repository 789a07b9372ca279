/**
 * OpInfos of the products (mm, bmm, mv, dot, matmul) and their bfloat16 rounding samples.
 */
export { LINALG_OPINFOS } from './linalg.ts';
export { LONG_K } from './rounding.ts';
