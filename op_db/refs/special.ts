/** Special functions for references, implemented independently of the runtime's kernels. */

/** erf via its Maclaurin series (|x| < 3) and the asymptotic erfc expansion beyond; ~1e-15 relative. */
export function erfRef(x: number): number {
  if (Number.isNaN(x)) return x;
  if (x === 0) return x;
  const ax = Math.abs(x);
  if (ax >= 6) return Math.sign(x);
  if (ax < 3) {
    // erf(x) = 2/sqrt(pi) * exp(-x^2) * sum_{n>=0} 2^n x^(2n+1) / (1*3*...*(2n+1))  (all terms positive: stable)
    let term = ax;
    let sum = ax;
    for (let n = 1; n < 500 && term > 1e-17 * sum; n++) {
      term *= (2 * ax * ax) / (2 * n + 1);
      sum += term;
    }
    return Math.sign(x) * (2 / Math.sqrt(Math.PI)) * Math.exp(-ax * ax) * sum;
  }
  // erfc(x) ~ exp(-x^2)/(x sqrt(pi)) * sum (-1)^n (2n-1)!! / (2x^2)^n, truncated at the smallest term.
  let term = 1;
  let sum = 1;
  for (let n = 1; n < 60; n++) {
    const next = (term * -(2 * n - 1)) / (2 * ax * ax);
    if (Math.abs(next) > Math.abs(term)) break;
    term = next;
    sum += term;
  }
  const erfc = (Math.exp(-ax * ax) / (ax * Math.sqrt(Math.PI))) * sum;
  return Math.sign(x) * (1 - erfc);
}

/** Round half to even. */
export function roundHalfEvenRef(x: number): number {
  if (!Number.isFinite(x)) return x;
  const f = Math.floor(x);
  const d = x - f;
  if (d < 0.5) return f === 0 && x < 0 ? -0 : f;
  if (d > 0.5) return f + 1;
  return f % 2 === 0 ? f : f + 1;
}

/** Integer power with 64-bit wrap-around (square-and-multiply, exact via BigInt). */
export function intPowWrap(a: number, b: number): number {
  let r = 1n;
  let base = BigInt(a);
  let e = BigInt(b);
  while (e > 0n) {
    if (e & 1n) r = BigInt.asIntN(64, r * base);
    base = BigInt.asIntN(64, base * base);
    e >>= 1n;
  }
  return Number(r);
}
