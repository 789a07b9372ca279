/**
 * Databases written by older opgates are migrated in place by the first writer that opens it, and merged from as
 * a source: every result before equals every result after (durations to the microsecond: compact rows keep whole
 * microseconds), the counts per run and status are unchanged, SQLite's integrity check passes, and the derived
 * tables filled by the migration give the same answers as the results. The fixtures:
 * - tests/fixtures/results_v7.db (schema 7, before the derived tables): four runs — passed, failed, interrupted
 *   with its plan, rerun-disabled — every status, perf samples;
 * - tests/fixtures/results_v9.db (schema 9, before compact rows; written by the opgate of that schema from the v7
 *   file): the same plus a failed run with every status, messages, rerun counts, max ulps and durations with
 *   sub-microsecond digits, as a real run records them.
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

const fixture = (v: number) => join(import.meta.dirname, `../fixtures/results_v${v}.db`);

/** Durations as compact rows keep them. */
const micros = (rs: { results: { durationMs: number }[] }[]) =>
  rs.map((r) => ({
    ...r,
    results: r.results.map((x) => ({ ...x, durationMs: Math.round(x.durationMs * 1000) })),
  }));

/** Results per run and status. */
const counts = (rs: { results: { status: string }[] }[]) =>
  rs.map((r) => {
    const c: Record<string, number> = {};
    for (const x of r.results) c[x.status] = (c[x.status] ?? 0) + 1;
    return c;
  });

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

describe.each([
  { version: 7, runs: [60, 60, 30, 60] },
  { version: 9, runs: [60, 60, 30, 60, 40] },
])('a database at schema $version', ({ version, runs }) => {
  test('is migrated in place and merged from without losing or changing a result', () => {
    const dir = mkdtempSync(join(tmpdir(), 'opgate-migration-'));
    const db = join(dir, 'old.db');
    copyFileSync(fixture(version), db);
    const before = snapshot(db);
    expect(before.map((r) => r.results.length)).toEqual(runs);
    expect(new ResultsReader(db).schemaVersion).toBe(version);

    const s = new ResultsStore(db);
    expect(s.schemaVersion).toBe(SCHEMA_VERSION);
    const notHealthy = (o: { fromResults?: boolean }) =>
      flakeStats(s, 30, o).filter((x) => x.verdict !== 'healthy');
    expect(notHealthy({}).length).toBeGreaterThan(0);
    expect(notHealthy({})).toEqual(notHealthy({ fromResults: true }));
    s.close();
    const after = snapshot(db);
    expect(counts(after)).toEqual(counts(before));
    expect(micros(after)).toEqual(micros(before));
    expect(integrityCheck(db)).toBe('ok');

    const merged = join(dir, 'merged.db');
    const source = join(dir, 'source.db');
    copyFileSync(fixture(version), source);
    expect(mergeDatabases([source], merged).resultsAdded).toBe(runs.reduce((a, b) => a + b, 0));
    expect(new ResultsReader(source).schemaVersion, 'a merge source is only read').toBe(version);
    expect(micros(snapshot(merged))).toEqual(micros(before));
  });
});
