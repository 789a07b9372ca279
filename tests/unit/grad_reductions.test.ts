/**
 * Derivatives of the reduction rows (derivatives/reductions*.ts): gradcheck + gradgradcheck on float64 samples
 * (dims incl. negative / None / keepdim, non-contiguous inputs, zeros for prod/cumprod), gradients at ties,
 * NaNs and zeros against values recorded from PyTorch 1.13 (grad of sum(out * arange(1, n + 1))), PyTorch's
 * node names, and a deliberately wrong row that gradcheck must catch.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { rng } from '../../op_db/index.ts';
import { GradcheckError, gradcheck, gradgradcheck } from '../../src/oracles/index.ts';
import { autogradKernel } from '../../src/runtime/autograd/index.ts';
import { callOp, DispatchKey, float, operatorTable, type Tensor, tensor } from '../../src/runtime/index.ts';

const r = rng(4321);
const f64 = (data: unknown, shape: number[]) =>
  callOp('reshape', [tensor(data as number[], { dtype: 'float64' }), shape]) as Tensor;
const numel = (shape: number[]) => shape.reduce((a, b) => a * b, 1);
/** Uniform values in [lo, hi). */
const rand = (shape: number[], lo = -1, hi = 1) =>
  f64(
    Array.from({ length: numel(shape) }, () => lo + (hi - lo) * r()),
    shape,
  );
/** Values with distinct magnitudes, alternating signs, none near 0: max/min/norms are smooth there. */
const distinct = (shape: number[]) => {
  const n = numel(shape);
  const order = Array.from({ length: n }, (_, i) => i).sort(() => r() - 0.5);
  return f64(
    order.map((k, i) => (i % 3 === 1 ? -1 : 1) * (0.3 + (0.9 * k) / n)),
    shape,
  );
};
const leaf = (t: Tensor) => t.requiresGrad_();
/** A non-contiguous leaf: the transpose of a [m, n] tensor. */
const transposed = (t: Tensor) => (callOp('t', [t]) as Tensor).requiresGrad_();
/** Positive values with zeros at the given flat positions. */
const withZeros = (shape: number[], zeros: number[]) =>
  f64(
    Array.from({ length: numel(shape) }, (_, i) => (zeros.includes(i) ? 0 : 0.5 + r())),
    shape,
  );
const call =
  (name: string, kw: Record<string, unknown> = {}) =>
  (...args: unknown[]) =>
    callOp(name, args, kw) as Tensor;
const first =
  (name: string, kw: Record<string, unknown> = {}) =>
  (...args: unknown[]) =>
    (callOp(name, args, kw) as Tensor[])[0];

function check(fn: (x: Tensor) => Tensor, x: Tensor): void {
  expect(gradcheck(fn, [x])).toBe(true);
  expect(gradgradcheck(fn, [x])).toBe(true);
}

/** x.grad after backward of sum(fn(x) * [1, 2, ...]) (the weights make every output's share visible). */
function weightedGrad(fn: (x: Tensor) => Tensor, data: number[][]): unknown {
  const x = leaf(f64(data.flat(), [data.length, data[0].length]));
  const out = fn(x);
  const w = f64(
    Array.from({ length: out.numel }, (_, i) => i + 1),
    [...out.shape],
  );
  (callOp('sum', [callOp('mul', [out, w])]) as Tensor).backward();
  return x.grad?.tolist() ?? null;
}

const TIES = [
  [1, 3, 3, 2],
  [5, 5, 5, 0],
  [-1, -2, -1, -3],
];
const ZEROS = [
  [0, 2, 0, 3],
  [1, 0, 2, 3],
  [0, 0, 0, 1],
];
const SAME = [
  [2, 2, 2, 2],
  [1, 2, 3, 4],
  [0, 0, 0, 0],
];

describe('sums and products', () => {
  test('sum, mean', () => {
    check((a) => call('sum')(a, [1, -1], true), leaf(rand([2, 3, 4])));
    check((a) => call('sum')(a), transposed(rand([4, 3])));
    check((a) => call('mean')(a), leaf(rand([3, 4])));
    check((a) => call('mean')(a, [-1, 0]), leaf(rand([2, 3, 4])));
    check((a) => call('mean')(a, [0], true), transposed(rand([4, 3])));
  });

  test('prod without zeros', () => {
    check((a) => call('prod')(a), leaf(rand([3, 4], 0.5, 1.5)));
    check((a) => call('prod')(a, 1), leaf(rand([2, 3, 4])));
    check((a) => call('prod')(a, -1, true), transposed(rand([4, 3])));
  });

  test('prod with zeros: exact gradients and second derivatives (one, two and three zeros per slice)', () => {
    check((a) => call('prod')(a, 1), leaf(withZeros([3, 5], [1, 5, 7, 9, 10])));
    check((a) => call('prod')(a), leaf(withZeros([3, 4], [5])));
    check((a) => call('prod')(a, 0, true), transposed(withZeros([4, 3], [0, 4])));
    const expected = [
      [0, 0, 0, 0],
      [0, 12, 0, 0],
      [0, 0, 0, 0],
    ];
    expect(weightedGrad((a) => call('prod')(a, 1), ZEROS)).toEqual(expected);
  });

  test('cumsum, cumprod (with zeros)', () => {
    check((a) => call('cumsum')(a, 1), leaf(rand([2, 3, 4])));
    check((a) => call('cumsum')(a, -1), transposed(rand([4, 3])));
    check((a) => call('cumprod')(a, -1), leaf(rand([2, 3, 4])));
    check((a) => call('cumprod')(a, 1), leaf(withZeros([3, 5], [0, 5, 7, 9])));
    check((a) => call('cumprod')(a, 0), transposed(withZeros([4, 3], [1, 2, 4])));
    expect(weightedGrad((a) => call('cumprod')(a, 1), ZEROS)).toEqual([
      [5, 0, 0, 0],
      [5, 68, 0, 0],
      [9, 0, 0, 0],
    ]);
  });
});

describe('extrema', () => {
  test('amax/amin over dims, all dims, keepdim', () => {
    check((a) => call('amax')(a, [1]), leaf(distinct([3, 4])));
    check((a) => call('amax')(a), transposed(distinct([4, 3])));
    check((a) => call('amin')(a, [0, -1], true), leaf(distinct([2, 3, 4])));
  });

  test('max/min: full reduce and .dim (indices are not differentiable)', () => {
    check((a) => call('max')(a), leaf(distinct([3, 4])));
    check((a) => call('min')(a), transposed(distinct([4, 3])));
    check((a) => first('max')(a, 1), leaf(distinct([2, 3, 4])));
    check((a) => first('min')(a, -1, true), transposed(distinct([4, 3])));
    const [, idx] = callOp('max', [leaf(distinct([3, 4])), 0]) as Tensor[];
    expect(idx.requiresGrad).toBe(false);
    expect(() => gradcheck((a) => callOp('max', [a, 1]) as Tensor[], [leaf(distinct([3, 4]))])).not.toThrow();
  });

  test('ties share the gradient evenly; NaN maxima share it; .dim gives it to the returned index', () => {
    expect(weightedGrad((a) => call('amax')(a, [1]), TIES)).toEqual([
      [0, 0.5, 0.5, 0],
      [2 / 3, 2 / 3, 2 / 3, 0],
      [1.5, 0, 1.5, 0],
    ]);
    expect(weightedGrad((a) => call('max')(a), TIES)).toEqual([
      [0, 0, 0, 0],
      [1 / 3, 1 / 3, 1 / 3, 0],
      [0, 0, 0, 0],
    ]);
    const nan = [
      [1, Number.NaN, 3, Number.NaN],
      [2, 1, 5, 0],
      [4, 4, 4, -1],
    ];
    expect(weightedGrad((a) => call('max')(a), nan)).toEqual([
      [0, 0.5, 0, 0.5],
      [0, 0, 0, 0],
      [0, 0, 0, 0],
    ]);
    expect(weightedGrad((a) => first('max')(a, 1), TIES)).toEqual([
      [0, 1, 0, 0],
      [2, 0, 0, 0],
      [3, 0, 0, 0],
    ]);
  });
});

describe('statistics and normalizers', () => {
  test('var/std: unbiased, correction, dims, keepdim', () => {
    check((a) => call('var')(a), leaf(rand([3, 4])));
    check((a) => call('var')(a, [1], false, true), leaf(rand([2, 3, 4])));
    check((a) => call('var', { dim: [0, 2], correction: 0 })(a), leaf(rand([2, 3, 4])));
    check((a) => call('std')(a), transposed(rand([4, 3])));
    check((a) => call('std', { dim: [-1], correction: 2, keepdim: true })(a), leaf(rand([2, 3, 4])));
    const g = weightedGrad((a) => call('std')(a, [1]), SAME) as number[][];
    // A zero std (rows 0 and 2) gets a zero gradient, as PyTorch's masked_fill_.
    expect(g[0]).toEqual([0, 0, 0, 0]);
    expect(g[2]).toEqual([0, 0, 0, 0]);
    [-1.5, -0.5, 0.5, 1.5].forEach((d, i) => {
      expect(g[1][i]).toBeCloseTo((2 * d) / (3 * Math.sqrt(5 / 3)), 12);
    });
  });

  test('logsumexp, softmax, log_softmax (and the nn.functional aliases)', () => {
    check((a) => call('logsumexp')(a, [1]), leaf(rand([2, 3, 4])));
    check((a) => call('logsumexp')(a, [0, 1], true), transposed(rand([4, 3])));
    check((a) => call('softmax')(a, 1), leaf(rand([2, 3, 4])));
    check((a) => call('nn.functional.softmax')(a, -1), transposed(rand([4, 3])));
    check((a) => call('log_softmax')(a, 0), leaf(rand([3, 4])));
    check((a) => call('nn.functional.log_softmax', { dim: -1 })(a), transposed(rand([4, 3])));
  });

  test('norm and linalg_vector_norm for p = 2, 1, 3, 1.5, 0.5, inf, -inf', () => {
    for (const p of [2, 1, 3, 1.5, 0.5, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      check((a) => call('norm')(a, float(p), [1]), leaf(distinct([3, 4])));
      check((a) => call('linalg.vector_norm', { ord: float(p) })(a), transposed(distinct([4, 3])));
    }
    check((a) => call('norm')(a), leaf(rand([3, 4])));
    check((a) => call('linalg_vector_norm')(a, float(2), [0, -1], true), leaf(rand([2, 3, 4])));
    expect(
      weightedGrad((a) => call('linalg_vector_norm')(a, float(Number.POSITIVE_INFINITY), [1]), TIES),
    ).toEqual([
      [0, 0.5, 0.5, 0],
      [2 / 3, 2 / 3, 2 / 3, 0],
      [-0, -0, -0, -3],
    ]);
    // A zero-norm slice gets a zero gradient (not NaN).
    const g = weightedGrad((a) => call('linalg_vector_norm')(a, float(2), [1]), SAME) as number[][];
    expect(g[0]).toEqual([0.5, 0.5, 0.5, 0.5]);
    expect(g[2]).toEqual([0, 0, 0, 0]);
  });

  test('the 0 "norm" is piecewise constant: no gradient, like PyTorch (grad stays None)', () => {
    expect(weightedGrad((a) => call('linalg_vector_norm')(a, float(0)), TIES)).toBe(null);
  });
});

test('0-d inputs', () => {
  const x = () => leaf(f64([0.7], []));
  check((a) => call('prod')(a, 0), x());
  check((a) => first('max')(a, 0), x());
  check((a) => call('softmax')(a, 0), x());
  check((a) => call('cumprod')(a, 0), x());
  check((a) => call('logsumexp')(a, [0]), x());
});

test("PyTorch's node names (rows shared by overloads carry one overload's name)", () => {
  const a = leaf(distinct([3, 4]));
  const names: [Tensor, string][] = [
    [call('sum')(a), 'SumBackward0'],
    [call('mean')(a), 'MeanBackward0'],
    [call('prod')(a), 'ProdBackward0'],
    [call('amax')(a, [1]), 'AmaxBackward0'],
    [call('amin')(a), 'AminBackward0'],
    [call('max')(a), 'MaxBackward1'],
    [call('min')(a), 'MinBackward1'],
    [call('var')(a, [1]), 'VarBackward0'],
    [call('std', { correction: 0 })(a, null), 'StdBackward0'],
    [call('logsumexp')(a, [1]), 'LogsumexpBackward0'],
    [call('cumsum')(a, 1), 'CumsumBackward0'],
    [call('cumprod')(a, 1), 'CumprodBackward0'],
    [call('softmax')(a, 1), 'SoftmaxBackward0'],
    [call('nn.functional.log_softmax')(a, 1), 'LogSoftmaxBackward0'],
    [call('norm')(a, float(3), [1]), 'NormBackward1'],
    [call('linalg.vector_norm')(a), 'LinalgVectorNormBackward0'],
  ];
  for (const [t, name] of names) expect(t.gradFn?.name).toBe(name);
});

describe('a wrong formula is caught', () => {
  const restore: (() => void)[] = [];
  afterEach(() => {
    while (restore.length) restore.pop()?.();
  });

  test("softmax's backward with a flipped sign fails gradcheck", () => {
    const entry = operatorTable.get('softmax.int');
    const real = entry.kernels.get(DispatchKey.Autograd);
    restore.push(() => entry.kernels.set(DispatchKey.Autograd, real!));
    const op = (name: string, ...args: unknown[]) => callOp(name, args) as Tensor;
    entry.kernels.set(
      DispatchKey.Autograd,
      autogradKernel(
        {
          saves: ['result'],
          // (grad + sum(grad * y)) * y instead of (grad - sum(grad * y)) * y.
          formula: (c) => [
            op(
              'mul',
              c.result,
              op('add', c.grad, op('sum', op('mul', c.grad, c.result), [c.args.dim], true)),
            ),
          ],
        },
        'softmax',
      ),
    );
    expect(() => gradcheck((a) => call('softmax')(a, 1), [leaf(rand([2, 3]))])).toThrow(GradcheckError);
  });
});
