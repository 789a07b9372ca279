/** Logical and bitwise ops. */
export { BITWISE_ROWS } from './bitwise.ts';
