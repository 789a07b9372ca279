/**
 * The op's own tests, as a user writes them with opgate installed: opcheck (schema, autograd registration, fake,
 * compile) on strided and offset samples, and every kernel against the composite contract.
 */
import { callOp, initWebGPU, type Tensor, tensor, torch } from 'opgate';
import { opcheck } from 'opgate/testing';
import { expect, test } from 'vitest';
import { scaleShift, scaleShiftContract } from '../ops/scale_shift.ts';

const x = (dtype: 'float32' | 'float64' = 'float32') =>
  tensor(
    [
      [0.5, -1.25, 2],
      [3, 0.75, -0.5],
    ],
    { dtype },
  );
const transposed = () => callOp('t', [x()]) as Tensor;
const offset = () => callOp('select', [x('float64'), 0, 1]) as Tensor;

test('opcheck: the schema, the autograd registration, the fake and compile agree with the kernels', async () => {
  const report = await opcheck('myops::scale_shift', [
    { args: [x()] },
    { args: [transposed(), 3], kwargs: { shift: -1 } },
    { args: [offset(), 0.5, 4] },
  ]);
  expect(report.map((r) => [r.check, r.failure])).toEqual([
    ['schema', null],
    ['autograd_registration', null],
    ['fake', null],
    ['compile', null],
  ]);
});

test('the cpu kernel equals the contract on strided inputs', async () => {
  for (const input of [x(), transposed(), offset()]) {
    expect(await scaleShift(input, 3, -1).toArray()).toEqual(
      await scaleShiftContract(input, 3, -1).toArray(),
    );
  }
});

test('the webgpu kernel equals the cpu kernel', async (ctx) => {
  if (!(await initWebGPU())) ctx.skip();
  const input = transposed();
  const onGpu = scaleShift(callOp('to', [input, 'webgpu']) as Tensor);
  expect(await onGpu.toArray()).toEqual(await scaleShift(input).toArray());
});

test('a float16 input is refused with a coded error', () => {
  expect(() => scaleShift(torch.ones([2], { dtype: 'float16' }) as Tensor)).toThrow(
    expect.objectContaining({ code: 'E_DTYPE_UNSUPPORTED' }),
  );
});
