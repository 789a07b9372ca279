/**
 * fill_ with a 0-dim value tensor (fill_.Tensor): PyTorch 1.13 reads the value with item() and fills, an expanded
 * self included, with the checked conversion of fill_.Scalar; the value's gradient is the sum of self's. Expected
 * values were computed once with PyTorch 1.13 (Debian python3-torch) and pasted here.
 */
import { describe, expect, test } from 'vitest';
import { callOp, type Tensor } from '../../src/runtime/index.ts';
import { expectCode } from './errors_helpers.ts';

const full = (shape: number[], v: number, dtype = 'float32') =>
  callOp('full', [shape, v], { dtype }) as Tensor;

describe('fill_.Tensor', () => {
  test('fills an expanded self (torch.zeros(1, 3).expand(2, 3).fill_(torch.tensor(2.5)).sum() is 15)', () => {
    const x = callOp('expand', [callOp('zeros', [[1, 3]]), [2, 3]]) as Tensor;
    callOp('fill_', [x, full([], 2.5)]);
    expect((callOp('sum', [x]) as Tensor).item()).toBe(15);
  });
  test('refuses a value past the dtype, as fill_.Scalar does', () => {
    expectCode(() => callOp('fill_', [full([2], 0, 'int8'), full([], 300, 'int64')]), 'E_INVALID_ARGUMENT', {
      op: 'fill_',
      arg: 'value',
      says: ['value cannot be converted to type int8_t without overflow'],
    });
  });
  test("the value's gradient is the sum of self's (6 for a [2, 3] self)", () => {
    const v = full([], 2, 'float64').requiresGrad_(true);
    const r = callOp('fill_', [full([2, 3], 0, 'float64'), v]) as Tensor;
    (callOp('sum', [r]) as Tensor).backward();
    expect(v.grad?.item()).toBe(6);
  });
});
