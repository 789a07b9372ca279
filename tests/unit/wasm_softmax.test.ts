/**
 * The WebAssembly SIMD float32 softmax line (backends/cpu/wasm/softmax.ts) against float64 on the same float32
 * differences x - max it computes (PyTorch's vectorised kernel subtracts in float32 too): within 3 ulp wherever
 * the result is a normal float32, exactly 0 below float32's range, NaN where any input is NaN or the max is
 * infinite like the JS kernel; line lengths around the padding (1..40), log_softmax, and torch.softmax on a
 * 1024-wide input, which goes through it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wasmSoftmaxLine } from '../../src/runtime/backends/cpu/index.ts';
import * as T from '../../src/runtime/index.ts';

const ULP = 2 ** -23;
const MIN_NORMAL = 2 ** -126;

function reference(x: Float32Array, log: boolean): number[] {
  let m = Number.NEGATIVE_INFINITY;
  for (const v of x) if (v > m || Number.isNaN(v)) m = v;
  const d = Array.from(x, (v) => Math.fround(v - m));
  const s = d.reduce((a, v) => a + Math.exp(v), 0);
  return Array.from(x, (v, j) => (log ? v - m - Math.log(s) : Math.exp(d[j]) / s));
}

function run(kind: 'softmax' | 'log_softmax', x: Float32Array): Float32Array {
  const X = new Float32Array(x.length + 5);
  X.set(x, 2);
  const Y = new Float32Array(x.length + 6).fill(9);
  expect(wasmSoftmaxLine(kind, X, 2, x.length, Y, 3)).toBe(true);
  expect([Y[0], Y[1], Y[2], ...Y.subarray(3 + x.length)]).toEqual([9, 9, 9, 9, 9, 9]);
  return Y.subarray(3, 3 + x.length);
}

describe('wasm SIMD softmax line', () => {
  it('is within 3 ulp of float64 on its float32 differences, 0 below the float32 range', () => {
    fc.assert(
      fc.property(
        fc.array(fc.float({ min: -120, max: 60, noNaN: true, noDefaultInfinity: true }), {
          minLength: 1,
          maxLength: 40,
        }),
        (values) => {
          const x = Float32Array.from(values);
          const got = run('softmax', x);
          const want = reference(x, false);
          want.forEach((w, j) => {
            if (w >= MIN_NORMAL)
              expect(Math.abs(got[j] - w) / w, `element ${j}`).toBeLessThanOrEqual(3 * ULP);
            else expect(got[j]).toBeLessThanOrEqual(MIN_NORMAL);
          });
          const logGot = run('log_softmax', x);
          reference(x, true).forEach((w, j) => {
            expect(Math.abs(logGot[j] - w), `log element ${j}`).toBeLessThanOrEqual(
              Math.max(Math.abs(w), 1) * 4 * ULP,
            );
          });
        },
      ),
      { numRuns: 400 },
    );
  });

  it('NaN anywhere or an infinite max gives NaN lines; -inf elements of a finite line are 0', () => {
    const inf = Number.POSITIVE_INFINITY;
    expect(Array.from(run('softmax', Float32Array.of(1, Number.NaN, 2)))).toEqual([NaN, NaN, NaN]);
    expect(Array.from(run('softmax', Float32Array.of(1, inf, 2)))).toEqual([NaN, NaN, NaN]);
    expect(Array.from(run('softmax', Float32Array.of(-inf, -inf)))).toEqual([NaN, NaN]);
    expect(Array.from(run('softmax', Float32Array.of(0, -inf, 0)))).toEqual([0.5, 0, 0.5]);
    expect(Array.from(run('log_softmax', Float32Array.of(0, -inf, 0)))).toEqual([
      Math.fround(-Math.LN2),
      -inf,
      Math.fround(-Math.LN2),
    ]);
  });

  it('torch.softmax over 1024-wide float32 lines takes it, and its rows sum to 1', async () => {
    const x = T.torch.linspace(-30, 30, 4 * 1024).reshape(4, 1024);
    const y = (await T.torch.softmax(x, -1).toArray()) as number[];
    const xs = Float32Array.from((await x.toArray()) as number[]);
    for (let r = 0; r < 4; r++) {
      const want = reference(xs.subarray(r * 1024, (r + 1) * 1024), false);
      const row = y.slice(r * 1024, (r + 1) * 1024);
      expect(Math.abs(row.reduce((a, b) => a + b, 0) - 1)).toBeLessThan(1e-5);
      row.forEach((v, j) => {
        if (want[j] >= MIN_NORMAL) expect(Math.abs(v - want[j]) / want[j]).toBeLessThanOrEqual(3 * ULP);
      });
    }
  });
});
