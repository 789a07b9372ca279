/**
 * A database written by opgate before the derived tables (schema 7, tests/fixtures/results_v7.db: four runs —
 * passed, failed, interrupted with its plan, rerun-disabled — every status, perf samples) is migrated in place by
 * the first writer that opens it, and merged from as a source: every result before equals every result after,
 * the counts per run and status are unchanged, SQLite's integrity check passes, and the derived tables filled by
 * the migration give the same answers as the results.
 */
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { flakeStats } from '../../src/ci/flaky/history.ts';
import { integrityCheck } from '../../src/ci/store/fixtures.ts';
import { mergeDatabases } from '../../src/ci/store/merge.ts';
import { SCHEMA_VERSION } from '../../src/ci/store/migrations.ts';
import { ResultsReader } from '../../src/ci/store/reader.ts';
import { ResultsStore } from '../../src/ci/store/store.ts';

const FIXTURE = join(import.meta.dirname, '../fixtures/results_v7.db');

/** Every run with its results, read without migrating. */
function snapshot(path: string) {
  const r = new ResultsReader(path);
  try {
    return r.runs().map((run) => ({
      key: [run.commitSha, run.kind, run.startedAt, run.status],
      results: r.results(run.runId),
    }));
  } finally {
    r.close();
  }
}

describe('a database from before the derived tables', () => {
  test('is migrated in place and merged from without losing or changing a result', () => {
    const dir = mkdtempSync(join(tmpdir(), 'opgate-migration-'));
    const db = join(dir, 'old.db');
    copyFileSync(FIXTURE, db);
    const before = snapshot(db);
    expect(before.map((r) => r.results.length)).toEqual([60, 60, 30, 60]);
    expect(new ResultsReader(db).schemaVersion).toBe(7);

    const s = new ResultsStore(db);
    expect(s.schemaVersion).toBe(SCHEMA_VERSION);
    const notHealthy = (o: { fromResults?: boolean }) =>
      flakeStats(s, 30, o).filter((x) => x.verdict !== 'healthy');
    expect(notHealthy({}).length).toBeGreaterThan(0);
    expect(notHealthy({})).toEqual(notHealthy({ fromResults: true }));
    s.close();
    expect(snapshot(db)).toEqual(before);
    expect(integrityCheck(db)).toBe('ok');

    const merged = join(dir, 'merged.db');
    const source = join(dir, 'source.db');
    copyFileSync(FIXTURE, source);
    expect(mergeDatabases([source], merged).resultsAdded).toBe(210);
    expect(new ResultsReader(source).schemaVersion, 'a merge source is only read').toBe(7);
    expect(snapshot(merged)).toEqual(before);
  });
});
