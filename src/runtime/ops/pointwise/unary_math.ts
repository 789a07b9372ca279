/** Scalar functions of unary rows that JS's Math lacks (float64, so they also serve as references). */

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
