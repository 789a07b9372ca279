/**
 * `op(x, out=x)`: the out= overload writes through a temporary when `out` is also an input, so kernels that
 * read one element after writing another give the functional result. The reference oracle checks this for
 * every op whose output is shaped like its input; matrix products (out shaped like an input only when square)
 * and an op whose second argument is the output are checked here.
 */
import { describe, expect, test } from 'vitest';
import { callOp, type Tensor, tensor } from '../../src/runtime/index.ts';

const values = (t: Tensor) => t.tolist();

describe('out= aliasing an input', () => {
  const square = () =>
    tensor([
      [1, 2, 3],
      [4, 5, 6],
      [7, 8, 10],
    ]);

  test.each([
    ['mm self', (x: Tensor, y: Tensor) => ['mm', [x, y], x] as const],
    ['mm mat2', (x: Tensor, y: Tensor) => ['mm', [y, x], x] as const],
    ['matmul', (x: Tensor, y: Tensor) => ['matmul', [x, y], x] as const],
  ])('%s', (_name, make) => {
    const x = square();
    const y = callOp('add', [square(), 1]) as Tensor;
    const [op, args] = make(x, y);
    const expected = values(callOp(op, [...args]) as Tensor);
    const [, argsAgain, out] = make(x, y);
    const r = callOp(op, [...argsAgain], { out }) as Tensor;
    expect(r).toBe(out);
    expect(values(r)).toEqual(expected);
  });

  test('reads along a dim: cumsum, softmax, flip, roll', () => {
    for (const [op, args] of [
      ['cumsum', [1]],
      ['softmax', [1]],
      ['flip', [[0, 1]]],
      ['roll', [1, 0]],
    ] as const) {
      const x = callOp('div', [square(), 3]) as Tensor;
      const expected = values(callOp(op, [x, ...args]) as Tensor);
      callOp(op, [x, ...args], { out: x });
      expect(values(x), op).toEqual(expected);
    }
  });
});
