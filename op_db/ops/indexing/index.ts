/**
 * OpInfos of the index-driven ops (gather, scatter, index_select, masked_fill, ...).
 */
export { INDEXING_OPINFOS } from './indexing.ts';
