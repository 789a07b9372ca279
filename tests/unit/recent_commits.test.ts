/**
 * Which commits are newest (recentCommits), and the commit before one that measured max ulps (previousUlpCommit),
 * are read from the newest runs back, not from every run ever made. On a history whose start times tie, run out of
 * order, and interleave commits, reruns and rerun-disabled runs, they must give what the definition gives: every
 * normal run grouped by commit, newest by latest start then latest run id (src/ci/store/fixtures.ts).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { commitOrderDefinitions, type FixtureRun, insertRuns } from '../../src/ci/store/fixtures.ts';
import { ResultsReader } from '../../src/ci/store/reader.ts';
import { ResultsStore } from '../../src/ci/store/store.ts';
import { recentCommits } from '../../src/ci/store/views/commits.ts';
import { previousUlpCommit } from '../../src/ci/store/views/numerics.ts';
import { passRow, refId } from './run_helpers.ts';

describe('recentCommits', () => {
  test('equals the definition over every run, for every window length, with ties and out-of-order starts', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'opgate-recent-')), 'r.db');
    new ResultsStore(path).close();
    // 60 runs over 17 commits; start times from a coarse clock (many ties), some commits run again later.
    const runs: FixtureRun[] = Array.from({ length: 60 }, (_, k) => ({
      commitSha: `c${(k * 7) % 17}`,
      branch: k % 5 === 0 ? 'feature' : 'main',
      startedAt: `2026-01-01T00:${String(Math.floor(((k * 13) % 60) / 3)).padStart(2, '0')}:00.000Z`,
      kind: k % 11 === 3 ? 'rerun-disabled' : 'normal',
    }));
    insertRuns(path, runs);
    const r = new ResultsReader(path);
    const def = commitOrderDefinitions(path);
    try {
      for (let limit = 0; limit <= 20; limit++)
        expect(recentCommits(r, limit), `limit ${limit}`).toEqual(def.newest(limit));
      // The definition's order is not trivially the run order: ties and late reruns reorder commits.
      expect(def.newest(17).map((c) => c.sha)).not.toEqual(def.newestRunFirst());
    } finally {
      def.close();
      r.close();
    }
  });

  test('previousUlpCommit equals the definition for every commit, with answers further back than one window', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'opgate-prevulp-')), 'r.db');
    const store = new ResultsStore(path);
    // 150 commits; max ulps measured at every 37th commit (0, 37, ..., 148) and at 140, so answers lie 1 to 36
    // commits back, across the 64-commit first window.
    for (let k = 0; k < 150; k++) {
      const id = store.startRun({
        commitSha: `c${k}`,
        branch: 'main',
        platform: 'p',
        shard: '1/1',
        tier: 'pull',
      });
      const measured = k % 37 === 0 || k === 140;
      store.addResults(id, [{ ...passRow(refId('add')), maxUlp: measured ? k : null }]);
      store.endRun(id, 'passed');
    }
    store.close();
    const r = new ResultsReader(path);
    const def = commitOrderDefinitions(path);
    try {
      const answers = new Set<string | null>();
      for (let k = 0; k < 150; k++) {
        const want = def.previousUlp(`c${k}`);
        expect(previousUlpCommit(r, `c${k}`), `c${k}`).toBe(want);
        answers.add(want);
      }
      expect(previousUlpCommit(r, 'no-such-commit')).toBeNull();
      expect([...answers].sort()).toEqual([null, 'c0', 'c111', 'c140', 'c148', 'c37', 'c74'].sort());
    } finally {
      def.close();
      r.close();
    }
  });
});
