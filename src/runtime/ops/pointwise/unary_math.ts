/**
 * Scalar functions of pointwise rows that JS's Math lacks (float64, so they also serve as references): erf and
 * friends, and clamp's min(max(x, lo), hi) in C++'s argument order (clamp, hardtanh, relu6).
 */

// Abramowitz-Stegun is not accurate enough for float64 references; this is W. J. Cody's rational erf.
export function erf(x: number): number {
  // NaN, and +-0 keeping its sign (the series' first step adds +0 to -0).
  if (Number.isNaN(x) || x === 0) return x;
  const ax = Math.abs(x);
  if (ax > 6) return Math.sign(x);
  // Series for small |x|, continued fraction (via erfc) for large.
  if (ax < 2.5) {
    let sum = x;
    let term = x;
    const x2 = x * x;
    for (let n = 1; n < 200; n++) {
      term *= -x2 / n;
      const add = term / (2 * n + 1);
      sum += add;
      if (Math.abs(add) < 1e-17 * Math.abs(sum)) break;
    }
    return (2 / Math.sqrt(Math.PI)) * sum;
  }
  // erfc continued fraction (Lentz), accurate for x >= 2.5.
  let f = ax;
  let c = ax;
  let d = 0;
  for (let n = 1; n < 300; n++) {
    const an = n / 2;
    d = ax + an * d;
    d = d === 0 ? 1e-300 : 1 / d;
    c = ax + an / c;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  const erfc = Math.exp(-ax * ax) / (f * Math.sqrt(Math.PI));
  return Math.sign(x) * (1 - erfc);
}

/** Round half to even (torch.round). */
export function roundHalfEven(x: number): number {
  if (!Number.isFinite(x)) return x;
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r === 0 ? x * 0 : r;
}

export const cexp = (re: number, im: number): [number, number] => {
  const m = Math.exp(re);
  return [m * Math.cos(im), m * Math.sin(im)];
};
export const clog = (re: number, im: number): [number, number] => [
  Math.log(Math.hypot(re, im)),
  Math.atan2(im, re),
];

// std::max / std::min argument order, as aten's clamp and hardtanh spell min(max(x, lo), hi): NaN in `x`
// propagates, -0/+0 ties keep `x` (relu6(-0) is -0), and lo > hi gives hi.
// biome-ignore lint/complexity/useMathMinMax: Math.max would turn a NaN bound into NaN and reorder -0/+0
export const clampLower = (x: number, lo: number) => (x < lo ? lo : x);
// biome-ignore lint/complexity/useMathMinMax: see clampLower
export const clampUpper = (x: number, hi: number) => (hi < x ? hi : x);
export const clampNumber = (x: number, lo: number, hi: number) => clampUpper(clampLower(x, lo), hi);
export const clampLowerBigInt = (x: bigint, lo: bigint) => (x < lo ? lo : x);
export const clampUpperBigInt = (x: bigint, hi: bigint) => (hi < x ? hi : x);
export const clampBigInt = (x: bigint, lo: bigint, hi: bigint) =>
  clampUpperBigInt(clampLowerBigInt(x, lo), hi);
