/**
 * OpInfos of the reductions, norms, statistics, scans and softmax.
 */
export { REDUCTION_OPINFOS } from './reductions.ts';
