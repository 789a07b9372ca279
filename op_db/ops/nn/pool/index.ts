/**
 * OpInfos of the poolings.
 */
export { NN_ADAPTIVE_POOL_OPINFOS } from './adaptive.ts';
export { NN_FRACTIONAL_POOL_OPINFOS } from './fractional.ts';
export { NN_POOLING_OPINFOS } from './pooling.ts';
