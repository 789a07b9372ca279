/**
 * Normalization: batch, instance, layer, group and local response norm, and PyTorch 1.13's bfloat16 rounding of
 * layer / group norm.
 */
export { type BATCH_NORM_API, registerBatchNorm } from './batch_norm.ts';
export { type NORM_API, registerLayerNorm } from './layer_norm.ts';
