/**
 * Issue 15: tensors are valid and factory errors are typed. Sizes, bounds and steps that are not finite
 * integers, sizes past the allocation limit (checked before allocating), huge meta tensors, 0-dim tensors for
 * Scalar arguments and tensor()'s data (non-numeric leaves, ragged or too deep nesting, linear-time inference).
 */
import { afterEach, describe, expect, it } from 'vitest';
import * as T from '../../src/runtime/index.ts';

const { zeros, ones, full, empty, arange, linspace, eye, tensor } = { ...T, ...T.torch };
const code = (c: string) => expect.objectContaining({ code: c });
const meta = { device: 'meta' } as const;

describe('valid sizes and data (issue 15)', () => {
  afterEach(() => T.setMaxAllocationBytes(null));

  it('non-finite bounds and steps are E_INVALID_ARGUMENT; int sizes that are not ints do not bind', () => {
    for (const f of [
      () => arange(Number.NaN),
      () => arange(0, Number.NaN, 1),
      () => arange(0, 5, Number.NaN),
      () => arange(0, Number.POSITIVE_INFINITY),
      () => arange(Number.NaN, { dtype: 'int64' }),
      () => full([2], Number.NaN, { dtype: 'int64' }),
      () => full([2], Number.POSITIVE_INFINITY, { dtype: 'int32' }),
      () => zeros([2]).expand(-2),
      () => T.torch.as_strided(zeros(4), [-1], [1]),
      () => T.torch.split_with_sizes(zeros(3), [4, -1]),
    ])
      expect(f).toThrow(code('E_INVALID_ARGUMENT'));
    for (const f of [() => zeros([Number.NaN]), () => linspace(0, 1, 2.5), () => zeros(2).view(2 ** 60)])
      expect(f).toThrow(code('E_NO_OVERLOAD'));
  });

  it('sizes past the allocation limit are E_OUT_OF_MEMORY before anything is allocated', () => {
    for (const f of [() => zeros([1e9, 1e9]), () => arange(1e18), () => linspace(0, 1, 1e10), () => eye(1e6)])
      expect(f).toThrow(code('E_OUT_OF_MEMORY'));
    T.setMaxAllocationBytes(1024);
    expect(() => zeros(257)).toThrow(code('E_OUT_OF_MEMORY'));
    expect(zeros(256).numel).toBe(256);
    expect(() => zeros(2, 2).expand(300, 2, 2).contiguous()).toThrow(code('E_OUT_OF_MEMORY'));
    // Reading back is refused past 1/64 of the limit in elements (16 here): exactly 16 is still fine.
    expect(zeros(1).expand(16).tolist()).toHaveLength(16);
    expect(() => zeros(1).expand(17).tolist()).toThrow(code('E_OUT_OF_MEMORY'));
    expect(() => T.setMaxAllocationBytes(-1)).toThrow(code('E_INVALID_ARGUMENT'));
  });

  it('meta tensors never allocate; a huge dim is fine, an uncountable size is refused', () => {
    const big = empty([1e9, 1e3], meta);
    expect([big.shape, big.storage.data]).toEqual([[1e9, 1e3], null]);
    expect(arange(1e12, meta).shape).toEqual([1e12]);
    expect(() => empty([2 ** 40, 2 ** 40], meta)).toThrow(code('E_INVALID_ARGUMENT'));
    // The bound is exact: 2^53 - 1 elements are countable, 2^53 are not.
    expect(empty([Number.MAX_SAFE_INTEGER], meta).numel).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => empty([2 ** 52, 2], meta)).toThrow(code('E_INVALID_ARGUMENT'));
    const long = empty([1e9], meta);
    for (const f of [
      () => T.torch.unbind(long),
      () => T.torch.split(long, 1),
      () => T.torch.chunk(empty([0], meta), 1e9),
    ])
      expect(f).toThrow(code('E_OUT_OF_MEMORY'));
    expect(T.torch.split(long, 1e8)).toHaveLength(10);
  });

  it('0-dim tensors for Scalar arguments are read like item(); a meta one cannot be', () => {
    expect(arange(tensor(3)).tolist()).toEqual([0n, 1n, 2n]);
    expect(zeros(2).fill_(tensor(2.5)).tolist()).toEqual([2.5, 2.5]);
    expect(T.torch.add(ones(2), ones(2), { alpha: tensor(3) }).tolist()).toEqual([4, 4]);
    expect(() => full([2], empty([], meta))).toThrow(code('E_INVALID_ARGUMENT'));
  });

  it('tensor() refuses non-numeric data, naming where it is', () => {
    expect(() => tensor('abc' as never)).toThrow(code('E_INVALID_ARGUMENT'));
    expect(() => tensor([1, 'a'] as never)).toThrow(/data\[1\]/);
    expect(() =>
      tensor([
        [1, 2],
        [3, null],
      ] as never),
    ).toThrow(/Could not infer dtype of null at data\[1\]\[1\]/);
    for (const bad of [[undefined], [{}], [() => 1], [Symbol('s')], [zeros(1)], [[1], 2]])
      expect(() => tensor(bad as never, { dtype: 'float32' })).toThrow(/E_INVALID_ARGUMENT|E_SHAPE_MISMATCH/);
    expect(() => tensor([1], { dtype: 'float33' as never })).toThrow(code('E_INVALID_ARGUMENT'));
    expect(() => tensor([1], { device: 'cuda' })).toThrow(code('E_INVALID_ARGUMENT'));
    expect(tensor([1e300]).dtype).toBe('float32');
  });

  it('tensor() infers shapes in linear time, without recursion, up to 128 dims', () => {
    // Counts element reads: inference visits each node once (it used to read data[0] twice per level: 2^depth).
    let reads = 0;
    let counted: unknown = 1;
    for (let i = 0; i < 16; i++)
      counted = new Proxy([counted], {
        get: (target, key, receiver) => {
          if (key === '0') reads++;
          return Reflect.get(target, key, receiver);
        },
      });
    expect(tensor(counted as never).ndim).toBe(16);
    expect(reads).toBeLessThanOrEqual(2 * 16);
    // Nesting past torch.tensor's 128 dims is refused before any recursion could overflow the stack.
    let deep: unknown = 1.5;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(() => tensor(deep as never)).toThrow(/too many dimensions/);
    const cyclic: unknown[] = [];
    cyclic.push(cyclic);
    expect(() => tensor(cyclic as never)).toThrow(code('E_INVALID_ARGUMENT'));
    let ok: unknown = 1.5;
    for (let i = 0; i < 128; i++) ok = [ok];
    expect(tensor(ok as never).ndim).toBe(128);
    expect(() => tensor([ok] as never)).toThrow(code('E_INVALID_ARGUMENT'));
    let wide: unknown = [1, 2];
    for (let i = 0; i < 14; i++) wide = [wide, wide];
    expect(tensor(wide as never).numel).toBe(2 ** 15);
  });
});
