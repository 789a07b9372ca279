/**
 * Derivatives of the shape, indexing, matrix-product and sorting rows (derivatives/shape.ts, shape_index.ts,
 * linalg.ts): gradcheck + gradgradcheck on float64 samples (broadcasting, negative dims, non-contiguous
 * inputs), PyTorch's node names, and a deliberately wrong row that gradcheck must catch.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { rng } from '../../op_db/index.ts';
import { GradcheckError, gradcheck, gradgradcheck } from '../../src/oracles/index.ts';
import { autogradKernel } from '../../src/runtime/autograd/index.ts';
import { callOp, DispatchKey, operatorTable, type Tensor, tensor } from '../../src/runtime/index.ts';

const r = rng(1234);
/** A float64 tensor of uniform values in [lo, hi). */
const rand = (shape: number[], lo = -1, hi = 1): Tensor => {
  const n = shape.reduce((a, b) => a * b, 1);
  const data = Array.from({ length: n }, () => lo + (hi - lo) * r());
  return callOp('reshape', [tensor(data, { dtype: 'float64' }), shape]) as Tensor;
};
const leaf = (shape: number[], lo?: number, hi?: number) => rand(shape, lo, hi).requiresGrad_();
/** A non-contiguous leaf: the transpose of a contiguous [n, m] tensor. */
const leafT = (shape: [number, number]) =>
  (callOp('t', [rand([shape[1], shape[0]])]) as Tensor).requiresGrad_();
const idx = (data: unknown) => tensor(data as number[], { dtype: 'int64' });
const call =
  (name: string, kw: Record<string, unknown> = {}) =>
  (...args: unknown[]) =>
    callOp(name, args, kw) as Tensor;
const first =
  (name: string, kw: Record<string, unknown> = {}) =>
  (...a: unknown[]) =>
    (callOp(name, a, kw) as Tensor[])[0];

/** gradcheck + gradgradcheck of f over the tensor inputs. */
function check(f: (...xs: Tensor[]) => Tensor | Tensor[], inputs: Tensor[]): void {
  expect(gradcheck(f, inputs)).toBe(true);
  expect(gradgradcheck(f, inputs)).toBe(true);
}

describe('shape ops', () => {
  test('cat splits the gradient back per input, legacy empty inputs included', () => {
    check((a, b) => call('cat')([a, b], 0), [leaf([2, 3]), leaf([1, 3])]);
    check((a, b, c) => call('cat')([a, b, c], -1), [leaf([2, 2]), leafT([2, 3]), leaf([2, 1])]);
    check((a, e) => call('cat')([a, e], 1), [leaf([2, 3]), leaf([0])]);
    const e = leaf([0]);
    const out = call('cat')([leaf([2, 2]), e], -1);
    (callOp('sum', [out]) as Tensor).backward();
    expect(e.grad?.shape).toEqual([0]);
  });

  test('stack unbinds the gradient', () => {
    check((a, b) => call('stack')([a, b], 0), [leaf([2, 3]), leafT([2, 3])]);
    check((a, b, c) => call('stack')([a, b, c], -1), [leaf([3]), leaf([3]), leaf([3])]);
  });

  test('flip, roll, tril, triu', () => {
    check((a) => call('flip')(a, [0, -1]), [leaf([2, 3, 2])]);
    check((a) => call('roll')(a, [1, -2], [0, 1]), [leafT([3, 4])]);
    check((a) => call('roll')(a, [2]), [leaf([2, 3])]);
    for (const diag of [0, -1, 2]) {
      check((a) => call('tril')(a, diag), [leaf([3, 4])]);
      check((a) => call('triu')(a, diag), [leaf([2, 3, 3])]);
    }
    check((a) => call('triu')(a), [leafT([3, 2])]);
  });
});

describe('indexing ops', () => {
  test('gather scatter-adds the gradient (duplicate indices accumulate)', () => {
    check(
      (a) =>
        call('gather')(
          a,
          1,
          idx([
            [0, 0, 3],
            [1, 2, 1],
          ]),
        ),
      [leaf([3, 4])],
    );
    check(
      (a) =>
        call('gather')(
          a,
          -2,
          idx([
            [2, 0],
            [2, 2],
          ]),
        ),
      [leafT([3, 3])],
    );
    check((a) => call('gather')(a, 0, idx(0)), [leaf([])]);
  });

  test('scatter: self loses the scattered positions, src gathers', () => {
    const ix = idx([
      [0, 4],
      [2, 1],
      [3, 0],
    ]);
    check((a, s) => call('scatter')(a, 1, ix, s), [leaf([3, 5]), leaf([3, 2])]);
    check((a, s) => call('scatter')(a, -1, ix, s), [leafT([3, 5]), leafT([3, 2])]);
    check((a) => call('scatter')(a, 1, ix, 2.5), [leaf([3, 5])]);
    // reduce='add' (differentiated like scatter_add; duplicates accumulate).
    const dup = idx([[1, 1, 0]]);
    check((a, s) => call('scatter', { reduce: 'add' })(a, 1, dup, s), [leaf([2, 3]), leaf([1, 3])]);
  });

  test('a src larger than the index gets a gather-shaped gradient, refused like PyTorch', () => {
    const src = leaf([3, 4]);
    const out = call('scatter')(leaf([3, 5]), 1, idx([[0], [2], [3]]), src);
    expect(() => (callOp('sum', [out]) as Tensor).backward()).toThrow(
      /ScatterBackward0 returned an invalid gradient at index \d - got \[3, 1\] but expected shape compatible with \[3, 4\]/,
    );
  });

  test("scatter(reduce='multiply') refuses a derivative at backward, like PyTorch", () => {
    const a = leaf([2, 3]);
    const out = call('scatter', { reduce: 'multiply' })(a, 1, idx([[0]]), rand([1, 1]));
    expect(() => (callOp('sum', [out]) as Tensor).backward()).toThrow(
      /derivative for 'scatter' is not implemented/,
    );
  });

  test('index_select index-adds the gradient', () => {
    check((a) => call('index_select')(a, 0, idx([0, 2, 2])), [leaf([4, 3])]);
    check((a) => call('index_select')(a, -1, idx([1, 0])), [leafT([2, 3])]);
    check((a) => call('index_select')(a, 1, idx(1)), [leaf([2, 3])]);
    check((a) => call('index_select')(a, 1, tensor([2, 0], { dtype: 'int32' })), [leaf([2, 3])]);
    check((a) => call('index_select')(a, 0, idx([0])), [leaf([])]);
  });

  test('masked_fill: self gets the unmasked gradient, a tensor value the masked sum', () => {
    const mask = tensor([
      [true, false, true],
      [false, false, true],
    ]);
    check((a) => call('masked_fill')(a, mask, 3), [leaf([2, 3])]);
    check((a) => call('masked_fill')(a, tensor([false, true, true]), -1), [leafT([2, 3])]);
    check((a) => call('masked_fill')(a, mask, 0), [leaf([3])]); // self broadcasts to the mask
    // The qualified overload: a bare 0-d tensor value binds masked_fill.Scalar in this runtime (see report).
    check((a, v) => call('masked_fill.Tensor')(a, mask, v), [leaf([2, 3]), leaf([])]);
  });

  test('clamp with Scalar and Tensor bounds', () => {
    check((a) => call('clamp')(a, -0.5, 0.5), [leaf([3, 4])]);
    check((a) => call('clamp', { min: 0 })(a), [leafT([3, 4])]);
    check((a) => call('clamp', { max: 0.2 })(a), [leaf([5])]);
    check((a, lo, hi) => call('clamp')(a, lo, hi), [leaf([2, 3]), leaf([3], -1, -0.2), leaf([2, 1], 0.2, 1)]);
    check((a, lo) => call('clamp', { min: lo })(a), [leaf([4]), leaf([3, 1])]);
    // min > max clamps to max: the gradient goes to max (clamp_backward_min_max).
    check((a, lo, hi) => call('clamp')(a, lo, hi), [leaf([4]), leaf([4], 0.5, 1), leaf([4], -1, 0.4)]);
  });
});

test('in-place variants share the rows (self saved before it is overwritten)', () => {
  const mask = tensor([
    [true, false, false],
    [false, true, false],
  ]);
  const fresh = (a: Tensor) => call('mul')(a, 1);
  check((a) => call('tril_')(fresh(a), -1), [leaf([2, 3])]);
  check((a) => call('masked_fill_')(fresh(a), mask, 2), [leaf([2, 3])]);
  check((a) => call('scatter_')(fresh(a), 1, idx([[2], [0]]), 2), [leaf([2, 3])]);
  check((a) => call('clamp_')(fresh(a), -0.5, 0.4), [leaf([2, 3])]);
});

describe('matrix products', () => {
  test('mm, bmm, mv, dot', () => {
    check(call('mm'), [leaf([2, 3]), leaf([3, 4])]);
    check(call('mm'), [leafT([3, 2]), leafT([2, 4])]);
    check(call('bmm'), [leaf([2, 3, 4]), leaf([2, 4, 2])]);
    check(call('mv'), [leafT([3, 4]), leaf([4])]);
    check(call('dot'), [leaf([5]), leaf([5])]);
  });

  test('matmul over every rank case, with batch broadcasting', () => {
    const cases: [number[], number[]][] = [
      [[3], [3]],
      [[2, 3], [3]],
      [[3], [3, 2]],
      [
        [2, 3],
        [3, 4],
      ],
      [[2, 2, 3], [3]],
      [[3], [2, 3, 2]],
      [
        [2, 1, 2, 3],
        [4, 3, 2],
      ],
      [
        [2, 3],
        [2, 3, 2],
      ],
    ];
    for (const [a, b] of cases) check(call('matmul'), [leaf(a), leaf(b)]);
    check(call('matmul'), [leafT([3, 2]), leaf([3, 2, 2])]);
  });
});

describe('sorting', () => {
  test('sort and topk scatter the values gradient back; indices are not differentiable', () => {
    check(first('sort'), [leaf([3, 4])]);
    check(first('sort', { dim: 0, descending: true }), [leafT([3, 4])]);
    check((a) => (callOp('topk', [a, 2], { dim: 0 }) as Tensor[])[0], [leaf([4, 3])]);
    check((a) => (callOp('topk', [a, 2], { largest: false }) as Tensor[])[0], [leaf([2, 5])]);
    const [v, i] = callOp('sort', [leaf([4])]) as Tensor[];
    expect(v.requiresGrad).toBe(true);
    expect(i.requiresGrad).toBe(false);
    expect(i.gradFn).toBeNull();
  });
});

test("PyTorch's node names", () => {
  const [a, b] = [leaf([2, 2]), leaf([2, 2])];
  const names: [Tensor, string][] = [
    [call('cat')([a, b]), 'CatBackward0'],
    [call('stack')([a, b]), 'StackBackward0'],
    [call('flip')(a, [0]), 'FlipBackward0'],
    [call('roll')(a, [1], [0]), 'RollBackward0'],
    [call('tril')(a), 'TrilBackward0'],
    [call('triu')(a), 'TriuBackward0'],
    [call('gather')(a, 1, idx([[0], [1]])), 'GatherBackward0'],
    [call('scatter')(a, 1, idx([[0], [1]]), b), 'ScatterBackward0'],
    [call('index_select')(a, 0, idx([1])), 'IndexSelectBackward0'],
    [call('masked_fill')(a, tensor([true, false]), 1), 'MaskedFillBackward0'],
    [call('clamp')(a, 0, 1), 'ClampBackward1'],
    [call('mm')(a, b), 'MmBackward0'],
    [call('bmm')(call('unsqueeze')(a, 0), call('unsqueeze')(b, 0)), 'BmmBackward0'],
    [call('mv')(a, call('select')(b, 0, 0)), 'MvBackward0'],
    [call('dot')(call('select')(a, 0, 0), call('select')(b, 0, 0)), 'DotBackward0'],
    [first('sort')(a), 'SortBackward0'],
    [first('topk')(a, 1), 'TopkBackward0'],
  ];
  for (const [t, name] of names) expect(t.gradFn?.name).toBe(name);
});

describe('a wrong formula is caught', () => {
  const restore: (() => void)[] = [];
  afterEach(() => {
    while (restore.length) restore.pop()!();
  });

  test("mm's backward with a flipped sign on mat2 fails gradcheck", () => {
    const entry = operatorTable.get('mm');
    const real = entry.kernels.get(DispatchKey.Autograd)!;
    restore.push(() => entry.kernels.set(DispatchKey.Autograd, real));
    const op = (name: string, ...args: unknown[]) => callOp(name, args) as Tensor;
    entry.kernels.set(
      DispatchKey.Autograd,
      autogradKernel(
        {
          saves: ['self', 'mat2'],
          formula: (c) => [
            op('mm', c.grad, op('t', c.args.mat2)),
            op('neg', op('mm', op('t', c.args.self), c.grad)),
          ],
        },
        'mm',
      ),
    );
    expect(() => gradcheck(call('mm'), [leaf([2, 3]), leaf([3, 2])])).toThrow(GradcheckError);
    // The first input's gradient is still right: only input 1 is reported.
    expect(() => gradcheck(call('mm'), [leaf([2, 3]), rand([3, 2])])).not.toThrow();
  });
});
