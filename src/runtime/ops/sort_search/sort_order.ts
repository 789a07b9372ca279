/**
 * The order PyTorch 1.13's CPU kernels leave equal values in: they sort (value, index) pairs with libstdc++'s
 * std::sort (sort with stable=False), std::partial_sort and std::nth_element (topk), whose comparators look at the
 * values only, so among equal values the order is whatever those algorithms make of the input order. These are
 * the same algorithms, step for step (GCC's bits/stl_algo.h and bits/stl_heap.h: introsort with a median-of-three
 * pivot and a final insertion sort over blocks of 16, introselect, heap select), on an array of element ids, so
 * the runtime returns the indices PyTorch returns. `less(a, b)`: element a goes before element b.
 */

export type Less = (a: number, b: number) => boolean;

/** libstdc++'s `_S_threshold`: the block introsort leaves to the final insertion sort. */
const THRESHOLD = 16;

/** 2 * floor(log2(n)): introsort's and introselect's depth limit. */
const depthLimit = (n: number) => 2 * (31 - Math.clz32(n));

function swap(a: number[], i: number, j: number): void {
  const t = a[i];
  a[i] = a[j];
  a[j] = t;
}

/** std::__move_median_to_first: the median of a[x], a[y], a[z] moved to a[result]. */
function moveMedianToFirst(a: number[], result: number, x: number, y: number, z: number, less: Less): void {
  if (less(a[x], a[y])) {
    if (less(a[y], a[z])) swap(a, result, y);
    else if (less(a[x], a[z])) swap(a, result, z);
    else swap(a, result, x);
  } else if (less(a[x], a[z])) swap(a, result, x);
  else if (less(a[y], a[z])) swap(a, result, z);
  else swap(a, result, y);
}

/** std::__unguarded_partition around the pivot a[pivot]. */
function unguardedPartition(a: number[], first: number, last: number, pivot: number, less: Less): number {
  for (;;) {
    while (less(a[first], a[pivot])) first++;
    last--;
    while (less(a[pivot], a[last])) last--;
    if (!(first < last)) return first;
    swap(a, first, last);
    first++;
  }
}

/** std::__unguarded_partition_pivot: median of three to the front, then partition the rest around it. */
function partitionPivot(a: number[], first: number, last: number, less: Less): number {
  const mid = first + Math.floor((last - first) / 2);
  moveMedianToFirst(a, first, first + 1, mid, last - 1, less);
  return unguardedPartition(a, first + 1, last, first, less);
}

function unguardedLinearInsert(a: number[], last: number, less: Less): void {
  const val = a[last];
  let next = last - 1;
  while (less(val, a[next])) {
    a[last] = a[next];
    last = next;
    next--;
  }
  a[last] = val;
}

function insertionSort(a: number[], first: number, last: number, less: Less): void {
  if (first === last) return;
  for (let i = first + 1; i < last; i++) {
    if (less(a[i], a[first])) {
      const val = a[i];
      a.copyWithin(first + 1, first, i);
      a[first] = val;
    } else unguardedLinearInsert(a, i, less);
  }
}

/** std::__push_heap on the heap a[first..], the hole at `hole`, never above `top`. */
function pushHeap(a: number[], first: number, hole: number, top: number, value: number, less: Less): void {
  let parent = Math.floor((hole - 1) / 2);
  while (hole > top && less(a[first + parent], value)) {
    a[first + hole] = a[first + parent];
    hole = parent;
    parent = Math.floor((hole - 1) / 2);
  }
  a[first + hole] = value;
}

/** std::__adjust_heap: sift the hole down to a leaf, then push `value` up from there. */
function adjustHeap(a: number[], first: number, hole: number, len: number, value: number, less: Less): void {
  const top = hole;
  let second = hole;
  while (second < Math.floor((len - 1) / 2)) {
    second = 2 * (second + 1);
    if (less(a[first + second], a[first + second - 1])) second--;
    a[first + hole] = a[first + second];
    hole = second;
  }
  if ((len & 1) === 0 && second === Math.floor((len - 2) / 2)) {
    second = 2 * (second + 1);
    a[first + hole] = a[first + second - 1];
    hole = second - 1;
  }
  pushHeap(a, first, hole, top, value, less);
}

function makeHeap(a: number[], first: number, last: number, less: Less): void {
  const len = last - first;
  if (len < 2) return;
  for (let parent = Math.floor((len - 2) / 2); ; parent--) {
    adjustHeap(a, first, parent, len, a[first + parent], less);
    if (parent === 0) return;
  }
}

/** std::__pop_heap: the heap's top to a[result], a[result]'s element into the heap. */
function popHeap(a: number[], first: number, last: number, result: number, less: Less): void {
  const value = a[result];
  a[result] = a[first];
  adjustHeap(a, first, 0, last - first, value, less);
}

function heapSelect(a: number[], first: number, middle: number, last: number, less: Less): void {
  makeHeap(a, first, middle, less);
  for (let i = middle; i < last; i++) if (less(a[i], a[first])) popHeap(a, first, middle, i, less);
}

function sortHeap(a: number[], first: number, last: number, less: Less): void {
  while (last - first > 1) {
    last--;
    popHeap(a, first, last, last, less);
  }
}

/** std::partial_sort: the smallest `middle - first` elements, in order, at the front. */
export function partialSort(a: number[], first: number, middle: number, last: number, less: Less): void {
  heapSelect(a, first, middle, last, less);
  sortHeap(a, first, middle, less);
}

function introsortLoop(a: number[], first: number, last: number, depth: number, less: Less): void {
  while (last - first > THRESHOLD) {
    if (depth === 0) {
      partialSort(a, first, last, last, less);
      return;
    }
    depth--;
    const cut = partitionPivot(a, first, last, less);
    introsortLoop(a, cut, last, depth, less);
    last = cut;
  }
}

/** std::sort of a[first, last). */
export function introsort(a: number[], first: number, last: number, less: Less): void {
  if (first === last) return;
  introsortLoop(a, first, last, depthLimit(last - first), less);
  if (last - first > THRESHOLD) {
    insertionSort(a, first, first + THRESHOLD, less);
    for (let i = first + THRESHOLD; i < last; i++) unguardedLinearInsert(a, i, less);
  } else insertionSort(a, first, last, less);
}

/** std::nth_element: a[nth] is the element a sort would put there; none before it goes after it. */
export function nthElement(a: number[], first: number, nth: number, last: number, less: Less): void {
  if (first === last || nth === last) return;
  let depth = depthLimit(last - first);
  while (last - first > 3) {
    if (depth === 0) {
      heapSelect(a, first, nth + 1, last, less);
      swap(a, first, nth);
      return;
    }
    depth--;
    const cut = partitionPivot(a, first, last, less);
    if (cut <= nth) first = cut;
    else last = cut;
  }
  insertionSort(a, first, last, less);
}

/**
 * PyTorch 1.13's topk over `n` elements (TopKImpl.h): std::partial_sort when k * 64 <= n, else std::nth_element
 * for the k-th and, when `sorted`, std::sort of the k - 1 before it. The first k of `a` are the result.
 */
export function topkOrder(a: number[], n: number, k: number, sorted: boolean, less: Less): void {
  if (k === 0) return;
  if (k * 64 <= n) partialSort(a, 0, k, n, less);
  else {
    nthElement(a, 0, k - 1, n, less);
    if (sorted) introsort(a, 0, k - 1, less);
  }
}
