/**
 * Issue 20, the compile cache's stride guard: with it dropped, a call with the same shapes in another layout
 * reuses the entry traced for the first one. The compile oracle's third call (another layout of the sample)
 * must recompile, so the matrix sees the dropped guard.
 */
import { expect, test, vi } from 'vitest';
import { runOracle } from '../../src/oracles/index.ts';
import { matrixInstance, oracleFailure } from './inject_helpers.ts';

const guard = vi.hoisted(() => ({ strides: true }));

vi.mock('../../src/runtime/compile/guards.ts', async (load) => {
  const real = await load<typeof import('../../src/runtime/compile/guards.ts')>();
  return {
    ...real,
    checkTensor: (g: Parameters<typeof real.checkTensor>[0], t: Parameters<typeof real.checkTensor>[1]) =>
      real.checkTensor(guard.strides ? g : { ...g, strides: real.stridePattern(t) }, t),
  };
});

test.each([
  ['add', 'contiguous', 'transposed'],
  ['mm', 'transposed', 'contiguous'],
])('%s (%s): without the stride guard the compile oracle fails', async (op, layout, other) => {
  const inst = matrixInstance(op, 'compile', 'float32', layout);
  expect(inst.device).toBe('cpu');
  await expect(runOracle(inst, 0)).resolves.toBeDefined();
  guard.strides = false;
  try {
    const f = await oracleFailure(() => runOracle(inst, 0));
    expect(f.message).toContain(
      `compile(fused) on the ${other} layout: inputs of the same shapes in another stride pattern reused the ${layout} layout's entry`,
    );
  } finally {
    guard.strides = true;
  }
});
