/** Arithmetic OpInfos, clamp's included. */
export { ARITH_OPINFOS } from './arith.ts';
export { CLAMP_OPINFOS } from './clamp.ts';
