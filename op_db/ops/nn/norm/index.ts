/**
 * OpInfos of the normalizations.
 */
export { NN_NORMALIZATION_OPINFOS } from './batch_norm.ts';
export { NN_LAYER_NORM_OPINFOS } from './layer_norm.ts';
