/**
 * The random number generator and the randomized ops: MT19937 against the C++ standard's test values, seeding
 * (same seed same bits, generator= independent of the default one), the identities (p = 0, eval), and
 * distribution checks over many draws with bounds of 6 standard errors (a correct kernel fails them with
 * probability < 1e-8; a wrong p, scale or channel grouping fails them for sure). The bites: a wrong draw order
 * fails the reference oracle, and a compiled dropout draws a new mask each call.
 */
import { describe, expect, it } from 'vitest';
import { runOracle } from '../../src/oracles/index.ts';
import {
  callOp,
  compile,
  Generator,
  getDefaultGenerator,
  manualSeed,
  operatorTable,
  type Tensor,
  tensor,
  torch,
} from '../../src/runtime/index.ts';
import { matrixInstance, oracleFailure } from './inject_helpers.ts';

const values = (t: Tensor) => Array.from(t.storage.data as Float32Array | Float64Array);
const call = (name: string, ...args: unknown[]) => {
  const kw =
    args.length && typeof args[args.length - 1] === 'object' && !Array.isArray(args[args.length - 1]);
  return callOp(
    name,
    kw ? args.slice(0, -1) : args,
    kw ? (args[args.length - 1] as Record<string, unknown>) : {},
  ) as Tensor;
};
const N = 100_000;
/** torch.rand as Python has it: empty + uniform_ (the runtime's one drawing op). */
const rand = (
  size: number[],
  o: { dtype?: 'float32' | 'float64' | 'bfloat16'; generator?: Generator } = {},
) => call('uniform_', torch.empty(size, { dtype: o.dtype ?? 'float32' }), { generator: o.generator ?? null });
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const variance = (xs: number[]) => {
  const m = mean(xs);
  return xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1);
};
/** |got - want| within k standard errors of a mean of n draws with standard deviation sd. */
const withinSE = (got: number, want: number, sd: number, n: number, k = 6) =>
  expect(Math.abs(got - want)).toBeLessThan((k * sd) / Math.sqrt(n));

describe('Generator', () => {
  it('is std::mt19937: 3499211612 first and 4123659995 as the 10000th output for seed 5489', () => {
    const g = new Generator(5489);
    expect(g.nextUint32()).toBe(3499211612);
    for (let i = 2; i < 10000; i++) g.nextUint32();
    expect(g.nextUint32()).toBe(4123659995);
  });

  it('the same seed gives the same bits; another seed other bits; getState/setState replay', () => {
    manualSeed(7);
    const a = values(rand([64]));
    manualSeed(7);
    expect(values(rand([64]))).toEqual(a);
    manualSeed(8);
    expect(values(rand([64]))).not.toEqual(a);
    const state = getDefaultGenerator().getState();
    const b = values(rand([8], { dtype: 'float64' }));
    getDefaultGenerator().setState(state);
    expect(values(rand([8], { dtype: 'float64' }))).toEqual(b);
  });

  it('generator= draws from that generator and leaves the default one alone', () => {
    manualSeed(3);
    const expected = values(rand([16]));
    manualSeed(3);
    const g = new Generator(99);
    const own = values(rand([16], { generator: g }));
    expect(values(rand([16]))).toEqual(expected);
    expect(values(rand([16], { generator: new Generator(99) }))).toEqual(own);
  });

  it('uniform_ is uniform on [0, 1): mean 1/2, variance 1/12, never 1', () => {
    manualSeed(11);
    for (const dtype of ['float32', 'float64', 'bfloat16'] as const) {
      const u = values(call('to', rand([N], { dtype }), 'float64'));
      expect(Math.max(...u)).toBeLessThan(1);
      expect(Math.min(...u)).toBeGreaterThanOrEqual(0);
      withinSE(mean(u), 0.5, Math.sqrt(1 / 12), N);
      expect(Math.abs(variance(u) - 1 / 12)).toBeLessThan(0.002);
    }
  });
});

describe('dropout', () => {
  it('is the input itself at p = 0 and in eval mode, and input * 0 at p = 1', () => {
    const x = torch.ones([3, 4]);
    expect(call('nn.functional.dropout', x, 0)).toBe(x);
    expect(call('nn.functional.dropout', x, 0.5, false)).toBe(x);
    expect(call('nn.functional.feature_alpha_dropout', x, 0.5)).toBe(x); // training=False by default
    expect(values(call('nn.functional.dropout', x, 1))).toEqual(Array(12).fill(0));
  });

  it('zeroes a fraction p and scales the rest by 1 / (1 - p): mean and variance of dropout(ones)', () => {
    manualSeed(1);
    for (const p of [0.1, 0.5, 0.8]) {
      const y = values(call('nn.functional.dropout', torch.ones([N]), p));
      const zeros = y.filter((v) => v === 0).length / N;
      withinSE(zeros, p, Math.sqrt(p * (1 - p)), N);
      expect(new Set(y.map((v) => Math.fround(v)))).toEqual(new Set([0, Math.fround(1 / (1 - p))]));
      withinSE(mean(y), 1, Math.sqrt(p / (1 - p)), N);
      expect(Math.abs(variance(y) - p / (1 - p)) / (p / (1 - p))).toBeLessThan(0.05);
    }
  });

  it('dropout2d / dropout3d zero whole channels, each with probability p', () => {
    manualSeed(2);
    for (const [name, shape] of [
      ['nn.functional.dropout2d', [200, 50, 2, 3]],
      ['nn.functional.dropout3d', [200, 50, 2, 1, 3]],
    ] as const) {
      const y = values(call(name, torch.ones([...shape]), 0.3));
      const per = y.length / (200 * 50);
      let dropped = 0;
      for (let c = 0; c < 200 * 50; c++) {
        const ch = y.slice(c * per, (c + 1) * per);
        expect(new Set(ch).size).toBe(1);
        if (ch[0] === 0) dropped++;
      }
      withinSE(dropped / (200 * 50), 0.3, Math.sqrt(0.21), 200 * 50);
    }
  });

  it('feature_alpha_dropout keeps a standard normal input at mean 0 and variance 1', () => {
    manualSeed(4);
    const [u1, u2] = [values(rand([N], { dtype: 'float64' })), values(rand([N], { dtype: 'float64' }))];
    const normal = u1.map((u, i) => Math.sqrt(-2 * Math.log(1 - u)) * Math.cos(2 * Math.PI * u2[i]));
    const x = tensor(normal, { dtype: 'float64' }).reshape([N / 10, 10]);
    const y = values(call('nn.functional.feature_alpha_dropout', x, 0.4, true));
    expect(Math.abs(mean(y))).toBeLessThan(0.05);
    expect(Math.abs(variance(y) - 1)).toBeLessThan(0.05);
  });

  it('inplace=True writes the input (version bumped) with the values of the functional call', () => {
    manualSeed(5);
    const expected = values(call('nn.functional.dropout', torch.ones([50]), 0.5));
    manualSeed(5);
    const x = torch.ones([50]);
    const v = x.version;
    expect(call('nn.functional.dropout', x, 0.5, { inplace: true })).toBe(x);
    expect(x.version).toBeGreaterThan(v);
    expect(values(x)).toEqual(expected);
  });

  it('a compiled dropout draws a new mask on every call, and the seed replays it', () => {
    const f = compile((x: Tensor) => call('nn.functional.dropout', x, 0.5), { backend: 'aot_eager' });
    const x = torch.ones([64]);
    manualSeed(6);
    const eager = values(call('nn.functional.dropout', x, 0.5));
    manualSeed(6);
    const first = values(f(x) as Tensor);
    const second = values(f(x) as Tensor);
    expect(first).toEqual(eager);
    expect(second).not.toEqual(first);
  });
});

describe('rrelu', () => {
  it('in training, negative inputs get slopes uniform in [lower, upper]; in eval the mean slope', () => {
    manualSeed(9);
    const y = values(call('nn.functional.rrelu', torch.full([N], -1, { dtype: 'float64' }), 0.1, 0.3, true));
    expect(Math.min(...y)).toBeGreaterThanOrEqual(-0.3);
    expect(Math.max(...y)).toBeLessThanOrEqual(-0.1);
    withinSE(-mean(y), 0.2, 0.2 / Math.sqrt(12), N);
    expect(values(call('nn.functional.rrelu', tensor([-2, 3], { dtype: 'float64' }), 0.1, 0.3))).toEqual([
      -0.4, 3,
    ]);
  });
});

describe('the reference oracle replays the stream', () => {
  it('an injected change of draw order (reversed) fails it on dropout', async () => {
    const inst = matrixInstance('nn.functional.dropout', 'reference', 'float32', 'contiguous');
    expect((await runOracle(inst)).checks).toBeGreaterThan(0);
    const entry = operatorTable.get('uniform_');
    const real = entry.composite!;
    entry.composite = (ks, args, op) => {
      const out = real(ks, args, op) as Tensor;
      if (out.device === 'cpu') (out.storage.data as Float32Array).reverse();
      return out;
    };
    try {
      const f = await oracleFailure(() => runOracle(inst));
      expect(f.message).toMatch(/elements differ/);
    } finally {
      entry.composite = real;
    }
    expect((await runOracle(inst)).checks).toBeGreaterThan(0);
  });
});
