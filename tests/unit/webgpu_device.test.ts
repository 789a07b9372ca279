/** The webgpu device's plumbing: caching allocator, async readback, layouts kept across devices, errors. */
import { expect, test } from 'vitest';
import { CachingAllocator, gpu, sizeClass } from '../../src/runtime/backends/webgpu/index.ts';
import { callOp, type Tensor, tensor, webgpuInfo } from '../../src/runtime/index.ts';
import { describeWebGPU, onWebGPU } from './webgpu_helpers.ts';

test('size classes: 512 B steps up to 1 MiB, 2 MiB steps above', () => {
  expect(sizeClass(1)).toBe(512);
  expect(sizeClass(512)).toBe(512);
  expect(sizeClass(513)).toBe(1024);
  expect(sizeClass(1 << 20)).toBe(1 << 20);
  expect(sizeClass((1 << 20) + 1)).toBe(2 << 20);
  expect(sizeClass(5 << 20)).toBe(6 << 20);
});

describeWebGPU('webgpu device', () => {
  test('the adapter is reported (backend, description, workgroup limit)', () => {
    const info = webgpuInfo()!;
    expect(info.backend).toMatch(/\//);
    expect(info.maxWorkgroupSize).toBeGreaterThanOrEqual(64);
  });

  test('the caching allocator reuses a freed block of the same size class and keeps it reserved', () => {
    const a = new CachingAllocator(() => gpu());
    const b1 = a.allocate(1000);
    expect(b1.size).toBe(1024);
    expect(a.stats).toMatchObject({
      allocatedBytes: 1024,
      reservedBytes: 1024,
      requestedBytes: 1000,
      cacheMisses: 1,
    });
    a.free(b1);
    expect(a.stats).toMatchObject({ allocatedBytes: 0, reservedBytes: 1024, requestedBytes: 0, frees: 1 });
    expect(a.cachedBlocks()).toBe(1);
    const b2 = a.allocate(600);
    expect(b2.buffer).toBe(b1.buffer);
    expect(a.stats).toMatchObject({ cacheHits: 1, reservedBytes: 1024, allocatedBytes: 1024 });
    const b3 = a.allocate(3 << 20);
    expect(b3.size).toBe(4 << 20);
    expect(a.stats.peakReservedBytes).toBe(1024 + (4 << 20));
    a.free(b2);
    a.free(b3);
    a.emptyCache();
    expect(a.stats).toMatchObject({ reservedBytes: 0, allocatedBytes: 0 });
    expect(a.cachedBlocks()).toBe(0);
  });

  test('reading back is async; a sync read raises E_SYNC_READBACK naming the way out', async () => {
    const [x] = onWebGPU([
      tensor(
        [
          [1, 2, 3],
          [4, 5, 6],
        ],
        { dtype: 'float32' },
      ),
    ]);
    expect(() => x.tolist()).toThrow(/E_SYNC_READBACK/);
    expect(() => x.item()).toThrow(/E_SYNC_READBACK|E_INVALID_ARGUMENT/);
    expect(() => callOp('to', [x, 'cpu'])).toThrow(/await t\.cpuAsync\(\)/);
    expect(await x.toArray()).toEqual([1, 2, 3, 4, 5, 6]);
  });

  test('a view keeps its layout across devices; cpuAsync returns the same sizes, strides and offset', async () => {
    const base = tensor(
      [
        [1, 2, 3],
        [4, 5, 6],
      ],
      { dtype: 'int32', device: 'webgpu' },
    );
    const v = callOp('select', [callOp('t', [base]), 0, 1]) as Tensor;
    expect(v.storage).toBe(base.storage);
    const h = await v.cpuAsync();
    expect([h.device, h.shape, h.strides, h.storageOffset]).toEqual(['cpu', [2], [3], 1]);
    expect(h.tolist()).toEqual([2, 5]);
  });

  test('dtypes webgpu does not compute raise E_DTYPE_UNSUPPORTED', () => {
    for (const dtype of ['float64', 'complex64', 'float16', 'int8', 'int16'] as const)
      expect(() => tensor([1], { dtype, device: 'webgpu' }), dtype).toThrow(/E_DTYPE_UNSUPPORTED/);
    const i64 = tensor([1n, -2n], { device: 'webgpu' });
    expect(() => callOp('add', [i64, i64])).toThrow(/E_DTYPE_UNSUPPORTED/);
  });

  test('int64 is stored exactly: values beyond 32 bits survive a round trip and a strided copy', async () => {
    const big = tensor([2n ** 40n + 5n, -3n, -(2n ** 50n)], {});
    const g = callOp('to', [big, 'webgpu']) as Tensor;
    expect(await g.toArray()).toEqual([2n ** 40n + 5n, -3n, -(2n ** 50n)]);
    const flipped = callOp('clone', [callOp('as_strided', [g, [2], [2], 0])]) as Tensor;
    expect(await flipped.toArray()).toEqual([2n ** 40n + 5n, -(2n ** 50n)]);
  });
});
