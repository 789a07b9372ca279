/**
 * Pointwise semantics: integer wrap-around, exact int64, NaN propagation, rounding modes, remainder/fmod signs,
 * integer pow, mixed-dtype comparisons, complex arithmetic and logical ops. Expected values were verified with
 * PyTorch 1.13.
 */
import { describe, expect, it } from 'vitest';
import * as T from '../../src/runtime/index.ts';
import { code, f32 } from './pointwise_helpers.ts';

const { tensor } = T;

describe('integer wrap-around', () => {
  it('int32 add and mul wrap modulo 2^32', () => {
    const i32 = (xs: number[]) => tensor(xs, { dtype: 'int32' });
    expect(T.torch.mul(i32([2147483647]), 2).tolist()).toEqual([-2]);
    expect(T.torch.add(i32([2147483647]), 1).tolist()).toEqual([-2147483648]);
    expect(T.torch.add(i32([2147483647]), i32([2147483647])).tolist()).toEqual([-2]);
    expect(T.torch.mul(i32([123456789]), 987654321).tolist()).toEqual([-67153019]);
    expect(T.torch.mul(i32([46341]), 46341).tolist()).toEqual([-2147479015]);
    expect(T.torch.sub(i32([-2147483648]), 1).tolist()).toEqual([2147483647]);
    expect(T.torch.add(i32([1, 2]), i32([3, 4]), { alpha: 2 }).tolist()).toEqual([7, 10]);
    expect(T.torch.sub(i32([1, 2]), i32([3, 4]), { alpha: 3 }).tolist()).toEqual([-8, -10]);
  });

  it('int8 / uint8 / int16 wrap', () => {
    expect(T.torch.add(tensor([127], { dtype: 'int8' }), 1).tolist()).toEqual([-128]);
    expect(T.torch.add(tensor([100], { dtype: 'int8' }), tensor([100], { dtype: 'int8' })).tolist()).toEqual([
      -56,
    ]);
    expect(T.torch.mul(tensor([-128], { dtype: 'int8' }), -1).tolist()).toEqual([-128]);
    expect(T.torch.neg(tensor([-128], { dtype: 'int8' })).tolist()).toEqual([-128]);
    expect(T.torch.abs(tensor([-128], { dtype: 'int8' })).tolist()).toEqual([-128]);
    expect(T.torch.square(tensor([100], { dtype: 'int8' })).tolist()).toEqual([16]);
    expect(T.torch.add(tensor([250], { dtype: 'uint8' }), 10).tolist()).toEqual([4]);
    expect(T.torch.sub(tensor([0], { dtype: 'uint8' }), 1).tolist()).toEqual([255]);
    expect(T.torch.mul(tensor([300], { dtype: 'int16' }), 300).tolist()).toEqual([24464]);
  });

  it('int64 is exact beyond 2^53 and wraps modulo 2^64 (bigint)', () => {
    expect(T.torch.add(tensor([2n ** 53n]), 1).tolist()).toEqual([9007199254740993n]);
    expect(T.torch.add(tensor([1]), 2n ** 53n + 1n).tolist()).toEqual([9007199254740994n]);
    expect(T.torch.mul(tensor([2n ** 62n + 1n]), 3).tolist()).toEqual([-4611686018427387901n]);
    expect(T.torch.mul(tensor([2n ** 62n]), 4).tolist()).toEqual([0n]);
    expect(T.torch.sub(tensor([-(2n ** 63n)]), 1).tolist()).toEqual([9223372036854775807n]);
    expect(T.torch.add(tensor([2n ** 63n - 1n]), 1).tolist()).toEqual([-(2n ** 63n)]);
    expect(T.torch.add(tensor([3]), tensor([2n ** 61n]), { alpha: 4 }).tolist()).toEqual([
      -9223372036854775805n,
    ]);
    expect(T.torch.div(tensor([2n ** 62n + 1n]), tensor([3]), { rounding_mode: 'trunc' }).tolist()).toEqual([
      1537228672809129301n,
    ]);
    expect(
      T.torch.div(tensor([-(2n ** 62n) - 1n]), tensor([3]), { rounding_mode: 'floor' }).tolist(),
    ).toEqual([-1537228672809129302n]);
    expect(T.torch.remainder(tensor([-(2n ** 62n) - 1n]), 7).tolist()).toEqual([2n]);
    expect(T.torch.fmod(tensor([-(2n ** 62n) - 1n]), 7).tolist()).toEqual([-5n]);
    expect(T.torch.eq(tensor([2n ** 53n + 1n]), tensor([2n ** 53n])).tolist()).toEqual([false]);
    expect(T.torch.lt(tensor([2n ** 62n]), tensor([2n ** 62n + 1n])).tolist()).toEqual([true]);
    expect(T.torch.minimum(tensor([2n ** 62n + 1n]), tensor([2n ** 62n])).tolist()).toEqual([2n ** 62n]);
  });

  it('int64 -> narrower ints keeps the low bits exactly', () => {
    const big = tensor([2n ** 60n + 5n, -(2n ** 60n) - 3n, 2n ** 62n + 300n]);
    expect(big.to('int32').tolist()).toEqual([5, -3, 300]);
    expect(big.to('int8').tolist()).toEqual([5, -3, 44]);
    expect(big.to('uint8').tolist()).toEqual([5, 253, 44]);
    expect(T.torch.add(tensor([1], { dtype: 'int8' }), 2n ** 60n + 5n).tolist()).toEqual([6]);
  });
});

describe('NaN propagation and special values', () => {
  it('maximum / minimum propagate NaN from either side', () => {
    const a = tensor([Number.NaN, 1, 2]);
    const b = tensor([1, Number.NaN, 1]);
    expect(T.torch.maximum(a, b).tolist()).toEqual([Number.NaN, Number.NaN, 2]);
    expect(T.torch.minimum(a, b).tolist()).toEqual([Number.NaN, Number.NaN, 1]);
    expect(T.torch.maximum(tensor([1, 5]), tensor([3, 2])).tolist()).toEqual([3n, 5n]);
    expect(T.torch.maximum(tensor([true, false]), tensor([false, false])).tolist()).toEqual([true, false]);
    expect(
      T.torch.maximum(tensor([1], { dtype: 'float16' }), tensor([Number.NaN], { dtype: 'float16' })).tolist(),
    ).toEqual([Number.NaN]);
  });

  it('isnan / isinf / isfinite', () => {
    expect(T.torch.isnan(tensor([1, Number.NaN])).tolist()).toEqual([false, true]);
    expect(T.torch.isinf(tensor([Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1])).tolist()).toEqual([
      true,
      true,
      false,
    ]);
    expect(T.torch.isfinite(tensor([1, 2])).tolist()).toEqual([true, true]);
    expect(T.torch.isfinite(tensor([T.complex(1, Number.POSITIVE_INFINITY)])).tolist()).toEqual([false]);
  });

  it('sign, round (half to even) and friends', () => {
    expect(T.torch.sign(tensor([-2, 0, -0, 3, Number.NaN], { dtype: 'float32' })).tolist()).toEqual([
      -1, 0, 0, 1, 0,
    ]);
    expect(Object.is(T.torch.sign(tensor([-0], { dtype: 'float32' })).tolist()[0 as never], 0)).toBe(true);
    expect(T.torch.round(tensor([0.5, 1.5, 2.5, -0.5, -2.5, 2.4999])).tolist()).toEqual([0, 2, 2, -0, -2, 2]);
    expect(T.torch.bitwise_not(tensor([0, -1, 127], { dtype: 'int8' })).tolist()).toEqual([-1, 0, -128]);
    expect(T.torch.bitwise_not(tensor([true, false])).tolist()).toEqual([false, true]);
    expect(T.torch.bitwise_and(tensor([12, -1]), tensor([10, 5])).tolist()).toEqual([8n, 5n]);
    expect(T.torch.bitwise_xor(tensor([true, false]), tensor([true, true])).tolist()).toEqual([false, true]);
    expect(T.torch.bitwise_or(tensor([1], { dtype: 'uint8' }), tensor([258])).tolist()).toEqual([259n]);
    expect(
      T.torch.hypot(tensor([3], { dtype: 'float32' }), tensor([4], { dtype: 'float32' })).tolist(),
    ).toEqual([5]);
    expect(
      T.torch.copysign(tensor([1, 2], { dtype: 'float32' }), tensor([-0, 0], { dtype: 'float32' })).tolist(),
    ).toEqual([-1, 2]);
    expect(T.torch.atan2(tensor([1.0]), tensor([-1.0])).tolist()).toEqual(f32([2.356194496154785]));
  });
});

describe('div rounding modes (verified with PyTorch 1.13)', () => {
  it('integers: trunc rounds toward zero, floor toward -inf, true division promotes to float', () => {
    const a = tensor([-7, 7, -7, 7]);
    const b = tensor([2, -2, -2, 2]);
    expect(T.torch.div(a, b, { rounding_mode: 'floor' }).tolist()).toEqual([-4n, -4n, 3n, 3n]);
    expect(T.torch.div(a, b, { rounding_mode: 'trunc' }).tolist()).toEqual([-3n, -3n, 3n, 3n]);
    expect(T.torch.div(a, b).tolist()).toEqual([-3.5, -3.5, 3.5, 3.5]);
    expect(T.torch.div(a, b).dtype).toBe('float32');
    expect(T.torch.div(tensor([7], { dtype: 'int32' }), 2, { rounding_mode: 'floor' }).dtype).toBe('int32');
    expect(
      T.torch
        .div(tensor([-7], { dtype: 'int8' }), tensor([2], { dtype: 'int8' }), {
          rounding_mode: 'floor',
        })
        .tolist(),
    ).toEqual([-4]);
    expect(
      T.torch
        .div(tensor([7], { dtype: 'uint8' }), tensor([2], { dtype: 'uint8' }), {
          rounding_mode: 'floor',
        })
        .tolist(),
    ).toEqual([3]);
  });

  it('floats: signed zeros, infinities and Python floor semantics', () => {
    const a = tensor([-7.5, 7, -7, 7, -0, 0, -1], { dtype: 'float32' });
    const b = tensor([2, -2, -2, 0, 3, -3, 0], { dtype: 'float32' });
    const floor = T.torch.div(a, b, { rounding_mode: 'floor' }).tolist() as number[];
    expect(floor).toEqual([-4, -4, 3, Number.POSITIVE_INFINITY, -0, -0, Number.NEGATIVE_INFINITY]);
    expect(Object.is(floor[4], -0) && Object.is(floor[5], -0)).toBe(true);
    expect(T.torch.div(a, b, { rounding_mode: 'trunc' }).tolist()).toEqual([
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
      T.torch
        .div(tensor([1.0], { dtype: 'float64' }), tensor([0.1], { dtype: 'float64' }), {
          rounding_mode: 'floor',
        })
        .tolist(),
    ).toEqual([9]);
    expect(T.torch.div(tensor([5, -5, 0], { dtype: 'float32' }), 0).tolist()).toEqual([
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      Number.NaN,
    ]);
    expect(
      T.torch
        .div(
          tensor([0, 1, -1], { dtype: 'float32' }),
          tensor([3, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY]),
          { rounding_mode: 'floor' },
        )
        .tolist(),
    ).toEqual([0, 0, -1]);
  });
});

describe('remainder and fmod signs (verified with PyTorch 1.13)', () => {
  it('integers: remainder takes the sign of the divisor, fmod of the dividend', () => {
    const a = tensor([-3, 3, -3, 3]);
    const b = tensor([2, -2, -2, 2]);
    expect(T.torch.remainder(a, b).tolist()).toEqual([1n, -1n, -1n, 1n]);
    expect(T.torch.fmod(a, b).tolist()).toEqual([-1n, 1n, -1n, 1n]);
    expect(
      T.torch.remainder(tensor([-7, 7], { dtype: 'int32' }), tensor([3, -3], { dtype: 'int32' })).tolist(),
    ).toEqual([2, -2]);
    expect(
      T.torch.fmod(tensor([-7, 7], { dtype: 'int32' }), tensor([3, -3], { dtype: 'int32' })).tolist(),
    ).toEqual([-1, 1]);
    expect(T.torch.remainder(tensor([-3, 3], { dtype: 'int8' }), 2).tolist()).toEqual([1, 1]);
    expect(T.torch.remainder(tensor([5]), -3).tolist()).toEqual([-1n]);
    expect(T.torch.fmod(tensor([-5]), 3).tolist()).toEqual([-2n]);
  });

  it('floats, including signed zeros and a zero divisor', () => {
    const r = T.torch
      .remainder(
        tensor([-3.5, 3.5, -0, 3, 0, 5], { dtype: 'float32' }),
        tensor([2, -2, 2, -3, -2, 0], { dtype: 'float32' }),
      )
      .tolist() as number[];
    expect(r).toEqual([0.5, -0.5, -0, 0, 0, Number.NaN]);
    expect(Object.is(r[2], -0)).toBe(true);
    const f = T.torch
      .fmod(
        tensor([-3.5, 3.5, -0, 3, 5], { dtype: 'float32' }),
        tensor([2, -2, 2, -3, 0], { dtype: 'float32' }),
      )
      .tolist() as number[];
    expect(f).toEqual([-1.5, 1.5, -0, 0, Number.NaN]);
    expect(Object.is(f[2], -0)).toBe(true);
    expect(T.torch.remainder(tensor([-1e-20]), 3.0).tolist()).toEqual([3]);
  });
});

describe('pow (verified with PyTorch 1.13)', () => {
  it('integer powers are exact, wrap, and truncate negative exponents', () => {
    expect(T.torch.pow(tensor([2, 3, -2]), tensor([10, 3, 3])).tolist()).toEqual([1024n, 27n, -8n]);
    expect(T.torch.pow(tensor([2, 1, -1, 0]), tensor([-1, -2, -3, 0])).tolist()).toEqual([0n, 1n, -1n, 1n]);
    expect(T.torch.pow(tensor([0]), tensor([-1])).tolist()).toEqual([0n]); // a tensor exponent does not raise
    expect(T.torch.pow(tensor([2]), tensor(-1)).tolist()).toEqual([0n]); // nor does a zero-dim tensor
    expect(T.torch.pow(tensor([3], { dtype: 'int32' }), 21).tolist()).toEqual([1870418611]);
    expect(T.torch.pow(tensor([2, 3], { dtype: 'int8' }), 7).tolist()).toEqual([-128, -117]);
    expect(T.torch.pow(tensor([3]), 40).tolist()).toEqual([-6289078614652622815n]); // 3^40 wraps
    expect(T.torch.pow(tensor([2]), 2).dtype).toBe('int64');
    expect(() => T.torch.pow(tensor([2]), -1)).toThrow(code('E_ZERO_DIVISION'));
  });

  it('float exponents promote', () => {
    const r = T.torch.pow(tensor([2, 3], { dtype: 'int32' }), 2.5);
    expect(r.dtype).toBe('float32');
    expect(r.tolist()).toEqual(f32([2 ** 2.5, 3 ** 2.5]));
    expect(T.torch.pow(tensor([2], { dtype: 'float32' }), -1).tolist()).toEqual([0.5]);
    expect(T.torch.pow(tensor([4.0]), 0.5).tolist()).toEqual([2]);
  });
});

describe('comparisons on mixed dtypes (verified with PyTorch 1.13)', () => {
  it('compare in the promoted dtype and return bool', () => {
    expect(
      T.torch.lt(tensor([1, 2, 3], { dtype: 'int32' }), tensor([1.5, 2, 2.5], { dtype: 'float16' })).tolist(),
    ).toEqual([true, false, false]);
    expect(
      T.torch.eq(tensor([1, 2, 3], { dtype: 'uint8' }), tensor([1, 2.5, 3], { dtype: 'float64' })).tolist(),
    ).toEqual([true, false, true]);
    expect(T.torch.lt(tensor([-1], { dtype: 'int8' }), tensor([255], { dtype: 'uint8' })).tolist()).toEqual([
      true,
    ]);
    expect(T.torch.ge(tensor([true, false]), 0.5).tolist()).toEqual([true, false]);
    expect(T.torch.ne(tensor([Number.NaN]), tensor([Number.NaN])).tolist()).toEqual([true]);
    expect(T.torch.eq(tensor([Number.NaN]), tensor([Number.NaN])).tolist()).toEqual([false]);
    expect(T.torch.le(tensor([2n ** 53n + 1n]), 2 ** 53).tolist()).toEqual([false]);
    expect(
      T.torch
        .eq(tensor([T.complex(1, 1), T.complex(1, 2)]), tensor([T.complex(1, 1), T.complex(1, -2)]))
        .tolist(),
    ).toEqual([true, false]);
    expect(T.torch.ne(tensor([T.complex(1, 1)]), 1).tolist()).toEqual([true]);
    expect(T.torch.gt(tensor([3]), tensor(2.5, { dtype: 'float64' })).dtype).toBe('bool');
  });
});

describe('complex arithmetic (verified with PyTorch 1.13)', () => {
  it('mul, div, abs', () => {
    expect(T.torch.mul(tensor([T.complex(1, 2)]), tensor([T.complex(3, -1)])).tolist()).toEqual([[5, 5]]);
    expect(T.torch.div(tensor([T.complex(1, 2)]), tensor([T.complex(3, -1)])).tolist()).toEqual([
      f32([0.1, 0.7]),
    ]);
    expect(
      T.torch
        .div(
          tensor([T.complex(1, 2)], { dtype: 'complex128' }),
          tensor([T.complex(3, -1)], { dtype: 'complex128' }),
        )
        .tolist(),
    ).toEqual([[0.1, 0.7]]);
    expect(T.torch.abs(tensor([T.complex(3, 4)])).tolist()).toEqual([5]);
    expect(T.torch.abs(tensor([T.complex(3, 4)])).dtype).toBe('float32');
    expect(T.torch.abs(tensor([T.complex(3e30, 4e30)])).tolist()).toEqual(f32([5e30]));
    expect(T.torch.mul(tensor([T.complex(1, 2)], { dtype: 'complex128' }), 2.5).tolist()).toEqual([[2.5, 5]]);
    expect(
      T.torch.add(tensor([T.complex(1, 2)]), tensor([T.complex(1, 1)]), { alpha: T.complex(0, 1) }).tolist(),
    ).toEqual([[0, 3]]);
    expect(T.torch.reciprocal(tensor([T.complex(1, 1)])).tolist()).toEqual([[0.5, -0.5]]);
  });

  it('division by complex zero is nan+nanj in PyTorch 1.13', () => {
    expect(T.torch.div(tensor([T.complex(1, 1)]), tensor([T.complex(0, 0)])).tolist()).toEqual([
      [Number.NaN, Number.NaN],
    ]);
  });

  it('real ops promote to complex; complex -> real keeps the real part', () => {
    expect(T.torch.mul(tensor([2.0]), tensor([T.complex(0, 1)])).tolist()).toEqual([[0, 2]]);
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
      T.torch.logical_and(tensor([nan, -0, 0, 1], { dtype: 'float32' }), tensor([1, 1, 1, nan])).tolist(),
    ).toEqual([true, false, false, true]);
    expect(T.torch.logical_not(tensor([nan, -0, 0, 1], { dtype: 'float32' })).tolist()).toEqual([
      false,
      true,
      true,
      false,
    ]);
    expect(
      T.torch
        .logical_xor(tensor([nan, -0], { dtype: 'float32' }), tensor([-0, nan], { dtype: 'float32' }))
        .tolist(),
    ).toEqual([true, true]);
    expect(
      T.torch
        .logical_or(tensor([0, nan], { dtype: 'float32' }), tensor([0, 0], { dtype: 'float32' }))
        .tolist(),
    ).toEqual([false, true]);
    expect(T.torch.logical_and(tensor([T.complex(0, 1), T.complex(0, 0)]), tensor([1, 1])).tolist()).toEqual([
      true,
      false,
    ]);
    expect(T.torch.logical_and(tensor([2n ** 62n, 0n]), tensor([true, true])).tolist()).toEqual([
      true,
      false,
    ]);
    expect(T.torch.logical_not(tensor([-0], { dtype: 'float16' })).tolist()).toEqual([true]);
  });

  it('float -> bool casts follow the same rule', () => {
    expect(tensor([Number.NaN, -0, 0.5], { dtype: 'float32' }).to('bool').tolist()).toEqual([
      true,
      false,
      true,
    ]);
  });
});
