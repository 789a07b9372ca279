/**
 * The instances' recent history (store/recent.ts) is derived data and must never drift from what it summarizes.
 * A small history is built through every path that changes it: runs that pass, fail, flake, skip and xfail; a
 * rerun-disabled run (not history); a run interrupted and resumed; a run killed and reaped; a merge that replaces
 * a partial copy; retention dropping old commits; more runs than the table keeps per instance. After each step the
 * maintained table equals a rebuild from the results, and flake statistics and shard durations read from it
 * equal those computed from every stored result (the definition).
 */
import { copyFileSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { testsData } from '../../dashboards/data/tests.ts';
import { matcher } from '../../dashboards/shared.ts';
import { flakeStats } from '../../src/ci/flaky/history.ts';
import { expandMatrix } from '../../src/ci/matrix.ts';
import { loadDurations } from '../../src/ci/shard/history.ts';
import { mergeDatabases, pruneCommits } from '../../src/ci/store/merge.ts';
import { ResultsReader } from '../../src/ci/store/reader.ts';
import { RECENT_OUTCOMES, recentTable } from '../../src/ci/store/recent.ts';
import { type ResultRow, ResultsStore } from '../../src/ci/store/store.ts';
import { coverageCounts } from '../../src/ci/store/views/coverage.ts';
import { disabledSkipsByCommit } from '../../src/ci/store/views/flaky.ts';
import { gridCounts } from '../../src/ci/store/views/grid.ts';
import { deadPid } from './run_helpers.ts';
import { rowOf } from './store_fault_helpers.ts';

const SEL = expandMatrix('pull', { op: ['add', 'mul'], device: ['cpu'], dtype: ['float32', 'int64'] }).slice(
  0,
  12,
);
const dir = mkdtempSync(join(tmpdir(), 'opgate-summaries-'));

/** Run k's row of instance n: a deterministic mix of every status, durations that move. */
function row(k: number, n: number): ResultRow {
  const base = rowOf(SEL[n], 1 + ((k * 7 + n * 3) % 11));
  const pick = (k * 5 + n * 11) % 23;
  if (n === 0) return { ...base, status: 'fail', message: `always broken (${k % 2})`, attempts: 3 };
  if (pick === 1) return { ...base, status: 'fail', message: `failure ${k % 3}`, attempts: 3 };
  if (pick === 2) return { ...base, status: 'flaky', message: 'flaked once', attempts: 2 };
  if (pick === 3) return { ...base, status: 'skip', message: 'skipped', durationMs: 0 };
  if (pick === 6)
    return { ...base, status: 'skip', message: 'disabled by issue #7 (quarantined)', durationMs: 0 };
  if (pick === 4) return { ...base, status: 'xfail', message: 'expected' };
  if (pick === 5) return { ...base, status: 'error', message: null };
  return base;
}

const INFO = (k: number) => ({ commitSha: `c${k}`, branch: 'main', platform: 'p', tier: 'pull' });

function run(
  path: string,
  k: number,
  end: 'passed' | 'failed' | 'interrupted' | null,
  kind = 'normal',
  commit = k,
): number {
  const s = new ResultsStore(path);
  const id = s.startRun(
    { ...INFO(commit), kind },
    SEL.map((i) => i.id),
  );
  s.addResults(
    id,
    SEL.map((_, n) => row(k, n)).slice(0, end === 'interrupted' || end === null ? 5 : undefined),
  );
  if (end) s.endRun(id, end);
  else s.patchRun(id, { pid: deadPid() });
  s.close();
  return id;
}

/** Rows as key -> summed n (the summary's rows come per run and part; the definition's per cell). */
function summed(rows: readonly object[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of rows) {
    const { n, ...key } = r as { n: number };
    const k = JSON.stringify(Object.values(key));
    out[k] = (out[k] ?? 0) + (n as number);
  }
  return out;
}

/**
 * What a reader sees while runs are going: the grid's and coverage's counts from the run cells (and running runs'
 * results), and flake statistics, equal those from every result.
 */
function expectSameCounts(path: string, step: string): void {
  const r = new ResultsReader(path);
  try {
    const shas = r.runs().map((x) => x.commitSha);
    expect(summed(gridCounts(r, shas)), `${step}: grid`).toEqual(
      summed(gridCounts(r, shas, { fromResults: true })),
    );
    const notHealthy = (o: { fromResults?: boolean }) =>
      flakeStats(r, 30, o).filter((x) => x.verdict !== 'healthy');
    expect(notHealthy({}), `${step}: flake stats`).toEqual(notHealthy({ fromResults: true }));
    expect(disabledSkipsByCommit(r), `${step}: disabled skips`).toEqual(
      disabledSkipsByCommit(r, 200, { fromResults: true }),
    );
    for (const sha of new Set(shas))
      expect(summed(coverageCounts(r, sha)), `${step}: coverage of ${sha}`).toEqual(
        summed(coverageCounts(r, sha, { fromResults: true })),
      );
    // Test search: the live answer to a pattern (its ids' rows only) is the whole window's document, filtered.
    const all = testsData(r, { all: true });
    for (const q of ['add_cpu', 'int64', 'test_*_float32_*', '/^test_[a-z]+_add_/']) {
      const page = testsData(r, { q });
      const match = matcher(q);
      expect(page.tests, `${step}: search ${q}`).toEqual(all.tests.filter(([id]) => match(id)));
      expect(page.total).toBe(new Set(SEL.map((i) => i.id).filter(match)).size);
      expect(page.tests.length, `${step}: search ${q} finds something`).toBeGreaterThan(0);
    }
  } finally {
    r.close();
  }
}

/** The maintained table equals a rebuild; flake stats and durations from it equal the definition's. */
function expectSameAnswers(path: string, step: string): void {
  const copy = join(dir, `rebuilt-${step.replace(/\W+/g, '-')}.db`);
  copyFileSync(path, copy);
  const s = new ResultsStore(path);
  const r = new ResultsStore(copy);
  try {
    r.rebuildSummaries();
    expect(recentTable(s), `${step}: maintained = rebuilt`).toEqual(recentTable(r));
    for (const window of [5, RECENT_OUTCOMES - 1, RECENT_OUTCOMES, RECENT_OUTCOMES + 5]) {
      const notHealthy = (o: { fromResults?: boolean }) =>
        flakeStats(s, window, o).filter((x) => x.verdict !== 'healthy');
      expect(notHealthy({}), `${step}: flake stats, window ${window}`).toEqual(
        notHealthy({ fromResults: true }),
      );
      expect(flakeStats(s, window, { healthy: true }), `${step}: --all, window ${window}`).toEqual(
        flakeStats(s, window, { fromResults: true, healthy: true }),
      );
    }
  } finally {
    s.close();
    r.close();
  }
  expect(loadDurations(path), `${step}: durations`).toEqual(loadDurations(path, 5, { fromResults: true }));
  expectSameCounts(path, step);
}

describe('the instances’ recent history', () => {
  test('equals a rebuild and the definition after every kind of change', () => {
    const db = join(dir, 'history.db');
    for (let k = 0; k < 4; k++) run(db, k, k % 2 ? 'failed' : 'passed');
    expectSameAnswers(db, 'complete runs');
    run(db, 4, 'passed', 'rerun-disabled');
    expectSameAnswers(db, 'a rerun-disabled run');
    // A job run again on a commit, with other outcomes: passed and failed on one commit.
    run(db, 40, 'failed', 'normal', 1);
    expectSameAnswers(db, 'a second run on one commit');
    const r = new ResultsReader(db);
    expect(flakeStats(r, 30).some((x) => x.bothOnOneCommit && x.flakyRuns === 0)).toBe(true);
    r.close();
    // Interrupted with 5 of 12 results (folded: outcomes, no durations), then resumed to the end (folded again).
    const interrupted = run(db, 5, 'interrupted');
    expectSameAnswers(db, 'interrupted');
    const s = new ResultsStore(db);
    s.resumeRun(interrupted);
    s.addResults(interrupted, SEL.map((_, n) => row(5, n)).slice(5, 8));
    // While it runs again it counts through its results, not twice.
    expectSameCounts(db, 'resumed, running');
    s.addResults(interrupted, SEL.map((_, n) => row(5, n)).slice(8));
    s.endRun(interrupted, 'failed');
    s.close();
    expectSameAnswers(db, 'resumed to its end');
    // Killed: its writer is dead; the next writer reaps (and folds) it.
    run(db, 6, null);
    expectSameCounts(db, 'killed, not reaped yet');
    new ResultsStore(db).close();
    expectSameAnswers(db, 'killed and reaped');
    // A shard database merged twice: first a partial copy (killed), then the same run complete replaces it.
    const shard = join(dir, 'shard.db');
    const partial = run(shard, 7, null);
    mergeDatabases([shard], db);
    expectSameAnswers(db, 'merged partial copy');
    const t = new ResultsStore(shard);
    t.resumeRun(partial);
    t.addResults(partial, SEL.map((_, n) => row(7, n)).slice(5));
    t.endRun(partial, 'passed');
    t.close();
    expect(mergeDatabases([shard], db).runsReplaced).toBe(1);
    expectSameAnswers(db, 'partial copy replaced');
    // More runs than the table keeps per instance, then retention.
    for (let k = 8; k < RECENT_OUTCOMES + 12; k++) run(db, k, k % 3 ? 'passed' : 'failed');
    expectSameAnswers(db, 'more runs than kept');
    expect(pruneCommits(db, 20).commitsDropped).toBeGreaterThan(0);
    expectSameAnswers(db, 'retention');
  }, 120_000);
});

describe('retention', () => {
  test('gives space back in proportion to what it drops (incremental auto-vacuum), and the file shrinks', () => {
    const db = join(dir, 'retention.db');
    const many = expandMatrix('pull', { device: ['meta'] }).slice(0, 2000);
    const s = new ResultsStore(db);
    expect(s.autoVacuum, 'a new file frees pages incrementally').toBe(2);
    let twoRuns = 0;
    for (let k = 0; k < 8; k++) {
      const run = s.startRun(INFO(100 + k));
      s.addResults(
        run,
        many.map((i) => rowOf(i, k + 1)),
      );
      s.endRun(run, 'passed');
      if (k === 1) {
        s.checkpoint();
        twoRuns = statSync(db).size;
      }
    }
    s.checkpoint();
    s.close();
    const before = statSync(db).size;
    expect(pruneCommits(db, 2).runsDropped).toBe(6);
    const after = statSync(db).size;
    // Back to about the size of a file that only ever held two runs.
    expect(after, `${twoRuns} (2 runs) -> ${before} (8) -> ${after} bytes`).toBeLessThan(twoRuns * 1.2);
    expect(before - after).toBeGreaterThan((before - twoRuns) * 0.8);
    const t = new ResultsStore(db);
    expect(t.autoVacuum).toBe(2);
    expect(t.runs()).toHaveLength(2);
    t.close();
  });
});
