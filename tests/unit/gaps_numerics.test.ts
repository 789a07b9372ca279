/**
 * Issue 20's numerics gaps: each test injects the bug a hand-made mutant found (through the operator table) and
 * runs the real matrix instance that must now catch it, which passes before the injection.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { LONG_K } from '../../op_db/ops/linalg/index.ts';
import { runOracle } from '../../src/oracles/index.ts';
import {
  callOp,
  getDefaultDType,
  type Kernel,
  setDefaultDType,
  type Tensor,
} from '../../src/runtime/index.ts';
import { matrixInstance, oracleFailure, swapKernel } from './inject_helpers.ts';

const to = (t: unknown, dtype: string) => callOp('to', [t, dtype]) as Tensor;
const op = (name: string, ...args: unknown[]) => callOp(name, args) as Tensor;

afterEach(() => setDefaultDType('float32'));

/**
 * mm of bfloat16 summed another way than PyTorch 1.13's loops: in float64 and rounded once (the runtime's kernel
 * before it followed them), or in float32 on every layout (PyTorch does that only for a transposed first operand).
 */
const summedIn =
  (wide: 'float64' | 'float32') =>
  (real: Kernel): Kernel =>
  (ks, args, entry) => {
    const { self, mat2 } = args as { self: Tensor; mat2: Tensor };
    if (self.dtype !== 'bfloat16') return real(ks, args, entry);
    return to(op('mm', to(self, wide), to(mat2, wide)), 'bfloat16');
  };

/** Runs `inst` clean (it must pass), then with `inject` applied (it must fail matching `pattern`). */
async function catches(inst: ReturnType<typeof matrixInstance>, inject: () => void, pattern: RegExp) {
  expect((await runOracle(inst)).checks).toBeGreaterThan(0);
  inject();
  const f = await oracleFailure(() => runOracle(inst));
  expect(f.message).toMatch(pattern);
  return f;
}

describe('numerics gaps the matrix now catches', () => {
  test('int64 add computed through float64 fails the golden oracle beyond 2^53', async () => {
    const throughFloat64 =
      (real: Kernel): Kernel =>
      (ks, args, op) => {
        const { self, other } = args as { self: Tensor; other: Tensor };
        if (self.dtype !== 'int64' || other.dtype !== 'int64') return real(ks, args, op);
        const r = real(ks, { ...args, self: to(self, 'float64'), other: to(other, 'float64') }, op);
        return to(r, 'int64');
      };
    const f = await catches(
      matrixInstance('add', 'golden', 'int64', 'contiguous'),
      () => swapKernel('add.Tensor', throughFloat64),
      /int64 beyond 2\^53[\s\S]*differ from PyTorch/,
    );
    expect(f.message).toMatch(/PyTorch 9007199254740993/);
  });

  test('a Python float scalar promoting int32 to float64 fails the reference and golden oracles', async () => {
    // The mutant's effect at its root: a wrapped Python float contributes float64 instead of the default dtype.
    const promoteToDouble = () => setDefaultDType('float64');
    expect(getDefaultDType()).toBe('float32');
    for (const oracle of ['reference', 'golden'] as const)
      await catches(
        matrixInstance('add', oracle, 'int32', 'contiguous'),
        promoteToDouble,
        /python scalar rhs of another kind[\s\S]*float64, PyTorch gives float32/,
      ).finally(() => setDefaultDType('float32'));
  });

  test('mm of bfloat16 summed in float64 and rounded once fails the golden oracle, the long-k sample by itself too', async () => {
    const inst = matrixInstance('mm', 'golden', 'bfloat16', 'contiguous');
    await catches(inst, () => swapKernel('mm', summedIn('float64')), /differ from PyTorch/);
    const ctx = { device: 'cpu', dtype: 'bfloat16', requiresGrad: false, seed: inst.seed } as const;
    const long = inst.info.sampleInputs(ctx).findIndex((s) => s.name?.startsWith(LONG_K));
    expect(long).toBeGreaterThan(0);
    const f = await oracleFailure(() => runOracle(inst, long));
    expect(f.message).toMatch(/long k[\s\S]*got 320, PyTorch 256/);
  });

  test('mm of bfloat16 summed in float32 on every layout fails the golden oracle (the loop follows the strides)', async () => {
    await catches(
      matrixInstance('mm', 'golden', 'bfloat16', 'contiguous'),
      () => swapKernel('mm', summedIn('float32')),
      /differ from PyTorch/,
    );
  });
});
