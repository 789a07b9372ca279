/**
 * OpInfos of the pads.
 */
export { NN_PAD_OPINFOS } from './pad.ts';
