/**
 * The losses' class weights, which PyTorch 1.13's autograd refuses to differentiate (op_db's gradient samples
 * leave them out), and the losses' aten out= overloads (mse_loss.out, smooth_l1_loss.out, huber_loss.out, nll_loss.out, nll_loss2d.out,
 * binary_cross_entropy.out, binary_cross_entropy_with_logits.out), which op_db reaches only through
 * torch.nn.functional's functions: out= returns `out` holding the functional result for every reduction, resized
 * to it, and a call whose checks fail leaves `out` untouched. Values from PyTorch 1.13 (torch.ops.aten.*).
 */
import { describe, expect, test } from 'vitest';
import { callOp, flatValues, type Tensor, tensor } from '../../src/runtime/index.ts';

const x = tensor(
  [
    [0.2, 0.7, 0.4],
    [0.9, 0.1, 0.5],
  ],
  { dtype: 'float64' },
);
const y = tensor(
  [
    [0.5, 0.3, 0.4],
    [0.1, 0.8, 0.6],
  ],
  { dtype: 'float64' },
);
const logits = tensor(
  [
    [0.5, -1.5, 2],
    [1, 0.25, -0.75],
  ],
  { dtype: 'float64' },
);
const classes = tensor([2, 0]);
const values = (v: Tensor) => flatValues(v).map(Number);

/** [op, args before reduction, args after] for each out= overload. */
const CASES: [string, unknown[], unknown[]][] = [
  ['mse_loss', [x, y], []],
  ['smooth_l1_loss', [x, y], [0.25]],
  ['huber_loss', [x, y], [0.25]],
  ['binary_cross_entropy', [x, y, null], []],
  ['binary_cross_entropy_with_logits', [logits, y, null, tensor([1, 2, 3], { dtype: 'float64' })], []],
  ['nll_loss', [logits, classes, tensor([1, 0.5, 2], { dtype: 'float64' })], [-100]],
  [
    'nll_loss2d',
    [callOp('reshape', [logits, [2, 3, 1, 1]]), callOp('reshape', [classes, [2, 1, 1]]), null],
    [0],
  ],
];

describe('loss out= overloads', () => {
  test.each(CASES)('%s.out writes the functional result for every reduction', (op, before, after) => {
    for (const reduction of [0, 1, 2]) {
      const want = callOp(op, [...before, reduction, ...after]) as Tensor;
      const out = tensor([7], { dtype: 'float64' });
      const got = callOp(op, [...before, reduction, ...after], { out }) as Tensor;
      expect(got).toBe(out);
      expect(out.shape).toEqual(want.shape);
      expect(values(out)).toEqual(values(want));
    }
  });

  test('PyTorch values: mse_loss.out (none) and nll_loss.out (mean, weighted)', () => {
    const mse = tensor([0], { dtype: 'float64' });
    callOp('mse_loss', [x, y, 0], { out: mse });
    expect(values(mse).map((v) => Number(v.toFixed(12)))).toEqual([0.09, 0.16, 0, 0.64, 0.49, 0.01]);
    const nll = tensor([0], { dtype: 'float64' });
    callOp('nll_loss', [logits, classes, tensor([1, 0.5, 2], { dtype: 'float64' }), 1, -100], { out: nll });
    // -(2 * 2 + 1 * 1) / (2 + 1)
    expect(values(nll)[0]).toBeCloseTo(-5 / 3, 12);
  });

  test('a failing check leaves out untouched', () => {
    const out = tensor([7, 8], { dtype: 'float64' });
    expect(() => callOp('nll_loss', [logits, tensor([0, 5]), null, 0, -100], { out })).toThrow(
      /out of bounds/,
    );
    expect(() => callOp('huber_loss', [x, y, 0, 0], { out })).toThrow(/non-positive values for delta/);
    expect(() => callOp('binary_cross_entropy', [logits, y, null, 0], { out })).toThrow(/between 0 and 1/);
    expect(values(out)).toEqual([7, 8]);
  });
});

describe('weights without a derivative', () => {
  const leaf = () => tensor([1, 0.5, 2], { dtype: 'float64' }).requiresGrad_(true);
  const probs = tensor(
    [
      [0.2, 0.5, 0.3],
      [0.6, 0.1, 0.3],
    ],
    { dtype: 'float64' },
  );
  test.each([
    [
      'nll_loss',
      () => callOp('nn.functional.nll_loss', [logits, classes], { weight: leaf() }),
      'nll_loss_forward',
      'weight',
    ],
    [
      'cross_entropy with label smoothing',
      () =>
        callOp('nn.functional.cross_entropy', [logits, classes], { weight: leaf(), label_smoothing: 0.1 }),
      'nll_loss_forward',
      'weight',
    ],
    [
      'binary_cross_entropy',
      () => callOp('nn.functional.binary_cross_entropy', [x, y], { weight: leaf() }),
      'binary_cross_entropy',
      'weight',
    ],
    [
      'binary_cross_entropy_with_logits',
      () => callOp('nn.functional.binary_cross_entropy_with_logits', [logits, y], { pos_weight: leaf() }),
      'binary_cross_entropy_with_logits',
      'pos_weight',
    ],
  ])('%s refuses a weight that requires grad, as PyTorch 1.13 does', (_, call, op, arg) => {
    expect(call).toThrow(
      `The function '${op}' is not differentiable with respect to argument '${arg}'. This input cannot have requires_grad True.`,
    );
  });

  test('class-probability cross_entropy differentiates its weight (PyTorch 1.13 does too)', () => {
    const w = leaf();
    const loss = callOp('nn.functional.cross_entropy', [logits, probs], { weight: w }) as Tensor;
    loss.backward();
    expect(w.grad).not.toBeNull();
  });
});
