/**
 * Pointwise casts and binary ops for every dtype pair, checked against tables recorded from PyTorch 1.13
 * (tests/fixtures/torch_casts.json, tests/fixtures/torch_binary_ops.json).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as T from '../../src/runtime/index.ts';

const { tensor } = T;

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
        src = T.torch.add(
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
    add: (a, b) => T.torch.add(a, b),
    sub: (a, b) => T.torch.sub(a, b),
    mul: (a, b) => T.torch.mul(a, b),
    div: (a, b) => T.torch.div(a, b),
    div_floor: (a, b) => T.torch.div(a, b, { rounding_mode: 'floor' }),
    div_trunc: (a, b) => T.torch.div(a, b, { rounding_mode: 'trunc' }),
    lt: (a, b) => T.torch.lt(a, b),
    eq: (a, b) => T.torch.eq(a, b),
    ne: (a, b) => T.torch.ne(a, b),
    maximum: (a, b) => T.torch.maximum(a, b),
    remainder: (a, b) => T.torch.remainder(a, b),
    fmod: (a, b) => T.torch.fmod(a, b),
    bitwise_and: (a, b) => T.torch.bitwise_and(a, b),
    bitwise_xor: (a, b) => T.torch.bitwise_xor(a, b),
    logical_or: (a, b) => T.torch.logical_or(a, b),
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
            d === 'uint8'
              ? T.torch.abs(tensor(fx.B, { dtype: 'float64' }))
              : tensor(fx.B, { dtype: 'float64' })
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
