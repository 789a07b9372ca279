/** OpInfos of the comparisons, predicates and where. */
export { COMPARE_OPINFOS } from './compare.ts';
export { WHERE_OPINFO } from './where.ts';
