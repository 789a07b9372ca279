/**
 * The eager-vs-compile oracle must catch a wrong fusion pass: a custom pass that reorders the operands of a
 * non-commutative op, or generated code that drops an input's broadcast (reads it as if it had the output's
 * shape), makes the oracle fail on the same instance that passes with the real pass.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { Oracle } from '../../op_db/index.ts';
import { expandMatrix } from '../../src/ci/index.ts';
import { runOracle } from '../../src/oracles/index.ts';
import { type FusedGroup, fusionHooks } from '../../src/runtime/index.ts';
import { oracleFailure } from './inject_helpers.ts';

afterEach(() => {
  fusionHooks.groupPass = null;
  fusionHooks.sourcePass = null;
});

const instance = (op: string) => {
  const [inst] = expandMatrix('pull', {
    op: [op],
    oracle: ['compile' as Oracle],
    device: ['cpu'],
    layout: ['contiguous'],
  });
  expect(inst?.id).toBe(`test_compile_${op}_cpu_float32_contiguous_compile`);
  return inst;
};

/** Swaps the first two operands of every `sub` step: a pass that treats sub as commutative. */
const reorderSub = (g: FusedGroup): FusedGroup => ({
  ...g,
  steps: g.steps.map((s) =>
    s.node.op.startsWith('sub')
      ? { ...s, operands: [s.operands[1], s.operands[0], ...s.operands.slice(2)] }
      : s,
  ),
});

describe('injected fusion bugs are caught by the eager-vs-compile oracle', () => {
  test('a pass that reorders a non-commutative op (sub) fails the compiled chain', async () => {
    const inst = instance('sub');
    expect((await runOracle(inst)).checks).toBeGreaterThan(0);
    fusionHooks.groupPass = reorderSub;
    const f = await oracleFailure(() => runOracle(inst));
    expect(f.message).toMatch(
      /compile\(fused\) chain op -> add -> mul -> sum output 0 \(float32\): 1\/1 elements differ from eager/,
    );
    expect(f.message).toMatch(
      /repro: npx opgate repro test_compile_sub_cpu_float32_contiguous_compile --sample \d+/,
    );
  });

  test('generated code that drops a broadcast (stride 0 read as dense) fails', async () => {
    const inst = instance('add');
    expect((await runOracle(inst)).checks).toBeGreaterThan(0);
    // Every input stride becomes the output's innermost stride: a broadcast input is read as if it were dense.
    fusionHooks.sourcePass = (src) => src.replace(/const s(\d+) = st\[(\d+)\];/g, 'const s$1 = st[0];');
    const f = await oracleFailure(() => runOracle(inst));
    expect(f.message).toMatch(/broadcast/);
    expect(f.message).toMatch(/elements differ from eager/);
  });
});
