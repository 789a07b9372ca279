/**
 * The live server remembers what a finished commit's runs determine (dashboards/data/memo.ts, per commit stamp).
 * A remembered document must equal one computed afresh after every kind of change to a commit's runs: a run
 * starting, ending, re-run, resumed, killed, and a later commit arriving.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { coverageData } from '../../dashboards/data/coverage.ts';
import { openReadOnly } from '../../dashboards/data/db.ts';
import { flakyData } from '../../dashboards/data/flaky.ts';
import { gridData } from '../../dashboards/data/grid.ts';
import { CommitMemo } from '../../dashboards/data/memo.ts';
import { numericsData } from '../../dashboards/data/numerics.ts';
import { perfData } from '../../dashboards/data/perf.ts';
import { shardsData } from '../../dashboards/data/shards.ts';
import { testsData } from '../../dashboards/data/tests.ts';
import { recordPerf } from '../../src/ci/perf/index.ts';
import { deletePerf } from '../../src/ci/store/fixtures.ts';
import type { ResultRow } from '../../src/ci/store/runs.ts';
import { ResultsStore } from '../../src/ci/store/store.ts';
import { deadPid, passRow, refId } from './run_helpers.ts';

const OPS = ['add', 'mul', 'sub', 'neg'];
const row = (op: string, status: ResultRow['status'], ulp: number): ResultRow => ({
  ...passRow(refId(op)),
  oracle: 'golden',
  id: refId(op).replace('test_reference_', 'test_golden_'),
  status,
  message: status === 'pass' ? null : `AssertionError: ${op} differs`,
  maxUlp: ulp,
});

describe('dashboards: per-commit memo', () => {
  test('a remembered grid, coverage trend, numerics, flaky, perf, search and shards document equals one computed afresh after every change', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'opgate-memo-')), 'r.db');
    const store = new ResultsStore(path);
    const db = openReadOnly(path);
    const docs = () => ({
      grid: gridData(db),
      coverage: coverageData(db, undefined, 20),
      numerics: numericsData(db),
      flaky: flakyData(db),
      perf: perfData(db),
      search: testsData(db, { q: 'golden' }),
      shards: shardsData(db),
      shardsC1: shardsData(db, 'c1'),
    });
    const same = (step: string) => {
      const remembered = docs();
      CommitMemo.forgetAll();
      expect(remembered, step).toEqual(docs());
    };
    const start = (sha: string) =>
      store.startRun({ commitSha: sha, branch: 'main', platform: 'linux', shard: '1/1', tier: 'pull' });
    try {
      const c1 = start('c1');
      store.addResults(
        c1,
        OPS.map((op, k) => row(op, k === 0 ? 'fail' : 'pass', k)),
      );
      same('c1 running');
      store.endRun(c1, 'failed');
      same('c1 failed');
      docs(); // remembered as failed
      // A re-run of the same job replaces the failed one.
      const again = start('c1');
      store.addResults(
        again,
        OPS.map((op, k) => row(op, 'pass', k + 1)),
      );
      store.endRun(again, 'passed');
      same('c1 re-run passed');
      // A later commit: running, then killed (its process gone), then resumed and ended.
      const c2 = start('c2');
      store.addResults(
        c2,
        OPS.slice(0, 2).map((op) => row(op, 'flaky', 7)),
      );
      same('c2 running');
      store.patchRun(c2, { pid: deadPid() });
      same('c2 killed');
      docs();
      store.resumeRun(c2);
      store.addResults(
        c2,
        OPS.slice(2).map((op) => row(op, 'pass', 0)),
      );
      store.endRun(c2, 'passed');
      same('c2 resumed and ended');
      expect(gridData(db).cells['c2 1/1 cpu']).toMatchObject({ flaky: 2, pass: 2 });
      // A commit whose run has an instance never seen before: search knows the new id.
      docs();
      const c3 = start('c3');
      store.addResults(c3, [row('abs', 'pass', 0)]);
      store.endRun(c3, 'passed');
      same('c3 with a new instance');
      expect(testsData(db, { q: 'golden_abs' }).total).toBe(1);
      // A perf sample recorded for a commit changes the perf view's table state.
      docs();
      recordPerf(store, [
        {
          scenario: 'add',
          metric: 'instructions',
          value: 100,
          commitSha: 'c2',
          platform: 'p',
          nodeVersion: '20',
        },
      ]);
      same('perf sample recorded');
      expect(perfData(db).series).toHaveLength(1);
      docs();
      recordPerf(store, [
        {
          scenario: 'add',
          metric: 'instructions',
          value: 120,
          commitSha: 'c1',
          platform: 'p',
          nodeVersion: '20',
        },
      ]);
      same("a second commit's perf sample");
      expect(perfData(db).series[0].points.map((p) => p.sha)).toEqual(['c2', 'c1']);
      // Retention takes a commit's samples out of the window's middle (not its newest row): the view follows.
      expect(deletePerf(path, 'c2')).toBe(1);
      expect(perfData(db).series[0].points.map((p) => p.sha)).toEqual(['c1']);
      same("a commit's perf samples dropped");
    } finally {
      db.close();
      store.close();
    }
  });
});
