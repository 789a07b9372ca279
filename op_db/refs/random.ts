/**
 * References for randomized ops, replaying the runtime's documented stream independently: MT19937 (Matsumoto &
 * Nishimura's reference algorithm, seeded like std::mt19937), doubles from two draws (genrand_res53), one draw per
 * element in row-major order. Dropout's mask keeps an element (or a whole channel) when its draw is < 1 - p.
 */
import type { RefTensor } from './tensor.ts';
import { castValue, numelOf, refTensor, unravel } from './tensor.ts';

export function mt19937(seed: number): () => number {
  const mt: number[] = [seed >>> 0];
  for (let i = 1; i < 624; i++) {
    const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
    // 1812433253 * prev + i mod 2^32, split so the product stays exact in a double.
    const hi = (((prev >>> 16) * 1812433253) % 65536) * 65536;
    mt.push((hi + (prev & 0xffff) * 1812433253 + i) % 4294967296);
  }
  let k = 624;
  const next = (): number => {
    if (k === 624) {
      for (let i = 0; i < 624; i++) {
        // >>> 0: the top bit as an unsigned 2^31, not a negative int32.
        const y = ((mt[i] & 0x80000000) >>> 0) + (mt[(i + 1) % 624] & 0x7fffffff);
        let v = mt[(i + 397) % 624] ^ Math.floor(y / 2);
        if (y % 2 === 1) v ^= 0x9908b0df;
        mt[i] = v >>> 0;
      }
      k = 0;
    }
    let y = mt[k++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  };
  return next;
}

/**
 * One uniform [0, 1) draw per element of `shape`, row-major: for float64 noise genrand_res53 (27 + 26 bits of
 * two outputs), for float32 noise the low 24 bits of one output.
 */
export function draws(seed: number, shape: readonly number[], dtype: 'float32' | 'float64'): Float64Array {
  const next = mt19937(seed);
  const draw =
    dtype === 'float64'
      ? () => (Math.floor(next() / 32) * 67108864 + Math.floor(next() / 64)) / 9007199254740992
      : () => (next() % 16777216) / 16777216;
  return Float64Array.from({ length: numelOf(shape) }, draw);
}

/** The runtime draws dropout / rrelu noise in float32, or float64 for a float64 input. */
const noiseDType = (x: RefTensor) => (x.dtype === 'float64' ? 'float64' : 'float32');

const ALPHA = 1.7580993408473766;

/**
 * Dropout and its feature / alpha variants in training with 0 < p < 1 (the other cases are the input or zeros):
 * the mask is per element, or per (batch, channel) for the feature variants.
 */
export function dropoutRef(
  x: RefTensor,
  p: number,
  seed: number,
  o: { feature: boolean; alpha: boolean },
): RefTensor {
  const noiseShape = o.feature ? x.shape.map((n, d) => (d < 2 ? n : 1)) : x.shape;
  const u = draws(seed, noiseShape, noiseDType(x));
  // The threshold 1 - p as the noise dtype holds it.
  const threshold = castValue(1 - p, noiseDType(x));
  const a = 1 / Math.sqrt((ALPHA * ALPHA * p + 1) * (1 - p));
  const out = new Float64Array(x.re.length);
  for (let i = 0; i < out.length; i++) {
    const idx = unravel(i, x.shape).map((v, d) => (o.feature && d >= 2 ? 0 : v));
    const j = idx.reduce((flat, v, d) => flat * noiseShape[d] + v, 0);
    const keep = u[j] < threshold ? 1 : 0;
    out[i] = o.alpha
      ? x.re[i] * keep * a + ((keep - 1) * ALPHA * a + ALPHA * a * p)
      : (x.re[i] * keep) / (1 - p);
  }
  return refTensor(x.shape, x.dtype, out);
}

/** rrelu in training: x * r for x <= 0, r = lower + (upper - lower) * u in the noise dtype, then x's; x elsewhere. */
export function rreluRef(x: RefTensor, lower: number, upper: number, seed: number): RefTensor {
  const u = draws(seed, x.shape, noiseDType(x));
  const r = (k: number) => castValue(castValue(lower + (upper - lower) * u[k], noiseDType(x)), x.dtype);
  const out = x.re.map((v, i) => (v <= 0 ? v * r(i) : v));
  return refTensor(x.shape, x.dtype, out);
}

/** Significand bits of one uniform_ draw per dtype (at::uniform_real_distribution's `digits`). */
const UNIFORM_DIGITS: Readonly<Record<string, number>> = {
  float16: 11,
  bfloat16: 8,
  float32: 24,
  float64: 53,
};

/**
 * uniform_(self, from, to): from + (to - from) * u per element, row-major, rounded to self's dtype; u takes the
 * dtype's significand bits (the low bits of one output; genrand_res53's two outputs for float64).
 */
export function uniformRef(x: RefTensor, from: number, to: number, seed: number): RefTensor {
  const digits = UNIFORM_DIGITS[x.dtype];
  const next = mt19937(seed);
  const u =
    digits === 53
      ? draws(seed, x.shape, 'float64')
      : Float64Array.from({ length: numelOf(x.shape) }, () => (next() % 2 ** digits) / 2 ** digits);
  return refTensor(
    x.shape,
    x.dtype,
    u.map((v) => castValue(from + (to - from) * v, x.dtype)),
  );
}
