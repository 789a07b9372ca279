/**
 * The autograd oracles must catch wrong derivatives: each test swaps in a broken derivatives-table row (or a
 * kernel that forgets to bump the version counter) through the dispatcher, sees the matching oracle fail, and
 * restores the real kernel.
 */
import { describe, expect, test } from 'vitest';
import type { Oracle } from '../../op_db/index.ts';
import { gradcheck, runOracle } from '../../src/oracles/index.ts';
import { autogradKernel } from '../../src/runtime/autograd/index.ts';
import { callOp, DispatchKey, type Kernel, type Tensor, tensor } from '../../src/runtime/index.ts';
import { matrixInstance, oracleFailure, swapKernel } from './inject_helpers.ts';

const swap = (
  qualified: string,
  key: (typeof DispatchKey)[keyof typeof DispatchKey],
  make: (real: Kernel) => Kernel,
) => swapKernel(qualified, make, key);
const instance = (op: string, oracle: Oracle, layout = 'contiguous', dtype = 'float64') =>
  matrixInstance(op, oracle, dtype, layout);

const op = (name: string, ...args: unknown[]) => callOp(name, args) as Tensor;

describe('injected autograd bugs are caught', () => {
  test("sin's backward using -cos instead of +cos fails gradcheck", async () => {
    const inst = instance('sin', 'gradcheck');
    expect((await runOracle(inst)).checks).toBeGreaterThan(0);
    swap('sin', DispatchKey.Autograd, () =>
      autogradKernel(
        { saves: ['self'], formula: (c) => [op('mul', c.grad, op('neg', op('cos', c.args.self)))] },
        'sin',
      ),
    );
    expect((await oracleFailure(() => runOracle(inst))).message).toMatch(
      /Jacobian mismatch for output 0 with respect to input 0/,
    );
  });

  test("add's backward without sum-to-size after broadcasting fails gradcheck", async () => {
    const inst = instance('add', 'gradcheck');
    expect((await runOracle(inst)).checks).toBeGreaterThan(0);
    swap('add.Tensor', DispatchKey.Autograd, () =>
      autogradKernel({ saves: [], formula: (c) => [c.grad, c.grad] }, 'add'),
    );
    const f = await oracleFailure(() => runOracle(inst));
    expect(f.message).toMatch(/broadcast/);
    expect(f.message).toMatch(/AddBackward0 returned an invalid gradient at index 1/);
  });

  test('a first derivative whose formula is not differentiable fails gradgradcheck', async () => {
    const inst = instance('exp', 'gradgradcheck');
    expect((await runOracle(inst)).checks).toBeGreaterThan(0);
    // The gradient values are right, but computed outside autograd: gradgrad sees a constant.
    swap('exp', DispatchKey.Autograd, () =>
      autogradKernel(
        { saves: ['result'], formula: (c) => [op('mul', c.grad, op('detach', c.result))] },
        'exp',
      ),
    );
    expect((await runOracle(instance('exp', 'gradcheck'))).checks).toBeGreaterThan(0);
    expect((await oracleFailure(() => runOracle(inst))).message).toMatch(/Jacobian mismatch/);
  });

  test('an in-place kernel that forgets the version bump fails the in-place check, and would hide stale saved tensors', async () => {
    const inst = instance('add', 'reference', 'contiguous', 'float32');
    swap('add_.Tensor', DispatchKey.CPU, (real) => (ks, args, entry) => {
      const out = real(ks, args, entry) as Tensor;
      out.storage.version--;
      return out;
    });
    expect((await oracleFailure(() => runOracle(inst))).message).toMatch(
      /in-place variant did not bump the version counter/,
    );
    // Without the bump, the saved-tensor check of ExpBackward0 cannot see the modification: a wrong gradient.
    const x = tensor([1, 2], { dtype: 'float64', requiresGrad: true });
    const a = op('exp', x);
    callOp('add_', [a, 1]);
    expect(() => op('sum', a).backward()).not.toThrow();
  });
});

describe('gradcheck itself', () => {
  test('fast mode catches a wrong derivative and reruns the full Jacobian to name the entries', async () => {
    swap('sin', DispatchKey.Autograd, () =>
      autogradKernel(
        { saves: ['self'], formula: (c) => [op('mul', c.grad, op('neg', op('cos', c.args.self)))] },
        'sin',
      ),
    );
    const x = tensor(
      [
        [0.3, 1.2],
        [-0.7, 2.1],
      ],
      { dtype: 'float64' },
    ).requiresGrad_();
    let message = '';
    try {
      gradcheck((a) => op('sin', a), [x], { fastMode: true });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/^fast mode: vᵀJu for output 0 with respect to input 0: analytical -?\d/);
    expect(message).toMatch(
      /full Jacobian rerun: Jacobian mismatch for output 0 with respect to input 0: 4 of 16 entries differ, e\.g\. \(0, 0\)/,
    );
  });

  test('refuses stride-0 inputs and checks reentrancy', async () => {
    const e = tensor([1], { dtype: 'float64' }).expand([3]).requiresGrad_();
    expect(() => gradcheck((a) => op('exp', a), [e])).toThrow(/has a dimension with stride 0/);
    // A backward whose result changes from one call to the next is not reentrant.
    let calls = 0;
    swap('exp', DispatchKey.Autograd, () =>
      autogradKernel(
        { saves: ['result'], formula: (c) => [op('mul', c.grad, op('add', c.result, calls++ * 1e-9))] },
        'exp',
      ),
    );
    const x = tensor([0.5, 1.5], { dtype: 'float64' }).requiresGrad_();
    expect(() => gradcheck((a) => op('exp', a), [x])).toThrow(/Backward is not reentrant/);
  });
});
