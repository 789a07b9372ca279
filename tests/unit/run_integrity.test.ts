/**
 * A run that lost instances must not pass: a template file that fails to load reports nothing for its
 * instances, and each planned instance without a result is stored as an `error` (the run fails, exit 1).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { expandMatrix } from '../../src/ci/matrix.ts';
import { ResultsStore } from '../../src/ci/store/store.ts';
import { bin } from './run_helpers.ts';

test('a template file that fails to load: its planned instances are errors and the run fails', () => {
  const db = join(mkdtempSync(join(tmpdir(), 'opgate-integrity-')), 'r.db');
  const filters = { op: ['neg'], oracle: ['reference', 'metadata'], dtype: ['float32'] };
  const r = spawnSync(
    'node',
    [bin, 'run', '--op', 'neg', '--oracle', 'reference,metadata', '--dtype', 'float32', '--db', db, '--json'],
    { encoding: 'utf8', timeout: 120_000, env: { ...process.env, OPGATE_COLLECT_FAULT: 'metadata' } },
  );
  expect(r.status, r.stderr).toBe(1);
  const summary = JSON.parse(r.stdout);
  const planned = expandMatrix('pull', filters);
  const lost = planned.filter((i) => i.oracle === 'metadata');
  expect(lost.length).toBeGreaterThan(0);
  expect(summary.errors).toBe(lost.length);
  const store = new ResultsStore(db);
  try {
    const rows = store.results(summary.runId);
    expect(rows.map((x) => x.id).sort()).toEqual(planned.map((i) => i.id).sort());
    for (const row of rows.filter((x) => x.oracle === 'metadata')) {
      expect(row.status).toBe('error');
      expect(row.message).toMatch(/^no result: the instance was planned but never reported/);
    }
    expect(rows.filter((x) => x.oracle === 'reference').every((x) => x.status === 'pass')).toBe(true);
    expect(store.run(summary.runId)?.status).toBe('failed');
  } finally {
    store.close();
  }
}, 120_000);
