/**
 * Earned tolerances (src/oracles/earned.ts): a tolerance an OpInfo loosens must be needed by its samples. Made ten
 * times looser (the mutation catalogue's scale-tolerance), an override fails the reference oracle and a golden
 * tolerance the golden oracle, while the calibrated ones pass; and the defaults are PyTorch's recorded table.
 */
import { describe, expect, test } from 'vitest';
import { type OpInfo, PYTORCH_TOLERANCES, refTensor } from '../../op_db/index.ts';
import { EARNED_SHARE, ToleranceUse, unearnedTolerance } from '../../src/oracles/earned.ts';
import { DEFAULT_TOLERANCES, runOracle } from '../../src/oracles/index.ts';
import { DTYPES } from '../../src/runtime/index.ts';
import { matrixInstance, oracleFailure } from './inject_helpers.ts';

const ref = (values: number[]) => refTensor([values.length], 'float64', values);

describe('ToleranceUse', () => {
  test('measures each part beyond the other: atol where the expected value is 0, rtol where it is large', () => {
    const use = new ToleranceUse();
    const tol = { rtol: 1e-2, atol: 1e-3 };
    // |0.0005 - 0| = 0.0005: half the atol; |101 - 100| = 1 beyond atol 0.001: 0.999 of rtol·100.
    use.add(ref([0.0005, 101]), ref([0, 100]), 'float64', tol);
    expect(use.atol).toBeCloseTo(0.5, 6);
    expect(use.rtol).toBeCloseTo(0.999, 6);
    expect(use.elements).toBe(2);
  });

  test('only loosened parts must be earned, and the message says what to do', () => {
    const base = { rtol: 1e-7, atol: 1e-7 };
    const judge = (rtol: number) => {
      const use = new ToleranceUse();
      use.add(ref([1.0002]), ref([1]), 'float64', { rtol, atol: 1e-7 });
      return unearnedTolerance('override', 'float64', { rtol, atol: 1e-7 }, base, use);
    };
    // rtol 1e-3 is used to 2e-4/1e-3 = 20%: earned; atol equals the default: not judged.
    expect(judge(1e-3)).toBeNull();
    const why = judge(1e-2);
    expect(why).toMatch(/unearned tolerance: the override for float64/);
    expect(why).toMatch(
      /rtol 0\.01 is used to 2% at most \(largest need 0\.0002\): tighten it to a value between 0\.0002 and 0\.002/,
    );
    expect(EARNED_SHARE).toBe(0.1);
  });

  test('integer outputs and non-finite elements measure nothing', () => {
    const use = new ToleranceUse();
    use.add(ref([3]), ref([3]), 'int32', { rtol: 0, atol: 0 });
    use.add(ref([Number.POSITIVE_INFINITY]), ref([Number.POSITIVE_INFINITY]), 'float32', {
      rtol: 1,
      atol: 1,
    });
    expect(use.elements).toBe(0);
    expect(unearnedTolerance('x', 'float32', { rtol: 1, atol: 1 }, { rtol: 0, atol: 0 }, use)).toBeNull();
  });
});

const scaled = (
  info: OpInfo,
  field: 'tolerances' | 'goldenTolerances',
  dtype: string,
  part: 'rtol' | 'atol',
) => {
  const table = info[field] as Record<string, { rtol: number; atol: number }>;
  return { ...info, [field]: { ...table, [dtype]: { ...table[dtype], [part]: table[dtype][part] * 10 } } };
};

describe('a tolerance ten times looser than its samples need fails the matrix', () => {
  test('an OpInfo override (mse_loss float16 rtol): the reference oracle', async () => {
    const inst = matrixInstance('nn.functional.mse_loss', 'reference', 'float16', 'transposed');
    expect(inst.device).toBe('cpu');
    expect((await runOracle(inst)).checks).toBeGreaterThan(0);
    const loose = { ...inst, info: scaled(inst.info, 'tolerances', 'float16', 'rtol') };
    const f = await oracleFailure(() => runOracle(loose));
    expect(f.message).toMatch(
      /unearned tolerance: the OpInfo's tolerance override for float16 .* rtol 0\.05 is used to/,
    );
  });

  test('an override serving another input dtype (triplet_margin_with_distance_loss: uint8 in, float32 out)', async () => {
    const inst = matrixInstance(
      'nn.functional.triplet_margin_with_distance_loss',
      'reference',
      'float32',
      'contiguous',
    );
    expect((await runOracle(inst)).checks).toBeGreaterThan(0);
    const f = await oracleFailure(() =>
      runOracle({ ...inst, info: scaled(inst.info, 'tolerances', 'float32', 'atol') }),
    );
    expect(f.message).toMatch(/override for float32 .* atol 0\.0006/);
  });

  test('judged without the instances a skip rule takes out (native_layer_norm bfloat16: its expanded rows)', async () => {
    // The skipped expanded layout normalizes constant rows, errors of 3; counted, they made atol 5 look earned.
    const inst = matrixInstance('native_layer_norm', 'reference', 'bfloat16', 'contiguous');
    expect(inst.info.skips.some((r) => r.oracle === 'reference' && r.layout === 'expanded')).toBe(true);
    expect((await runOracle(inst)).checks).toBeGreaterThan(0);
    const f = await oracleFailure(() =>
      runOracle({ ...inst, info: scaled(inst.info, 'tolerances', 'bfloat16', 'atol') }),
    );
    expect(f.message).toMatch(/override for bfloat16 .* atol 5 is used to/);
  });

  test("a golden tolerance (mean float16 rtol, PyTorch's staged passes): the golden oracle", async () => {
    const inst = matrixInstance('mean', 'golden', 'float16', 'contiguous');
    expect(inst.device).toBe('cpu');
    expect((await runOracle(inst)).checks).toBeGreaterThan(0);
    const f = await oracleFailure(() =>
      runOracle({ ...inst, info: scaled(inst.info, 'goldenTolerances', 'float16', 'rtol') }),
    );
    expect(f.message).toMatch(
      /unearned tolerance: the golden tolerance \(goldenTolerances\) for float16 .* rtol 0\.03/,
    );
  });
});

test("the default tolerances are PyTorch's recorded table, one entry per runtime dtype", () => {
  expect(DEFAULT_TOLERANCES).toBe(PYTORCH_TOLERANCES);
  for (const dtype of DTYPES) {
    const t = PYTORCH_TOLERANCES[dtype];
    expect(t, dtype).toBeDefined();
    expect(t.rtol >= 0 && t.atol >= 0, dtype).toBe(true);
  }
});
