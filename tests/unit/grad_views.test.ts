/**
 * Derivatives of view and copy ops (autograd/derivatives/views.ts) and of the *_scatter ops their backwards are
 * written in: gradcheck + gradgradcheck on float64 samples (negative dims, non-contiguous inputs, overlapping
 * windows), PyTorch 1.13's node names, and injected wrong formulas that the checks must catch.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { GradcheckError, gradcheck, gradgradcheck } from '../../src/oracles/index.ts';
import { autogradKernel } from '../../src/runtime/autograd/index.ts';
import {
  callOp,
  DispatchKey,
  fromArray,
  operatorTable,
  type Tensor,
  torch,
} from '../../src/runtime/index.ts';
import { expectCode } from './errors_helpers.ts';

const { zeros } = torch;

const op = (name: string, ...args: unknown[]) => callOp(name, args) as Tensor;
const ops = (name: string, ...args: unknown[]) => callOp(name, args) as Tensor[];

let seed = 7;
function rand(shape: readonly number[]): Tensor {
  const n = shape.reduce((a, b) => a * b, 1);
  const data = Float64Array.from({ length: n }, () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647 - 0.5;
  });
  return fromArray(data, shape, 'float64');
}
/** A float64 leaf that requires grad; `prep` lays it out first (e.g. `.t()` for a non-contiguous leaf). */
const leaf = (shape: readonly number[], prep: (t: Tensor) => Tensor = (t) => t) =>
  prep(rand(shape)).requiresGrad_(true);
const tr = (t: Tensor) => t.t();
/** A non-leaf copy, for in-place ops (a leaf that requires grad refuses them). */
const fresh = (a: Tensor) => op('mul', a, 1);

type Fn = (...xs: Tensor[]) => Tensor | Tensor[];
type Case = readonly [label: string, fn: Fn, inputs: () => Tensor[]];

const CASES: Record<string, { node: string; cases: Case[] }> = {
  narrow: {
    node: 'SliceBackward0',
    cases: [
      ['dim 1, negative start', (a) => op('narrow', a, 1, -3, 2), () => [leaf([3, 4])]],
      ['transposed input', (a) => op('narrow', a, 0, 1, 2), () => [leaf([3, 4], tr)]],
    ],
  },
  slice: {
    node: 'SliceBackward0',
    cases: [
      ['step 2', (a) => op('slice', a, 0, 1, 4, 2), () => [leaf([5, 3])]],
      ['negative dim and start', (a) => op('slice', a, -1, -3, null, 1), () => [leaf([2, 5], tr)]],
      ['empty (end < start)', (a) => op('slice', a, 0, 4, 2, 1), () => [leaf([5, 3])]],
    ],
  },
  select: {
    node: 'SelectBackward0',
    cases: [
      ['negative index', (a) => op('select', a, 1, -1), () => [leaf([3, 4])]],
      ['1-D to 0-dim', (a) => op('select', a, 0, 2), () => [leaf([4])]],
      ['transposed, negative dim', (a) => op('select', a, -2, 1), () => [leaf([3, 4], tr)]],
    ],
  },
  diagonal: {
    node: 'DiagonalBackward0',
    cases: [
      ['offset 1', (a) => op('diagonal', a, 1, 0, 1), () => [leaf([3, 4])]],
      ['3-D, negative dims and offset', (a) => op('diagonal', a, -1, -1, 0), () => [leaf([3, 2, 4])]],
      ['transposed', (a) => op('diagonal', a, 0, 1, 0), () => [leaf([3, 4], tr)]],
    ],
  },
  unfold: {
    node: 'UnfoldBackward0',
    cases: [
      ['overlapping windows', (a) => op('unfold', a, 1, 3, 1), () => [leaf([2, 6])]],
      ['gaps (step > size), negative dim', (a) => op('unfold', a, -1, 2, 3), () => [leaf([2, 8], tr)]],
      ['two residue classes', (a) => op('unfold', a, 0, 5, 3), () => [leaf([12, 2])]],
      ['0-dim input', (a) => op('unfold', a, 0, 1, 1), () => [leaf([])]],
    ],
  },
  split: {
    node: 'SplitBackward0',
    cases: [
      ['all outputs', (a) => ops('split', a, 2, 1), () => [leaf([3, 5])]],
      ['one output used (others get zeros)', (a) => ops('split', a, 2, 0)[1], () => [leaf([2, 5], tr)]],
      ['sizes overload', (a) => ops('split', a, [1, 3], 0), () => [leaf([4, 2])]],
    ],
  },
  split_with_sizes: {
    node: 'SplitWithSizesBackward0',
    cases: [
      ['with an empty piece', (a) => ops('split_with_sizes', a, [2, 0, 3], -1), () => [leaf([2, 5])]],
      ['last output only', (a) => ops('split_with_sizes', a, [1, 2], 0)[1], () => [leaf([3, 2])]],
    ],
  },
  unbind: {
    node: 'UnbindBackward0',
    cases: [
      ['dim 1', (a) => ops('unbind', a, 1), () => [leaf([2, 3])]],
      ['one output used', (a) => ops('unbind', a, 0)[2], () => [leaf([3, 2])]],
      ['negative dim, transposed', (a) => ops('unbind', a, -1), () => [leaf([2, 3], tr)]],
    ],
  },
  as_strided: {
    node: 'AsStridedBackward0',
    cases: [
      ['distinct elements, offset', (a) => op('as_strided', a, [2, 2], [1, 2], 1), () => [leaf([2, 3])]],
      ['transposed input', (a) => op('as_strided', a, [2, 2], [3, 1], 0), () => [leaf([3, 2], tr)]],
      ['overlapping windows', (a) => op('as_strided', a, [3, 3], [1, 1]), () => [leaf([2, 3])]],
      [
        'overlapping (expanded) input',
        (a) => op('as_strided', op('expand', a, [3, 4]), [2, 2], [1, 1]),
        () => [leaf([4])],
      ],
    ],
  },
  slice_scatter: {
    node: 'SliceScatterBackward0',
    cases: [
      ['step 2', (a, b) => op('slice_scatter', a, b, 1, 1, null, 2), () => [leaf([3, 5]), leaf([3, 2])]],
      [
        'transposed self',
        (a, b) => op('slice_scatter', a, b, 0, 1, 3, 1),
        () => [leaf([4, 3], tr), leaf([2, 4])],
      ],
    ],
  },
  select_scatter: {
    node: 'SelectScatterBackward0',
    cases: [
      ['negative index', (a, b) => op('select_scatter', a, b, 0, -1), () => [leaf([3, 4]), leaf([4])]],
      ['into 1-D', (a, b) => op('select_scatter', a, b, 0, 1), () => [leaf([3]), leaf([])]],
    ],
  },
  diagonal_scatter: {
    node: 'DiagonalScatterBackward0',
    cases: [
      [
        'offset, swapped dims',
        (a, b) => op('diagonal_scatter', a, b, 1, 1, 0),
        () => [leaf([3, 4]), leaf([2])],
      ],
      ['3-D', (a, b) => op('diagonal_scatter', a, b, -1, -1, 0), () => [leaf([3, 2, 4]), leaf([2, 3])]],
    ],
  },
  as_strided_scatter: {
    node: 'AsStridedScatterBackward0',
    cases: [
      [
        'offset',
        (a, b) => op('as_strided_scatter', a, b, [2, 2], [1, 3], 1),
        () => [leaf([2, 4]), leaf([2, 2])],
      ],
      [
        'transposed self',
        (a, b) => op('as_strided_scatter', a, b, [2, 2], [1, 3], 1),
        () => [leaf([4, 2], tr), leaf([2, 2])],
      ],
    ],
  },
  copy_: {
    node: 'CopyBackwards',
    cases: [
      ['broadcast src', (a, b) => op('copy_', fresh(a), b), () => [leaf([3, 4]), leaf([4])]],
      ['transposed self', (a, b) => op('copy_', fresh(a), b), () => [leaf([3, 2], tr), leaf([2, 3])]],
    ],
  },
  fill_: {
    node: 'FillBackward2',
    cases: [
      ['scalar', (a) => callOp('fill_', [fresh(a), 3]) as Tensor, () => [leaf([3])]],
      ['then used', (a) => op('mul', callOp('fill_', [fresh(a), 2]) as Tensor, a), () => [leaf([2, 2])]],
    ],
  },
  // Decomposed ops: their gradient is the recorded decomposition (node names are those of the parts).
  flatten: {
    node: 'ViewBackward0',
    cases: [
      ['dims 1..-1', (a) => op('flatten', a, 1, -1), () => [leaf([2, 3, 2])]],
      ['transposed (copies)', (a) => op('flatten', a), () => [leaf([2, 3], tr)]],
    ],
  },
  chunk: {
    node: 'SplitBackward0',
    cases: [
      ['uneven', (a) => ops('chunk', a, 2, 1), () => [leaf([2, 5])]],
      ['one chunk used', (a) => ops('chunk', a, 3, 0)[0], () => [leaf([4, 2])]],
    ],
  },
  movedim: {
    node: 'PermuteBackward0',
    cases: [
      ['to the end', (a) => op('movedim', a, 0, -1), () => [leaf([2, 3, 2])]],
      ['transposed', (a) => op('movedim', a, 1, 0), () => [leaf([2, 3], tr)]],
    ],
  },
  expand_as: {
    node: 'ExpandBackward0',
    cases: [
      [
        'new leading dim',
        (a) => op('expand_as', a, zeros([2, 3, 4], { dtype: 'float64' })),
        () => [leaf([3, 1])],
      ],
      ['0-dim', (a) => op('expand_as', a, zeros([2, 2], { dtype: 'float64' })), () => [leaf([])]],
    ],
  },
  zero_: {
    // PyTorch records ZeroBackward0; zero_ is decomposed into fill_ here.
    node: 'FillBackward2',
    cases: [
      ['alone', (a) => callOp('zero_', [fresh(a)]) as Tensor, () => [leaf([3])]],
      ['then added to self', (a) => op('add', callOp('zero_', [fresh(a)]) as Tensor, a), () => [leaf([3])]],
    ],
  },
};

const first = (r: Tensor | Tensor[]) => (Array.isArray(r) ? r[0] : r);

describe.each(Object.entries(CASES))('%s', (_name, { node, cases }) => {
  test.each(cases)('%s: gradcheck + gradgradcheck', (_label, fn, inputs) => {
    expect(gradcheck(fn, inputs())).toBe(true);
    expect(gradgradcheck(fn, inputs())).toBe(true);
  });

  test(`records ${node}`, () => {
    const [, fn, inputs] = cases[0];
    expect(first(fn(...inputs())).gradFn?.name).toBe(node);
  });
});

test("as_strided's gradient matches PyTorch where output elements share memory", () => {
  const a = leaf([4]);
  const y = op('as_strided', op('expand', a, [3, 4]), [2, 2], [1, 1]);
  op('sum', y).backward();
  expect(a.grad?.tolist()).toEqual([1, 2, 1, 0]); // torch 1.13: tensor([1., 2., 1., 0.])
});

test("copy_ gives src its gradient summed to src's shape and in src's dtype; self gets zeros", () => {
  const src = fromArray(new Float32Array([1, 2, 3]), [3], 'float32').requiresGrad_(true);
  const self = leaf([2, 3]);
  op('sum', op('mul', op('copy_', fresh(self), src), 2)).backward();
  expect(src.grad?.dtype).toBe('float32');
  expect(src.grad?.tolist()).toEqual([4, 4, 4]);
  expect(self.grad?.tolist()).toEqual([
    [0, 0, 0],
    [0, 0, 0],
  ]);
});

test('view backwards run on meta tensors', () => {
  const m = zeros([3, 4], { dtype: 'float64', device: 'meta' }).requiresGrad_(true);
  op(
    'sum',
    op('unfold', op('diagonal_scatter', m, zeros([3], { dtype: 'float64', device: 'meta' })), 1, 2, 1),
  ).backward();
  expect(m.grad?.device).toBe('meta');
  expect(m.grad?.shape).toEqual([3, 4]);
});

describe('wrong formulas are caught', () => {
  const restore: (() => void)[] = [];
  afterEach(() => {
    while (restore.length) restore.pop()!();
  });
  const swap = (qualified: string, d: Parameters<typeof autogradKernel>[0], name: string) => {
    const entry = operatorTable.get(qualified);
    const real = entry.kernels.get(DispatchKey.Autograd)!;
    entry.kernels.set(DispatchKey.Autograd, autogradKernel(d, name));
    restore.push(() => entry.kernels.set(DispatchKey.Autograd, real));
  };
  const zerosOf = (shape: readonly number[]) => zeros([...shape], { dtype: 'float64' });

  test("unfold's backward that ignores overlapping windows fails gradcheck", () => {
    // Each input element receives the gradient of one window only (the last writer wins), not their sum.
    swap(
      'unfold',
      {
        saves: [],
        formula: (c) => {
          let g = zerosOf(c.shapes.self);
          const [d, size, step] = [c.args.dimension as number, c.args.size as number, c.args.step as number];
          ops('unbind', c.grad, d).forEach((w, j) => {
            g = op('slice_scatter', g, op('movedim', w, -1, d), d, j * step, j * step + size, 1);
          });
          return [g];
        },
      },
      'unfold',
    );
    expect(() => gradcheck((a) => op('unfold', a, 1, 3, 1), [leaf([2, 6])])).toThrow(GradcheckError);
    // Without overlap the same formula is right: the check is specific, not a blanket failure.
    expect(gradcheck((a) => op('unfold', a, 1, 2, 2), [leaf([2, 6])])).toBe(true);
  });

  test("select's backward into the wrong index fails gradcheck", () => {
    swap(
      'select.int',
      {
        saves: [],
        formula: (c) => [op('select_scatter', zerosOf(c.shapes.self), c.grad, c.args.dim, 0)],
      },
      'select',
    );
    expect(() => gradcheck((a) => op('select', a, 0, 1), [leaf([3, 2])])).toThrow(/Jacobian mismatch/);
  });

  test("slice_scatter's backward computed outside autograd fails gradgradcheck only", () => {
    swap(
      'slice_scatter',
      {
        saves: [],
        formula: (c) => {
          const g = op('detach', c.grad);
          const region = op('slice', g, c.args.dim, c.args.start, c.args.end, c.args.step);
          return [
            op('slice_scatter', g, zerosOf(region.shape), c.args.dim, c.args.start, c.args.end, c.args.step),
            region,
          ];
        },
      },
      'slice_scatter',
    );
    const fn = (a: Tensor, b: Tensor) => op('mul', op('slice_scatter', a, b, 0, 1, 3, 1), a);
    const inputs = () => [leaf([4, 2]), leaf([2, 2])];
    expect(gradcheck(fn, inputs())).toBe(true);
    expect(() => gradgradcheck(fn, inputs())).toThrow(GradcheckError);
  });
});

describe('in-place on views', () => {
  test('writing into a view of a tensor that requires grad is refused (no CopySlices), never silently unrecorded', () => {
    const leaf = rand([3]);
    leaf.requiresGrad_(true);
    const x = op('mul', leaf, 1);
    expectCode(() => op('mul_', x.narrow(0, 0, 2), 2), 'E_NOT_IMPLEMENTED', { arg: 'self' });
    // A view of a tensor outside the graph written with a value that requires grad: refused too.
    const other = rand([2]);
    other.requiresGrad_(true);
    expectCode(
      () => op('add_', zeros([3], { dtype: 'float64' }).narrow(0, 0, 2), other),
      'E_NOT_IMPLEMENTED',
    );
  });
});
