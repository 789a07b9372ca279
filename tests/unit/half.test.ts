/**
 * float16 / bfloat16 bit conversions: round-to-nearest-even on store, subnormals, ties, overflow to inf, NaN.
 * Expected bit patterns were verified with PyTorch 1.13 (`torch.tensor([x]).to(dtype).view(torch.int16)`).
 */
import { describe, expect, it } from 'vitest';
import * as core from '../../src/runtime/core/index.ts';
import * as T from '../../src/runtime/index.ts';

const { bf16BitsToNumber, f16BitsToNumber, numberToBf16Bits, numberToF16Bits } = core;

// [float32 value, float16 bits, bfloat16 bits] — verified with PyTorch 1.13.
const CASES: [number, number, number][] = [
  [1.0, 0x3c00, 0x3f80],
  [0.1, 0x2e66, 0x3dcd],
  [-2.5, 0xc100, 0xc020],
  [0.333333333, 0x3555, 0x3eab],
  [-0.0, 0x8000, 0x8000],
  [65504.0, 0x7bff, 0x4780], // largest float16
  [65519.0, 0x7bff, 0x4780], // just below the float16 overflow threshold
  [65520.0, 0x7c00, 0x4780], // rounds up to inf in float16
  [1e5, 0x7c00, 0x47c3],
  [(1 - 2 ** -24) * 2 ** 128, 0x7c00, 0x7f80], // float32 max (3.4028234663852886e38) overflows bfloat16 to inf too
  [Number.POSITIVE_INFINITY, 0x7c00, 0x7f80],
  [Number.NEGATIVE_INFINITY, 0xfc00, 0xff80],
  // float16 subnormals.
  [1023 * 2 ** -24, 0x03ff, 0x3880], // largest float16 subnormal
  [3.0517578125e-5, 0x0200, 0x3800], // 2^-15
  [2 ** -24, 0x0001, 0x3380], // 2^-24, smallest float16 subnormal
  [1.5 * 2 ** -24, 0x0002, 0x33c0], // 1.5 * 2^-24: a tie, rounds to even (2)
  [2 ** -25, 0x0000, 0x3300], // 2^-25: a tie at half the smallest subnormal, rounds to 0
  [2.980232536792755e-8, 0x0001, 0x3300], // the next float32 above 2^-25 rounds up
  [1e-8, 0x0000, 0x322c],
  [-1e-45, 0x8000, 0x8000], // float32 subnormal underflows to -0
  // bfloat16 subnormals.
  [1e-39, 0x0000, 0x000b],
  [9.18354961579912e-41, 0x0000, 0x0001],
  // Ties to even in the normal range.
  [1.00048828125, 0x3c00, 0x3f80], // 1 + 2^-11: float16 tie, stays at even 1.0
  [1.00146484375, 0x3c02, 0x3f80], // 1 + 3 * 2^-11: float16 tie, rounds up to even
  [1.0004892349243164, 0x3c01, 0x3f80], // just above the tie
  [1.00390625, 0x3c04, 0x3f80], // 1 + 2^-8: bfloat16 tie, stays at 1.0
  [1.01171875, 0x3c0c, 0x3f82], // 1 + 3 * 2^-8: bfloat16 tie, rounds up to even
  [1.0039072036743164, 0x3c04, 0x3f81], // just above the bfloat16 tie
  [2049.0, 0x6800, 0x4500], // float16 tie between 2048 and 2050 -> 2048
  [2051.0, 0x6802, 0x4500], // float16 tie between 2050 and 2052 -> 2052
];

describe('numberToF16Bits / numberToBf16Bits', () => {
  for (const [x, h, b] of CASES) {
    it(`${x}`, () => {
      expect(numberToF16Bits(x).toString(16)).toBe(h.toString(16));
      expect(numberToBf16Bits(x).toString(16)).toBe(b.toString(16));
    });
  }

  it('NaN stays NaN (quiet, any payload)', () => {
    expect(numberToF16Bits(Number.NaN)).toBe(0x7e00); // verified with PyTorch 1.13
    const b = numberToBf16Bits(Number.NaN);
    // PyTorch's vectorised path writes 0xffff, its scalar path 0x7fc0: only NaN-ness is portable.
    expect(b & 0x7f80).toBe(0x7f80);
    expect(b & 0x007f).not.toBe(0);
    expect(Number.isNaN(bf16BitsToNumber(b))).toBe(true);
  });

  it('a float64 input is rounded to float32 first (double rounding, like c10::Half(float(x)))', () => {
    // 1 + 2^-11 + 2^-40 is above the tie in float64 but lands on it in float32 -> 1.0 (verified with PyTorch 1.13).
    expect(numberToF16Bits(1 + 2 ** -11 + 2 ** -40)).toBe(0x3c00);
    expect(numberToF16Bits(2 ** -25 + 2 ** -50)).toBe(0x0000);
  });
});

describe('f16BitsToNumber / bf16BitsToNumber', () => {
  it('decodes normals, subnormals, zeros, infinities and NaN', () => {
    expect(f16BitsToNumber(0x3c00)).toBe(1);
    expect(f16BitsToNumber(0x3555)).toBe(0.333251953125);
    expect(f16BitsToNumber(0x7bff)).toBe(65504);
    expect(f16BitsToNumber(0x0001)).toBe(2 ** -24);
    expect(f16BitsToNumber(0x03ff)).toBe(1023 * 2 ** -24);
    expect(Object.is(f16BitsToNumber(0x8000), -0)).toBe(true);
    expect(f16BitsToNumber(0x7c00)).toBe(Number.POSITIVE_INFINITY);
    expect(f16BitsToNumber(0xfc00)).toBe(Number.NEGATIVE_INFINITY);
    expect(Number.isNaN(f16BitsToNumber(0x7e00))).toBe(true);
    expect(bf16BitsToNumber(0x3f80)).toBe(1);
    expect(bf16BitsToNumber(0x4780)).toBe(65536);
    expect(bf16BitsToNumber(0x0001)).toBe(2 ** -133);
    expect(bf16BitsToNumber(0xff80)).toBe(Number.NEGATIVE_INFINITY);
  });

  it('every float16 pattern round-trips through a number', () => {
    for (let h = 0; h < 0x10000; h++) {
      const x = f16BitsToNumber(h);
      if (Number.isNaN(x)) continue;
      if (numberToF16Bits(x) !== h)
        throw new Error(`float16 0x${h.toString(16)} -> ${x} -> 0x${numberToF16Bits(x).toString(16)}`);
    }
  });

  it('every bfloat16 pattern round-trips through a number', () => {
    for (let b = 0; b < 0x10000; b++) {
      const x = bf16BitsToNumber(b);
      if (Number.isNaN(x)) continue;
      if (numberToBf16Bits(x) !== b)
        throw new Error(`bfloat16 0x${b.toString(16)} -> ${x} -> 0x${numberToBf16Bits(x).toString(16)}`);
    }
  });
});

describe('half dtypes in tensors and ops', () => {
  const bits = (t: T.Tensor) => Array.from(t.storage.data as Uint16Array);

  it('stores 16-bit patterns', () => {
    expect(bits(T.tensor([1, 65520, -2.5], { dtype: 'float16' }))).toEqual([0x3c00, 0x7c00, 0xc100]);
    expect(bits(T.tensor([1, 0.1], { dtype: 'bfloat16' }))).toEqual([0x3f80, 0x3dcd]);
  });

  it('results are rounded to nearest even on store (verified with PyTorch 1.13)', () => {
    // 1 + 2^-11 is a tie: stays 1.0.
    expect(bits(T.torch.add(T.tensor([1], { dtype: 'float16' }), 2 ** -11))).toEqual([0x3c00]);
    // The Python float is cast to float16 first (0.0004883 -> 2^-11), so this is the same tie.
    expect(bits(T.torch.add(T.tensor([1], { dtype: 'float16' }), 0.0004883))).toEqual([0x3c00]);
    expect(T.torch.add(T.tensor([256, 258], { dtype: 'bfloat16' }), 1.0).tolist()).toEqual([256, 260]);
    expect(T.torch.mul(T.tensor([300], { dtype: 'float16' }), 300).tolist()).toEqual([
      Number.POSITIVE_INFINITY,
    ]);
    expect(T.tensor([65520]).to('float16').tolist()).toEqual([Number.POSITIVE_INFINITY]);
    expect(bits(T.torch.mul(T.tensor([2 ** -14], { dtype: 'float16' }), 0.5))).toEqual([0x0200]); // into the subnormals
  });

  it('conversions between half types and float32 are exact where representable', () => {
    const x = T.tensor([0.5, -3, 1024], { dtype: 'float16' });
    expect(x.to('bfloat16').tolist()).toEqual([0.5, -3, 1024]);
    expect(x.to('float32').tolist()).toEqual([0.5, -3, 1024]);
    expect(T.tensor([0.1], { dtype: 'float16' }).to('float64').tolist()).toEqual([0.0999755859375]);
  });
});
