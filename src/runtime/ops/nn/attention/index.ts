/**
 * Scaled dot-product attention (PyTorch 1.13's math path).
 */
export { type ATTENTION_API, registerAttention } from './attention.ts';
