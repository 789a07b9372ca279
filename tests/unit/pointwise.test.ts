/**
 * Pointwise semantics: integer wrap-around, exact int64, NaN propagation, rounding modes, remainder/fmod signs,
 * integer pow, mixed-dtype comparisons, complex arithmetic, logical ops, in-place and out= variants, strided
 * inputs and output layouts. Expected values were verified with PyTorch 1.13 unless they are self-consistency
 * checks (strided vs contiguous).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as T from '../../src/runtime/index.ts';

const { tensor, zeros, empty, arange, getitem } = T;
const f32 = (xs: number[]) => xs.map(Math.fround);
const code = (c: string) => expect.objectContaining({ code: c });

describe('integer wrap-around', () => {
  it('int32 add and mul wrap modulo 2^32', () => {
    const i32 = (xs: number[]) => tensor(xs, { dtype: 'int32' });
    expect(T.mul(i32([2147483647]), 2).tolist()).toEqual([-2]);
    expect(T.add(i32([2147483647]), 1).tolist()).toEqual([-2147483648]);
    expect(T.add(i32([2147483647]), i32([2147483647])).tolist()).toEqual([-2]);
    expect(T.mul(i32([123456789]), 987654321).tolist()).toEqual([-67153019]);
    expect(T.mul(i32([46341]), 46341).tolist()).toEqual([-2147479015]);
    expect(T.sub(i32([-2147483648]), 1).tolist()).toEqual([2147483647]);
    expect(T.add(i32([1, 2]), i32([3, 4]), { alpha: 2 }).tolist()).toEqual([7, 10]);
    expect(T.sub(i32([1, 2]), i32([3, 4]), { alpha: 3 }).tolist()).toEqual([-8, -10]);
  });

  it('int8 / uint8 / int16 wrap', () => {
    expect(T.add(tensor([127], { dtype: 'int8' }), 1).tolist()).toEqual([-128]);
    expect(T.add(tensor([100], { dtype: 'int8' }), tensor([100], { dtype: 'int8' })).tolist()).toEqual([-56]);
    expect(T.mul(tensor([-128], { dtype: 'int8' }), -1).tolist()).toEqual([-128]);
    expect(T.neg(tensor([-128], { dtype: 'int8' })).tolist()).toEqual([-128]);
    expect(T.abs(tensor([-128], { dtype: 'int8' })).tolist()).toEqual([-128]);
    expect(T.square(tensor([100], { dtype: 'int8' })).tolist()).toEqual([16]);
    expect(T.add(tensor([250], { dtype: 'uint8' }), 10).tolist()).toEqual([4]);
    expect(T.sub(tensor([0], { dtype: 'uint8' }), 1).tolist()).toEqual([255]);
    expect(T.mul(tensor([300], { dtype: 'int16' }), 300).tolist()).toEqual([24464]);
  });

  it('int64 is exact beyond 2^53 and wraps modulo 2^64 (bigint)', () => {
    expect(T.add(tensor([2n ** 53n]), 1).tolist()).toEqual([9007199254740993n]);
    expect(T.add(tensor([1]), 2n ** 53n + 1n).tolist()).toEqual([9007199254740994n]);
    expect(T.mul(tensor([2n ** 62n + 1n]), 3).tolist()).toEqual([-4611686018427387901n]);
    expect(T.mul(tensor([2n ** 62n]), 4).tolist()).toEqual([0n]);
    expect(T.sub(tensor([-(2n ** 63n)]), 1).tolist()).toEqual([9223372036854775807n]);
    expect(T.add(tensor([2n ** 63n - 1n]), 1).tolist()).toEqual([-(2n ** 63n)]);
    expect(T.add(tensor([3]), tensor([2n ** 61n]), { alpha: 4 }).tolist()).toEqual([-9223372036854775805n]);
    expect(T.div(tensor([2n ** 62n + 1n]), tensor([3]), { rounding_mode: 'trunc' }).tolist()).toEqual([
      1537228672809129301n,
    ]);
    expect(T.div(tensor([-(2n ** 62n) - 1n]), tensor([3]), { rounding_mode: 'floor' }).tolist()).toEqual([
      -1537228672809129302n,
    ]);
    expect(T.remainder(tensor([-(2n ** 62n) - 1n]), 7).tolist()).toEqual([2n]);
    expect(T.fmod(tensor([-(2n ** 62n) - 1n]), 7).tolist()).toEqual([-5n]);
    expect(T.eq(tensor([2n ** 53n + 1n]), tensor([2n ** 53n])).tolist()).toEqual([false]);
    expect(T.lt(tensor([2n ** 62n]), tensor([2n ** 62n + 1n])).tolist()).toEqual([true]);
    expect(T.minimum(tensor([2n ** 62n + 1n]), tensor([2n ** 62n])).tolist()).toEqual([2n ** 62n]);
  });

  it('int64 -> narrower ints keeps the low bits exactly', () => {
    const big = tensor([2n ** 60n + 5n, -(2n ** 60n) - 3n, 2n ** 62n + 300n]);
    expect(big.to('int32').tolist()).toEqual([5, -3, 300]);
    expect(big.to('int8').tolist()).toEqual([5, -3, 44]);
    expect(big.to('uint8').tolist()).toEqual([5, 253, 44]);
    expect(T.add(tensor([1], { dtype: 'int8' }), 2n ** 60n + 5n).tolist()).toEqual([6]);
  });
});

describe('NaN propagation and special values', () => {
  it('maximum / minimum propagate NaN from either side', () => {
    const a = tensor([Number.NaN, 1, 2]);
    const b = tensor([1, Number.NaN, 1]);
    expect(T.maximum(a, b).tolist()).toEqual([Number.NaN, Number.NaN, 2]);
    expect(T.minimum(a, b).tolist()).toEqual([Number.NaN, Number.NaN, 1]);
    expect(T.maximum(tensor([1, 5]), tensor([3, 2])).tolist()).toEqual([3n, 5n]);
    expect(T.maximum(tensor([true, false]), tensor([false, false])).tolist()).toEqual([true, false]);
    expect(
      T.maximum(tensor([1], { dtype: 'float16' }), tensor([Number.NaN], { dtype: 'float16' })).tolist(),
    ).toEqual([Number.NaN]);
  });

  it('isnan / isinf / isfinite', () => {
    expect(T.isnan(tensor([1, Number.NaN])).tolist()).toEqual([false, true]);
    expect(T.isinf(tensor([Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1])).tolist()).toEqual([
      true,
      true,
      false,
    ]);
    expect(T.isfinite(tensor([1, 2])).tolist()).toEqual([true, true]);
    expect(T.isfinite(tensor([T.complex(1, Number.POSITIVE_INFINITY)])).tolist()).toEqual([false]);
  });

  it('sign, round (half to even) and friends', () => {
    expect(T.sign(tensor([-2, 0, -0, 3, Number.NaN], { dtype: 'float32' })).tolist()).toEqual([
      -1, 0, 0, 1, 0,
    ]);
    expect(Object.is(T.sign(tensor([-0], { dtype: 'float32' })).tolist()[0 as never], 0)).toBe(true);
    expect(T.round(tensor([0.5, 1.5, 2.5, -0.5, -2.5, 2.4999])).tolist()).toEqual([0, 2, 2, -0, -2, 2]);
    expect(T.bitwise_not(tensor([0, -1, 127], { dtype: 'int8' })).tolist()).toEqual([-1, 0, -128]);
    expect(T.bitwise_not(tensor([true, false])).tolist()).toEqual([false, true]);
    expect(T.bitwise_and(tensor([12, -1]), tensor([10, 5])).tolist()).toEqual([8n, 5n]);
    expect(T.bitwise_xor(tensor([true, false]), tensor([true, true])).tolist()).toEqual([false, true]);
    expect(T.bitwise_or(tensor([1], { dtype: 'uint8' }), tensor([258])).tolist()).toEqual([259n]);
    expect(T.hypot(tensor([3], { dtype: 'float32' }), tensor([4], { dtype: 'float32' })).tolist()).toEqual([
      5,
    ]);
    expect(
      T.copysign(tensor([1, 2], { dtype: 'float32' }), tensor([-0, 0], { dtype: 'float32' })).tolist(),
    ).toEqual([-1, 2]);
    expect(T.atan2(tensor([1.0]), tensor([-1.0])).tolist()).toEqual(f32([2.356194496154785]));
  });
});

describe('div rounding modes (verified with PyTorch 1.13)', () => {
  it('integers: trunc rounds toward zero, floor toward -inf, true division promotes to float', () => {
    const a = tensor([-7, 7, -7, 7]);
    const b = tensor([2, -2, -2, 2]);
    expect(T.div(a, b, { rounding_mode: 'floor' }).tolist()).toEqual([-4n, -4n, 3n, 3n]);
    expect(T.div(a, b, { rounding_mode: 'trunc' }).tolist()).toEqual([-3n, -3n, 3n, 3n]);
    expect(T.div(a, b).tolist()).toEqual([-3.5, -3.5, 3.5, 3.5]);
    expect(T.div(a, b).dtype).toBe('float32');
    expect(T.div(tensor([7], { dtype: 'int32' }), 2, { rounding_mode: 'floor' }).dtype).toBe('int32');
    expect(
      T.div(tensor([-7], { dtype: 'int8' }), tensor([2], { dtype: 'int8' }), {
        rounding_mode: 'floor',
      }).tolist(),
    ).toEqual([-4]);
    expect(
      T.div(tensor([7], { dtype: 'uint8' }), tensor([2], { dtype: 'uint8' }), {
        rounding_mode: 'floor',
      }).tolist(),
    ).toEqual([3]);
  });

  it('floats: signed zeros, infinities and Python floor semantics', () => {
    const a = tensor([-7.5, 7, -7, 7, -0, 0, -1], { dtype: 'float32' });
    const b = tensor([2, -2, -2, 0, 3, -3, 0], { dtype: 'float32' });
    const floor = T.div(a, b, { rounding_mode: 'floor' }).tolist() as number[];
    expect(floor).toEqual([-4, -4, 3, Number.POSITIVE_INFINITY, -0, -0, Number.NEGATIVE_INFINITY]);
    expect(Object.is(floor[4], -0) && Object.is(floor[5], -0)).toBe(true);
    expect(T.div(a, b, { rounding_mode: 'trunc' }).tolist()).toEqual([
      -3,
      -3,
      3,
      Number.POSITIVE_INFINITY,
      -0,
      -0,
      Number.NEGATIVE_INFINITY,
    ]);
    // 1.0 // 0.1 is 9.0 in Python and PyTorch (floor(1.0 / 0.1) would be 10).
    expect(
      T.div(tensor([1.0], { dtype: 'float64' }), tensor([0.1], { dtype: 'float64' }), {
        rounding_mode: 'floor',
      }).tolist(),
    ).toEqual([9]);
    expect(T.div(tensor([5, -5, 0], { dtype: 'float32' }), 0).tolist()).toEqual([
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      Number.NaN,
    ]);
    expect(
      T.div(
        tensor([0, 1, -1], { dtype: 'float32' }),
        tensor([3, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY]),
        { rounding_mode: 'floor' },
      ).tolist(),
    ).toEqual([0, 0, -1]);
  });
});

describe('remainder and fmod signs (verified with PyTorch 1.13)', () => {
  it('integers: remainder takes the sign of the divisor, fmod of the dividend', () => {
    const a = tensor([-3, 3, -3, 3]);
    const b = tensor([2, -2, -2, 2]);
    expect(T.remainder(a, b).tolist()).toEqual([1n, -1n, -1n, 1n]);
    expect(T.fmod(a, b).tolist()).toEqual([-1n, 1n, -1n, 1n]);
    expect(
      T.remainder(tensor([-7, 7], { dtype: 'int32' }), tensor([3, -3], { dtype: 'int32' })).tolist(),
    ).toEqual([2, -2]);
    expect(T.fmod(tensor([-7, 7], { dtype: 'int32' }), tensor([3, -3], { dtype: 'int32' })).tolist()).toEqual(
      [-1, 1],
    );
    expect(T.remainder(tensor([-3, 3], { dtype: 'int8' }), 2).tolist()).toEqual([1, 1]);
    expect(T.remainder(tensor([5]), -3).tolist()).toEqual([-1n]);
    expect(T.fmod(tensor([-5]), 3).tolist()).toEqual([-2n]);
  });

  it('floats, including signed zeros and a zero divisor', () => {
    const r = T.remainder(
      tensor([-3.5, 3.5, -0, 3, 0, 5], { dtype: 'float32' }),
      tensor([2, -2, 2, -3, -2, 0], { dtype: 'float32' }),
    ).tolist() as number[];
    expect(r).toEqual([0.5, -0.5, -0, 0, 0, Number.NaN]);
    expect(Object.is(r[2], -0)).toBe(true);
    const f = T.fmod(
      tensor([-3.5, 3.5, -0, 3, 5], { dtype: 'float32' }),
      tensor([2, -2, 2, -3, 0], { dtype: 'float32' }),
    ).tolist() as number[];
    expect(f).toEqual([-1.5, 1.5, -0, 0, Number.NaN]);
    expect(Object.is(f[2], -0)).toBe(true);
    expect(T.remainder(tensor([-1e-20]), 3.0).tolist()).toEqual([3]);
  });
});

describe('pow (verified with PyTorch 1.13)', () => {
  it('integer powers are exact, wrap, and truncate negative exponents', () => {
    expect(T.pow(tensor([2, 3, -2]), tensor([10, 3, 3])).tolist()).toEqual([1024n, 27n, -8n]);
    expect(T.pow(tensor([2, 1, -1, 0]), tensor([-1, -2, -3, 0])).tolist()).toEqual([0n, 1n, -1n, 1n]);
    expect(T.pow(tensor([0]), tensor([-1])).tolist()).toEqual([0n]); // a tensor exponent does not raise
    expect(T.pow(tensor([2]), tensor(-1)).tolist()).toEqual([0n]); // nor does a zero-dim tensor
    expect(T.pow(tensor([3], { dtype: 'int32' }), 21).tolist()).toEqual([1870418611]);
    expect(T.pow(tensor([2, 3], { dtype: 'int8' }), 7).tolist()).toEqual([-128, -117]);
    expect(T.pow(tensor([3]), 40).tolist()).toEqual([-6289078614652622815n]); // 3^40 wraps
    expect(T.pow(tensor([2]), 2).dtype).toBe('int64');
    expect(() => T.pow(tensor([2]), -1)).toThrow(code('E_ZERO_DIVISION'));
  });

  it('float exponents promote', () => {
    const r = T.pow(tensor([2, 3], { dtype: 'int32' }), 2.5);
    expect(r.dtype).toBe('float32');
    expect(r.tolist()).toEqual(f32([2 ** 2.5, 3 ** 2.5]));
    expect(T.pow(tensor([2], { dtype: 'float32' }), -1).tolist()).toEqual([0.5]);
    expect(T.pow(tensor([4.0]), 0.5).tolist()).toEqual([2]);
  });
});

describe('comparisons on mixed dtypes (verified with PyTorch 1.13)', () => {
  it('compare in the promoted dtype and return bool', () => {
    expect(
      T.lt(tensor([1, 2, 3], { dtype: 'int32' }), tensor([1.5, 2, 2.5], { dtype: 'float16' })).tolist(),
    ).toEqual([true, false, false]);
    expect(
      T.eq(tensor([1, 2, 3], { dtype: 'uint8' }), tensor([1, 2.5, 3], { dtype: 'float64' })).tolist(),
    ).toEqual([true, false, true]);
    expect(T.lt(tensor([-1], { dtype: 'int8' }), tensor([255], { dtype: 'uint8' })).tolist()).toEqual([true]);
    expect(T.ge(tensor([true, false]), 0.5).tolist()).toEqual([true, false]);
    expect(T.ne(tensor([Number.NaN]), tensor([Number.NaN])).tolist()).toEqual([true]);
    expect(T.eq(tensor([Number.NaN]), tensor([Number.NaN])).tolist()).toEqual([false]);
    expect(T.le(tensor([2n ** 53n + 1n]), 2 ** 53).tolist()).toEqual([false]);
    expect(
      T.eq(tensor([T.complex(1, 1), T.complex(1, 2)]), tensor([T.complex(1, 1), T.complex(1, -2)])).tolist(),
    ).toEqual([true, false]);
    expect(T.ne(tensor([T.complex(1, 1)]), 1).tolist()).toEqual([true]);
    expect(T.gt(tensor([3]), tensor(2.5, { dtype: 'float64' })).dtype).toBe('bool');
  });
});

describe('complex arithmetic (verified with PyTorch 1.13)', () => {
  it('mul, div, abs', () => {
    expect(T.mul(tensor([T.complex(1, 2)]), tensor([T.complex(3, -1)])).tolist()).toEqual([[5, 5]]);
    expect(T.div(tensor([T.complex(1, 2)]), tensor([T.complex(3, -1)])).tolist()).toEqual([f32([0.1, 0.7])]);
    expect(
      T.div(
        tensor([T.complex(1, 2)], { dtype: 'complex128' }),
        tensor([T.complex(3, -1)], { dtype: 'complex128' }),
      ).tolist(),
    ).toEqual([[0.1, 0.7]]);
    expect(T.abs(tensor([T.complex(3, 4)])).tolist()).toEqual([5]);
    expect(T.abs(tensor([T.complex(3, 4)])).dtype).toBe('float32');
    expect(T.abs(tensor([T.complex(3e30, 4e30)])).tolist()).toEqual(f32([5e30]));
    expect(T.mul(tensor([T.complex(1, 2)], { dtype: 'complex128' }), 2.5).tolist()).toEqual([[2.5, 5]]);
    expect(
      T.add(tensor([T.complex(1, 2)]), tensor([T.complex(1, 1)]), { alpha: T.complex(0, 1) }).tolist(),
    ).toEqual([[0, 3]]);
    expect(T.reciprocal(tensor([T.complex(1, 1)])).tolist()).toEqual([[0.5, -0.5]]);
  });

  it('division by complex zero is nan+nanj in PyTorch 1.13', () => {
    expect(T.div(tensor([T.complex(1, 1)]), tensor([T.complex(0, 0)])).tolist()).toEqual([
      [Number.NaN, Number.NaN],
    ]);
  });

  it('real ops promote to complex; complex -> real keeps the real part', () => {
    expect(T.mul(tensor([2.0]), tensor([T.complex(0, 1)])).tolist()).toEqual([[0, 2]]);
    expect(
      tensor([T.complex(1, 2)])
        .to('float32')
        .tolist(),
    ).toEqual([1]);
  });
});

describe('logical ops on NaN and -0 (verified with PyTorch 1.13)', () => {
  it('NaN is true, ±0 is false', () => {
    const nan = Number.NaN;
    expect(
      T.logical_and(tensor([nan, -0, 0, 1], { dtype: 'float32' }), tensor([1, 1, 1, nan])).tolist(),
    ).toEqual([true, false, false, true]);
    expect(T.logical_not(tensor([nan, -0, 0, 1], { dtype: 'float32' })).tolist()).toEqual([
      false,
      true,
      true,
      false,
    ]);
    expect(
      T.logical_xor(
        tensor([nan, -0], { dtype: 'float32' }),
        tensor([-0, nan], { dtype: 'float32' }),
      ).tolist(),
    ).toEqual([true, true]);
    expect(
      T.logical_or(tensor([0, nan], { dtype: 'float32' }), tensor([0, 0], { dtype: 'float32' })).tolist(),
    ).toEqual([false, true]);
    expect(T.logical_and(tensor([T.complex(0, 1), T.complex(0, 0)]), tensor([1, 1])).tolist()).toEqual([
      true,
      false,
    ]);
    expect(T.logical_and(tensor([2n ** 62n, 0n]), tensor([true, true])).tolist()).toEqual([true, false]);
    expect(T.logical_not(tensor([-0], { dtype: 'float16' })).tolist()).toEqual([true]);
  });

  it('float -> bool casts follow the same rule', () => {
    expect(tensor([Number.NaN, -0, 0.5], { dtype: 'float32' }).to('bool').tolist()).toEqual([
      true,
      false,
      true,
    ]);
  });
});

describe('in-place variants', () => {
  it('return self, write through, bump the version', () => {
    const a = tensor([1.5, 2.5]);
    const v0 = a.version;
    expect(a.mul_(2)).toBe(a);
    expect(a.tolist()).toEqual([3, 5]);
    expect(a.version).toBe(v0 + 1);
    expect(a.neg_()).toBe(a);
    expect(a.tolist()).toEqual([-3, -5]);
  });

  it('keep self dtype, rounding like a store', () => {
    const h = tensor([1], { dtype: 'float16' });
    h.add_(tensor([2 ** -11], { dtype: 'float64' }));
    expect(h.tolist()).toEqual([1]);
    const i = tensor([7], { dtype: 'int8' });
    i.mul_(100);
    expect(i.tolist()).toEqual([-68]); // 700 wraps
    expect(() => tensor([1]).div_(2)).toThrow(code('E_RESULT_TYPE')); // true division gives float
    expect(tensor([7]).div_(2, { rounding_mode: 'floor' }).tolist()).toEqual([3n]);
  });

  it('work on non-contiguous self and broadcast other', () => {
    const base = zeros(3, 4);
    const v = base.t(); // [4, 3] strides (1, 4)
    v.add_(tensor([1, 2, 3]));
    expect(base.tolist()).toEqual([
      [1, 1, 1, 1],
      [2, 2, 2, 2],
      [3, 3, 3, 3],
    ]);
    const s = getitem(base, ':, 1::2');
    s.mul_(10);
    expect(base.tolist()).toEqual([
      [1, 10, 1, 10],
      [2, 20, 2, 20],
      [3, 30, 3, 30],
    ]);
  });
});

describe('out= variants', () => {
  it('returns out itself, writes values, bumps its version', () => {
    const out = zeros(2);
    const r = T.add(tensor([1.5, 2.5]), 1, { out });
    expect(r).toBe(out);
    expect(out.tolist()).toEqual([2.5, 3.5]);
    expect(out.version).toBe(1);
  });

  it('an empty or mismatched out is resized (following the input layout, like PyTorch 1.13)', () => {
    const o = empty(0);
    T.add(tensor([1.5, 2]), tensor([1.5, 1]), { out: o });
    expect(o.shape).toEqual([2]);
    expect(o.tolist()).toEqual([3, 3]);
    const x = arange(6, { dtype: 'float32' }).view(2, 3);
    const o5 = empty(5);
    T.add(x.t(), 1, { out: o5 });
    expect(o5.shape).toEqual([3, 2]);
    expect(o5.stride()).toEqual([1, 3]);
    expect(o5.tolist()).toEqual([
      [1, 4],
      [2, 5],
      [3, 6],
    ]);
    // Storage big enough: resize_ keeps it.
    const o10 = empty(10);
    const storage = o10.storage;
    T.mul(x, 2, { out: o10 });
    expect(o10.shape).toEqual([2, 3]);
    expect(o10.storage).toBe(storage);
  });

  it('an out of the right shape keeps its strides, even non-contiguous ones', () => {
    const x = arange(6, { dtype: 'float32' }).view(2, 3);
    const o = empty(3, 2);
    T.add(x.t(), 1, { out: o });
    expect(o.stride()).toEqual([2, 1]);
    expect(o.tolist()).toEqual([
      [1, 4],
      [2, 5],
      [3, 6],
    ]);
    const base = zeros(2, 3);
    const ot = base.t();
    T.mul(x.t(), 2, { out: ot });
    expect(ot.stride()).toEqual([1, 3]);
    expect(base.tolist()).toEqual([
      [0, 2, 4],
      [6, 8, 10],
    ]);
  });

  it('checks the out dtype (can_cast), converting where allowed', () => {
    expect(() => T.add(tensor([1.5]), 1, { out: zeros(1, { dtype: 'int32' }) })).toThrow(
      code('E_RESULT_TYPE'),
    );
    const d = zeros(1, { dtype: 'float64' });
    T.add(tensor([1]), 2, { out: d });
    expect(d.tolist()).toEqual([3]);
    const b = zeros(2, { dtype: 'float32' });
    T.lt(tensor([1, 3]), 2, { out: b });
    expect(b.tolist()).toEqual([1, 0]);
    const i = zeros(2, { dtype: 'int8' });
    T.add(tensor([100, 1], { dtype: 'int8' }), tensor([100, 1], { dtype: 'int8' }), { out: i });
    expect(i.tolist()).toEqual([-56, 2]);
  });

  it('unary ops have out= too', () => {
    const o = zeros(0);
    T.exp(tensor([0, 1], { dtype: 'float32' }), { out: o });
    expect(o.tolist()).toEqual(f32([1, Math.E]));
  });
});

/** The same logical [3, 4] values held in different memory layouts. */
function layouts(values: number[][], dtype: T.DType): Record<string, T.Tensor> {
  const c = tensor(values, { dtype });
  const transposed = c.t().contiguous().t(); // strides (1, 3)
  const stepped = getitem(zeros(3, 8, { dtype }), ':, ::2'); // strides (8, 2)
  stepped.copy_(c);
  const offset = getitem(zeros(5, 6, { dtype }), '1:4, 2:6'); // offset 8, strides (6, 1)
  offset.copy_(c);
  const permuted = zeros(4, 3, { dtype }).t(); // strides (1, 3) in a fresh buffer
  permuted.copy_(c);
  return { contiguous: c, transposed, stepped, offset, permuted };
}

describe('non-contiguous inputs give the same values as contiguous ones', () => {
  const A = [
    [1, -2, 3.5, 4],
    [-5, 6, 7, -8.25],
    [9, 0, -11, 12],
  ];
  const B = [
    [2, 3, -1, 0.5],
    [1, -4, 2, 3],
    [-3, 5, 6, -7],
  ];

  it('layouts really are different', () => {
    const l = layouts(A, 'float32');
    expect(l.transposed.stride()).toEqual([1, 3]);
    expect(l.stepped.stride()).toEqual([8, 2]);
    expect(l.offset.storageOffset).toBe(8);
    for (const t of Object.values(l)) expect(t.tolist()).toEqual(A);
  });

  const binary: [string, (a: T.Tensor, b: T.Tensor) => T.Tensor][] = [
    ['add', (a, b) => T.add(a, b, { alpha: 2 })],
    ['sub', (a, b) => T.sub(a, b)],
    ['mul', (a, b) => T.mul(a, b)],
    ['div', (a, b) => T.div(a, b)],
    ['maximum', (a, b) => T.maximum(a, b)],
    ['lt', (a, b) => T.lt(a, b)],
    ['remainder', (a, b) => T.remainder(a, b)],
  ];
  for (const dtype of ['float32', 'float64', 'float16', 'int32', 'int64', 'complex64'] as const) {
    it(`binary ops, ${dtype}`, () => {
      const isInt = dtype === 'int32' || dtype === 'int64';
      const a = A.map((r) => r.map((x) => (isInt ? Math.trunc(x) : x)));
      const b = B.map((r) => r.map((x) => (isInt ? Math.trunc(x) || 1 : x)));
      const la = layouts(a, dtype);
      const lb = layouts(b, dtype);
      for (const [name, op] of binary) {
        if (dtype === 'complex64' && (name === 'maximum' || name === 'lt' || name === 'remainder')) continue;
        const want = op(la.contiguous, lb.contiguous).tolist();
        for (const [ka, ta] of Object.entries(la)) {
          for (const [kb, tb] of Object.entries(lb)) {
            expect(op(ta, tb).tolist(), `${name} ${ka} x ${kb}`).toEqual(want);
          }
        }
      }
    });
  }

  it('unary ops and an expanded (stride-0) operand', () => {
    const la = layouts(A, 'float32');
    for (const [k, t] of Object.entries(la)) {
      expect(T.neg(t).tolist(), k).toEqual(T.neg(la.contiguous).tolist());
      expect(T.exp(t).tolist(), k).toEqual(T.exp(la.contiguous).tolist());
      expect(T.abs(t).tolist(), k).toEqual(T.abs(la.contiguous).tolist());
    }
    const col = tensor([[1.5], [-2], [3]]);
    const e = col.expand(3, 4);
    expect(e.stride()).toEqual([1, 0]);
    for (const [k, t] of Object.entries(la)) {
      expect(T.mul(e, t).tolist(), k).toEqual(T.mul(e.contiguous(), la.contiguous).tolist());
    }
  });

  it('in-place into every layout', () => {
    for (const [k, t] of Object.entries(layouts(A, 'float32'))) {
      t.add_(tensor(B));
      expect(t.tolist(), k).toEqual(T.add(tensor(A), tensor(B)).tolist());
    }
  });
});

describe('pointwise output strides follow the input layout (verified with PyTorch 1.13)', () => {
  const a = () => arange(12, { dtype: 'float32' }).view(3, 4);
  const cases: [string, () => T.Tensor, number[]][] = [
    ['t + t', () => T.add(a().t(), a().t()), [1, 4]],
    ['t + t.contiguous()', () => T.add(a().t(), a().t().contiguous()), [1, 4]],
    ['t.contiguous() + t', () => T.add(a().t().contiguous(), a().t()), [3, 1]],
    ['neg(t)', () => T.neg(a().t()), [1, 4]],
    ['neg(a[:, ::2]) is dense', () => T.neg(getitem(a(), ':, ::2')), [2, 1]],
    ['neg(t[::2])', () => T.neg(getitem(a().t(), '::2')), [1, 2]],
    ['channels-last + 1', () => T.add(zeros(2, 3, 4, 5).permute(0, 2, 3, 1), 1), [60, 5, 1, 20]],
    [
      'channels-last + contiguous',
      () => T.add(zeros(2, 3, 4, 5).permute(0, 2, 3, 1), zeros(2, 4, 5, 3)),
      [60, 5, 1, 20],
    ],
    [
      'contiguous + channels-last',
      () => T.add(zeros(2, 4, 5, 3), zeros(2, 3, 4, 5).permute(0, 2, 3, 1)),
      [60, 15, 3, 1],
    ],
    ['exp(permuted)', () => T.exp(zeros(3, 4, 5).permute(2, 0, 1)), [1, 20, 5]],
    ['t + column', () => T.add(a().t(), zeros(4, 1)), [1, 4]],
    ['column + t', () => T.add(zeros(4, 1), a().t()), [1, 4]],
    ['t + row', () => T.add(a().t(), zeros(3)), [1, 4]],
    ['eq(t, 1)', () => T.eq(a().t(), 1), [1, 4]],
    ['abs(complex t)', () => T.abs(zeros(4, 3, { dtype: 'complex64' }).t()), [1, 3]],
    [
      '3-d transposed + broadcast',
      () => T.add(arange(24, { dtype: 'float32' }).view(2, 3, 4).transpose(0, 2), zeros(3, 1)),
      [1, 4, 12],
    ],
    ['expanded + contiguous', () => T.add(T.ones(3, 1, 4).expand(3, 5, 4), T.ones(5, 4)), [20, 4, 1]],
  ];
  for (const [name, run, strides] of cases) {
    it(name, () => {
      expect(run().stride()).toEqual(strides);
    });
  }

  it('values are right whatever the output layout', () => {
    const x = a();
    const doubled = (x.t().tolist() as number[][]).map((r) => r.map((v) => 2 * v));
    expect(T.add(x.t(), x.t()).tolist()).toEqual(doubled);
  });
});

/** Decodes the fixtures' JSON encoding (ints as strings, non-finite floats as strings, complex as pairs). */
function encodeLike(t: T.Tensor): unknown[] {
  const isInt = T.DTYPE_INFO[t.dtype].kind === 'int';
  const f = (x: unknown): unknown =>
    typeof x === 'number' && !Number.isFinite(x) ? String(x) : Array.isArray(x) ? x.map(f) : x;
  return (t.tolist() as unknown[]).map((v) => (isInt ? String(v) : f(v)));
}

describe('every dtype pair against tables recorded from PyTorch 1.13', () => {
  interface BinaryFixture {
    A: number[];
    B: number[];
    results: Record<string, { dtype?: string; values?: unknown[]; error?: string }>;
  }
  const load = <F>(name: string) =>
    JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')) as F;

  it('casts: .to(dst) for all 12 x 12 dtype pairs (tests/fixtures/torch_casts.json)', () => {
    const fx = load<{ values: number[]; imag: number[]; results: Record<string, unknown[]> }>(
      'torch_casts.json',
    );
    const mismatches: string[] = [];
    for (const s of T.DTYPES) {
      let src = tensor(fx.values, { dtype: 'float64' }).to(s);
      if (s.startsWith('complex'))
        src = T.add(
          src,
          tensor(
            fx.imag.map((x) => T.complex(0, x)),
            { dtype: s },
          ),
        );
      for (const d of T.DTYPES) {
        const got = encodeLike(src.to(d));
        const want = fx.results[`${s}->${d}`];
        if (JSON.stringify(got) !== JSON.stringify(want))
          mismatches.push(`${s}->${d}: got ${JSON.stringify(got)} want ${JSON.stringify(want)}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  const ops: Record<string, (a: T.Tensor, b: T.Tensor) => T.Tensor> = {
    add: (a, b) => T.add(a, b),
    sub: (a, b) => T.sub(a, b),
    mul: (a, b) => T.mul(a, b),
    div: (a, b) => T.div(a, b),
    div_floor: (a, b) => T.div(a, b, { rounding_mode: 'floor' }),
    div_trunc: (a, b) => T.div(a, b, { rounding_mode: 'trunc' }),
    lt: (a, b) => T.lt(a, b),
    eq: (a, b) => T.eq(a, b),
    ne: (a, b) => T.ne(a, b),
    maximum: (a, b) => T.maximum(a, b),
    remainder: (a, b) => T.remainder(a, b),
    fmod: (a, b) => T.fmod(a, b),
    bitwise_and: (a, b) => T.bitwise_and(a, b),
    bitwise_xor: (a, b) => T.bitwise_xor(a, b),
    logical_or: (a, b) => T.logical_or(a, b),
  };
  const fx = load<BinaryFixture>('torch_binary_ops.json');
  /** PyTorch's error text -> the runtime's code. */
  const codeFor = (msg: string) =>
    msg.includes('ZeroDivisionError') ? 'E_ZERO_DIVISION' : 'E_DTYPE_UNSUPPORTED';

  for (const [name, op] of Object.entries(ops)) {
    it(`${name}: result dtype, values and errors for all 12 x 12 dtype pairs (tests/fixtures/torch_binary_ops.json)`, () => {
      const mismatches: string[] = [];
      for (const s of T.DTYPES) {
        for (const d of T.DTYPES) {
          const a = tensor(fx.A, { dtype: 'float64' }).to(s);
          const b = (
            d === 'uint8' ? T.abs(tensor(fx.B, { dtype: 'float64' })) : tensor(fx.B, { dtype: 'float64' })
          ).to(d);
          const want = fx.results[`${name}|${s}|${d}`];
          expect(want, `${name}|${s}|${d}`).toBeDefined();
          let got: unknown;
          try {
            const r = op(a, b);
            got = { dtype: r.dtype, values: encodeLike(r) };
          } catch (e) {
            got = { error: (e as T.OpgateError).code ?? String(e) };
          }
          const expected = want.error !== undefined ? { error: codeFor(want.error) } : want;
          if (JSON.stringify(got) !== JSON.stringify(expected))
            mismatches.push(`${s} x ${d}: got ${JSON.stringify(got)} want ${JSON.stringify(expected)}`);
        }
      }
      expect(mismatches).toEqual([]);
    });
  }
});
