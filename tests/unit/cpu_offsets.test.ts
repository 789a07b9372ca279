/**
 * logicalOffsets, the storage index of every element of a strided view (gemm's batches, conv's packing, roll):
 * exact wherever the view sits, past 2^24 (where float32 indices round) and past 2^31 (where int32 ones wrap),
 * without allocating such a storage: the function only does the index arithmetic.
 */
import { expect, test } from 'vitest';
import { logicalOffsets } from '../../src/runtime/backends/cpu/index.ts';

test('row-major order over a transposed view, at an offset', () => {
  expect([...logicalOffsets([2, 3], [1, 2], 5)]).toEqual([5, 7, 9, 6, 8, 10]);
  expect([...logicalOffsets([0, 3], [3, 1], 0)]).toEqual([]);
  expect([...logicalOffsets([], [], 4)]).toEqual([4]);
});

test('indices past 2^24 and 2^31 stay exact', () => {
  for (const base of [2 ** 24 + 1, 2 ** 31 + 1, 2 ** 32 + 3]) {
    expect([...logicalOffsets([2, 2], [1, 2], base)]).toEqual([base, base + 2, base + 1, base + 3]);
  }
});
