/**
 * OpInfos of the distances, F.normalize and F.one_hot.
 */
export { NN_DISTANCE_OPINFOS } from './distance.ts';
export { NN_MISC_OPINFOS } from './misc.ts';
