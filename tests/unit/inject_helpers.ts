/**
 * Bug injection for the "oracles bite" tests (not a test file itself): swap one overload's kernel for a key
 * through the operator table, and restore every swap after each test.
 */
import { afterEach, expect } from 'vitest';
import type { Layout, Oracle } from '../../op_db/index.ts';
import { expandMatrix, type MatrixInstance } from '../../src/ci/index.ts';
import { OracleFailure } from '../../src/oracles/index.ts';
import { DispatchKey, type Kernel, operatorTable } from '../../src/runtime/index.ts';

const restore: (() => void)[] = [];
afterEach(() => {
  while (restore.length) restore.pop()!();
});

/** Replaces the `key` kernel of `qualified`; `make` gets the real kernel to build on. Undone after the test. */
export function swapKernel(
  qualified: string,
  make: (real: Kernel) => Kernel,
  key: (typeof DispatchKey)[keyof typeof DispatchKey] = DispatchKey.CPU,
): void {
  const entry = operatorTable.get(qualified);
  const real = entry.kernels.get(key)!;
  entry.kernels.set(key, make(real));
  restore.push(() => entry.kernels.set(key, real));
}

/** The one full-tier instance with these axes. */
export function matrixInstance(
  op: string,
  oracle: Oracle,
  dtype: string,
  layout: Layout | string,
): MatrixInstance {
  const [inst] = expandMatrix('full', { op: [op], oracle: [oracle], dtype: [dtype], layout: [layout] });
  expect(inst, `${op} ${oracle} ${dtype} ${layout} instance`).toBeDefined();
  return inst;
}

/** The OracleFailure `run` rejects with; fails the test if it passes or throws anything else. */
export async function oracleFailure(run: () => unknown): Promise<OracleFailure> {
  try {
    await run();
  } catch (e) {
    expect(e).toBeInstanceOf(OracleFailure);
    return e as OracleFailure;
  }
  throw new Error('expected the oracle to fail, but it passed');
}
