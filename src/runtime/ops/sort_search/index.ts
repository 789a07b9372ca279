/**
 * Sorting and searching: sort, topk, and the order PyTorch 1.13's CPU kernels leave equal values in.
 */

export { introsort, type Less, topkOrder } from './sort_order.ts';
export { registerSorting, type SORTING_API } from './sorting.ts';
