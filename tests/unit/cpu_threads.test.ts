/**
 * The cpu thread pool (setNumThreads, backends/cpu/wasm/threads.ts): a product above the threshold gives the
 * same bits on 1, 2 and 3 threads (each panel computed by one thread in one order); a worker whose kernel traps
 * leaves the calling thread to compute every range, with the same result; bad thread counts are typed errors.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { gemmMemoryBytes, THREAD_MIN_MACS } from '../../src/runtime/backends/cpu/wasm/gemm.ts';
import {
  failNextRunForTest,
  resetPoolForTest,
  threadPoolHealthy,
} from '../../src/runtime/backends/cpu/wasm/threads.ts';
import * as T from '../../src/runtime/index.ts';
import { expectCode } from './errors_helpers.ts';

const before = T.getNumThreads();
afterAll(() => T.setNumThreads(before));

const n = 131; // 131^3 = 2.25M multiply-adds: above THREAD_MIN_MACS, 33 column panels (an uneven split)
const a = T.torch.linspace(-1, 1, n * n).reshape(n, n);
const b = T.torch
  .linspace(2, -3, n * n)
  .reshape(n, n)
  .t();
const product = async (threads: number) => {
  T.setNumThreads(threads);
  return (await T.torch.matmul(a, b).toArray()) as number[];
};

describe('cpu threads', () => {
  it('a pooled product equals the single-threaded one bit for bit', async () => {
    expect(n ** 3).toBeGreaterThanOrEqual(THREAD_MIN_MACS);
    const one = await product(1);
    expect(await product(2)).toEqual(one);
    expect(await product(3)).toEqual(one);
    expect(T.getNumThreads()).toBe(3);
  });

  it('a failing worker: the calling thread computes its range and the result is unchanged', async () => {
    const one = await product(1);
    T.setNumThreads(2);
    expect(threadPoolHealthy()).toBe(true);
    failNextRunForTest();
    expect(await product(2)).toEqual(one);
    // The worker's failure was seen: the pool is off (single-threaded from then on) until reset.
    expect(threadPoolHealthy()).toBe(false);
    expect(await product(2)).toEqual(one);
    resetPoolForTest();
    expect(await product(2)).toEqual(one);
    expect(threadPoolHealthy()).toBe(true);
  });

  it('setNumThreads refuses what torch.set_num_threads refuses, with a typed error', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) expectCode(() => T.setNumThreads(bad), 'E_INVALID_ARGUMENT');
  });
});

describe('gemm memory', () => {
  it('a product whose packed operands pass 32 MiB drops its memory afterwards and still gives the same result', async () => {
    T.setNumThreads(2);
    // 1500 x 1500 by 1500 x 1500: 3 x 18 MB of float64 panels, past the retained size.
    const big = T.torch.linspace(-1, 1, 1500 * 1500).reshape(1500, 1500);
    const first = (await (T.callOp('sum', [T.torch.matmul(big, big)]) as T.Tensor).toArray()) as number[];
    expect(gemmMemoryBytes()).toBe(0);
    const again = (await (T.callOp('sum', [T.torch.matmul(big, big)]) as T.Tensor).toArray()) as number[];
    expect(again).toEqual(first);
    // A small product afterwards runs on a fresh module, whose memory stays for the next one.
    expect(await product(2)).toEqual(await product(1));
    expect(gemmMemoryBytes()).toBeGreaterThan(0);
    expect(gemmMemoryBytes()).toBeLessThan(8 << 20);
  }, 60_000);
});
