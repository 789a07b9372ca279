/**
 * OpInfos of scaled dot-product attention.
 */
export { NN_ATTENTION_OPINFOS } from './attention.ts';
