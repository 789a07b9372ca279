/** webgpu pointwise kernels against cpu: layouts (transposed, offset, broadcast), dtypes, wrapped scalars. */
import { expect, test } from 'vitest';
import { callOp, type Tensor, tensor } from '../../src/runtime/index.ts';
import { expectCode } from './errors_helpers.ts';
import { describeWebGPU, expectSameAsCpu, onWebGPU } from './webgpu_helpers.ts';

const op =
  (name: string, kw: Record<string, unknown> = {}) =>
  (...a: unknown[]) =>
    callOp(name, a, kw);
const f32 = (d: number[][]) => tensor(d, { dtype: 'float32' });

describeWebGPU('webgpu pointwise', () => {
  const x = f32([
    [1.5, -2, 0, Number.NaN],
    [3, -0.5, Number.POSITIVE_INFINITY, 4],
    [-7, 8, 9.25, -1e-3],
  ]);
  const y = f32([
    [2, 3, -1, 0.5],
    [0, 1, 2, -3],
    [4, -4, 0.25, 5],
  ]);
  test.each([
    'exp',
    'log',
    'sqrt',
    'tanh',
    'sigmoid',
    'erf',
    'relu',
    'round',
    'sign',
    'abs',
    'isnan',
    'isinf',
  ])('unary %s on a transposed view', async (name) => {
    await expectSameAsCpu(op(name), [callOp('t', [x])]);
  });
  test.each([
    'add',
    'sub',
    'mul',
    'div',
    'pow',
    'maximum',
    'minimum',
    'remainder',
    'fmod',
    'atan2',
    'eq',
    'lt',
  ])('binary %s with broadcasting and a storage offset', async (name) => {
    const row = callOp('select', [y, 0, 1]);
    await expectSameAsCpu(op(name), [callOp('narrow', [x, 0, 1, 2]), row]);
  });
  test('add with alpha and a wrapped Python number; int32 and uint8 wrap like cpu', async () => {
    await expectSameAsCpu(op('add', { alpha: 2.5 }), [x, 3]);
    const i = tensor([2147483647, -5, 7], { dtype: 'int32' });
    await expectSameAsCpu(op('add'), [i, 1]);
    await expectSameAsCpu(op('mul'), [tensor([200, 3, 255], { dtype: 'uint8' }), 2]);
    await expectSameAsCpu(op('div', { rounding_mode: 'floor' }), [i, tensor([2, -2, 3], { dtype: 'int32' })]);
  });
  test('in-place on a strided view writes only that view', async () => {
    const base = f32([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    await expectSameAsCpu(
      (b) => {
        callOp('add_', [callOp('select', [b as Tensor, 1, 1]), 10]);
        return b;
      },
      [base],
    );
  });
  test('where with a bool condition and mixed dtypes', async () => {
    const c = tensor([true, false, true], { dtype: 'bool' });
    await expectSameAsCpu(op('where'), [
      c,
      tensor([1, 2, 3], { dtype: 'int32' }),
      tensor([0.5, 0.25, 0.125], { dtype: 'float32' }),
    ]);
  });
  test('alpha a 0-dim cpu tensor works on webgpu; a webgpu one is refused with a typed error', async () => {
    const alpha = tensor(1.5, { dtype: 'float32' });
    await expectSameAsCpu((a, b) => callOp('sub', [a, b], { alpha }), [x, y]);
    const [a, b] = onWebGPU([x, y]);
    expectCode(() => callOp('sub', [a, b], { alpha: alpha.to('webgpu') }), 'E_INVALID_ARGUMENT', {
      op: 'sub',
      arg: 'value',
      says: [/webgpu tensor as a Scalar synchronously/, /got webgpu/, /expected cpu/],
    });
  });
  test('float64 on webgpu is refused with E_DTYPE_UNSUPPORTED', () => {
    expect(() => onWebGPU([tensor([1.5], { dtype: 'float64' })])).toThrow(/E_DTYPE_UNSUPPORTED/);
  });
});
