/**
 * Issue 20, gradcheck's tolerances: loosened tenfold (atol or rtol, shared by full and fast mode) they still pass
 * every op's correct backward, so only the matrix's calibration (grad_calibration.ts: a derivative 1e-2 off must
 * fail, 1e-4 off must pass) sees the drift. Each mutant here must fail a real matrix instance.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { GRADCHECK_TOLERANCES } from '../../src/oracles/gradcheck.ts';
import { runOracle } from '../../src/oracles/index.ts';
import { matrixInstance, oracleFailure } from './inject_helpers.ts';

const nominal = { ...GRADCHECK_TOLERANCES };
afterEach(() => Object.assign(GRADCHECK_TOLERANCES, nominal));

describe('gradcheck tolerance drift fails the matrix', () => {
  test.each([
    ['atol x10', { atol: nominal.atol * 10 }],
    ['rtol x10', { rtol: nominal.rtol * 10 }],
  ])('%s', async (_, drift) => {
    Object.assign(GRADCHECK_TOLERANCES, drift);
    for (const oracle of ['gradcheck', 'gradgradcheck'] as const) {
      const f = await oracleFailure(() => runOracle(matrixInstance('neg', oracle, 'float64', 'contiguous')));
      expect(f.message).toMatch(/gradcheck calibration: full mode accepted a derivative off by 0\.01/);
    }
  });

  test('tightened a hundredfold, a derivative 1e-4 off no longer passes', async () => {
    Object.assign(GRADCHECK_TOLERANCES, { atol: nominal.atol / 100, rtol: nominal.rtol / 100 });
    const f = await oracleFailure(() =>
      runOracle(matrixInstance('neg', 'gradcheck', 'float64', 'contiguous')),
    );
    expect(f.message).toMatch(/full mode rejected a derivative off by 0\.0001/);
  });
});
