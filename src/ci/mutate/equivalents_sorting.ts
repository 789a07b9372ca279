/**
 * Equivalent mutants in the runtime's sort and topk (ops/sort_search/sort_order.ts, libstdc++'s algorithms, and
 * ops/sort_search/sorting.ts), each with the reason no input can tell it from the original (format: equivalents.ts).
 */
import type { Equivalent } from './equivalent.ts';

export const SORTING_EQUIVALENTS: readonly Equivalent[] = [
  // ops/sort_search/sort_order.ts, libstdc++'s algorithms: a bound moved by one either reads one element past a range
  // (undefined past the line's id array, which every comparison with it answers false, or an element a partition
  // already placed on the range's far side, which no comparison moves) or runs a step that changes nothing. Each
  // was also run on a Python transcription against the original over 3,000 random inputs with ties (sort, and
  // topk on both of its paths), introsort's heap fallback included: no output differed.
  {
    file: 'src/runtime/ops/sort_search/sort_order.ts',
    operator: 'swap-comparison',
    original: 'for (let i = first + 1; i < last; i++) {',
    mutated: 'i <= last',
    reason:
      'the extra element a[last] is undefined (the end of the id array: less() with it is false, the write ' +
      'past the end is never read) or lies beyond a partition boundary, so it is not less than any element of ' +
      'the range and stays where it is',
  },
  {
    file: 'src/runtime/ops/sort_search/sort_order.ts',
    operator: 'swap-comparison',
    original:
      'for (let i = middle; i < last; i++) if (less(a[i], a[first])) popHeap(a, first, middle, i, less);',
    mutated: 'i <= last',
    reason:
      'a[last] is undefined (topk calls it with last = n: less() is false) or, in introsort and introselect, an ' +
      'element on the far side of the last partition, not less than the heap top: nothing is popped',
  },
  {
    file: 'src/runtime/ops/sort_search/sort_order.ts',
    operator: 'swap-comparison',
    original: 'while (last - first > 1) {',
    mutated: 'last - first >= 1',
    reason:
      'the extra pass pops a one-element heap onto itself: pop_heap with result = first moves a[first] to a[first]',
  },
  {
    file: 'src/runtime/ops/sort_search/sort_order.ts',
    operator: 'swap-comparison',
    original: 'if (last - first > THRESHOLD) {',
    mutated: 'last - first >= THRESHOLD',
    reason:
      'at exactly 16 elements both branches run insertionSort(first, first + 16); the unguarded loop after it ' +
      'then has no element',
  },
  {
    file: 'src/runtime/ops/sort_search/sort_order.ts',
    operator: 'swap-comparison',
    original: 'for (let i = first + THRESHOLD; i < last; i++) unguardedLinearInsert(a, i, less);',
    mutated: 'i <= last',
    reason:
      'the extra insert takes a[last]: undefined at the end of the ids (less() is false: it stays) or, for ' +
      "topk's sort of the k - 1 before the k-th, the k-th itself, which nth_element left not less than any of them",
  },
  {
    file: 'src/runtime/ops/sort_search/sorting.ts',
    operator: 'swap-comparison',
    original: 'if (k > 0 && self.numel > 0)',
    reason:
      'k = 0: topkOrder returns at once and no entry is written (count 0); numel = 0: forEachLine has no line ' +
      'to visit. Either way the call does nothing, as skipping it does',
  },
];
