/** The SQLite results store: migrations, WAL, runs and results round-trip, reopening keeps everything. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { writeSqliteFile } from '../../src/ci/store/fixtures.ts';
import { SCHEMA_VERSION } from '../../src/ci/store/migrations.ts';
import { type ResultRow, ResultsStore } from '../../src/ci/store/store.ts';

const row = (id: string, status: ResultRow['status'], checks = 3): ResultRow => ({
  id,
  op: 'add',
  oracle: 'reference',
  device: 'cpu',
  dtype: 'float32',
  layout: 'contiguous',
  mode: 'eager',
  status,
  durationMs: 1.5,
  attempts: 1,
  message: status === 'fail' ? 'boom' : null,
  sample: status === 'fail' ? 2 : null,
  seed: 42,
  checks,
});

describe('ResultsStore', () => {
  test('a real SQLite file in WAL mode, migrated to the current schema version', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'opgate-')), 'r.db');
    const store = new ResultsStore(path);
    expect(store.schemaVersion).toBe(SCHEMA_VERSION);
    expect(store.journalMode).toBe('wal');
    store.close();
  });

  test('runs and results round-trip and survive reopening (rows are committed as they are added)', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'opgate-')), 'r.db');
    const a = new ResultsStore(path);
    const run = a.startRun({ commitSha: 'abc', branch: 'main', platform: 'linux', tier: 'pull' });
    a.addResults(run, [row('test_a', 'pass'), row('test_b', 'fail')]);
    // No endRun and no close: a process that dies here keeps what it added.
    const b = new ResultsStore(path);
    expect(b.lastRunId()).toBe(run);
    const rows = b.results(run);
    expect(rows.map((r) => [r.id, r.status, r.sample, r.checks])).toEqual([
      ['test_a', 'pass', null, 3],
      ['test_b', 'fail', 2, 3],
    ]);
    b.endRun(run, 'failed');
    const ended = b.run(run)!;
    expect(ended.status).toBe('failed');
    expect(ended.endedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    a.close();
    b.close();
  });

  test('invalid statuses are rejected by the schema', () => {
    const store = new ResultsStore(':memory:');
    const run = store.startRun({ commitSha: 'abc', branch: 'main', platform: 'linux', tier: 'pull' });
    expect(() =>
      store.addResults(run, [{ ...row('x', 'pass'), status: 'weird' as ResultRow['status'] }]),
    ).toThrow(/CHECK constraint/);
    store.close();
  });

  test('a database from a newer opgate is refused', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'opgate-')), 'r.db');
    writeSqliteFile(path, { version: SCHEMA_VERSION + 1 });
    expect(() => new ResultsStore(path)).toThrow(/newer than this opgate/);
  });
});
