/**
 * Index-driven ops: gather, scatter (src / value / reduce) and its in-place and out= forms, index_select,
 * masked_fill.
 */
export { type INDEXING_API, registerIndexing } from './indexing.ts';
export type { SCATTER_API } from './scatter.ts';
