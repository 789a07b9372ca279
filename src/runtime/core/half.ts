/**
 * float16 / bfloat16 <-> float32 conversions. Values are stored as 16-bit patterns; conversion to 16 bits
 * rounds to nearest, ties to even (IEEE), matching PyTorch's c10::Half and c10::BFloat16.
 */
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

export function bf16BitsToNumber(bits: number): number {
  u32[0] = bits << 16;
  return f32[0];
}

export function numberToBf16Bits(x: number): number {
  f32[0] = x;
  const b = u32[0];
  if ((b & 0x7fffffff) > 0x7f800000) return ((b >>> 16) | 0x40) & 0xffff; // quiet NaN, keep sign
  const rounding = 0x7fff + ((b >>> 16) & 1);
  return ((b + rounding) >>> 16) & 0xffff;
}

/** x rounded to float32, then to the nearest bfloat16 (ties to even), as c10::BFloat16's constructor from float. */
export function roundBf16(x: number): number {
  return bf16BitsToNumber(numberToBf16Bits(x));
}

export function f16BitsToNumber(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >>> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 0x1f) return frac ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

/** Rounds a float32 value to float16 bits (the value is first rounded to float32 like PyTorch's opmath). */
export function numberToF16Bits(x: number): number {
  f32[0] = x;
  const b = u32[0];
  const sign = (b >>> 16) & 0x8000;
  const exp = (b >>> 23) & 0xff;
  let mant = b & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign; // rounds to zero (below half of the smallest subnormal)
    mant |= 0x800000;
    const shift = 14 - e;
    const half = 1 << (shift - 1);
    const rem = mant & ((1 << shift) - 1);
    let h = mant >>> shift;
    if (rem > half || (rem === half && h & 1)) h++;
    return sign | h;
  }
  let h = (e << 10) | (mant >>> 13);
  const rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && h & 1)) h++; // may carry into the exponent: that is correct
  return sign | h;
}
