/**
 * OpInfos of sort and topk.
 */
export { SORTING_OPINFOS } from './sorting.ts';
