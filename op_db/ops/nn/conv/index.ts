/**
 * OpInfos of the convolutions and F.unfold / F.fold.
 */
export { NN_CONV_OPINFOS } from './conv.ts';
export { NN_UNFOLD_OPINFOS } from './unfold.ts';
