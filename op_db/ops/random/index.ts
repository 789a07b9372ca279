/**
 * OpInfos of the random ops.
 */
export { RANDOM_OPINFOS } from './random.ts';
