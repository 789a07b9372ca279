/**
 * Which commits are newest (recentCommits), and the commit before one that measured max ulps (previousUlpCommit),
 * are read from the newest runs back, not from every run ever made. On a history whose start times tie, run out of
 * order, and interleave commits, reruns and rerun-disabled runs, they must give what the definition gives: every
 * normal run grouped by commit, newest by latest start then latest run id.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import { SQL } from '../../src/ci/store/connection.ts';
import { ResultsReader } from '../../src/ci/store/reader.ts';
import { ResultsStore } from '../../src/ci/store/store.ts';
import { recentCommits } from '../../src/ci/store/views/commits.ts';
import { previousUlpCommit } from '../../src/ci/store/views/numerics.ts';
import { passRow, refId } from './run_helpers.ts';

describe('recentCommits', () => {
  test('equals the definition over every run, for every window length, with ties and out-of-order starts', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'opgate-recent-')), 'r.db');
    new ResultsStore(path).close();
    const w = new Database(path);
    const insert = w.prepare(
      `INSERT INTO runs (commit_sha, branch, platform, tier, started_at, ended_at, status, kind)
       VALUES (?, ?, 'p', 'pull', ?, ?, 'passed', ?)`,
    );
    // 60 runs over 17 commits; start times from a coarse clock (many ties), some commits run again later.
    for (let k = 0; k < 60; k++) {
      const sha = `c${(k * 7) % 17}`;
      const at = `2026-01-01T00:${String(Math.floor(((k * 13) % 60) / 3)).padStart(2, '0')}:00.000Z`;
      insert.run(sha, k % 5 === 0 ? 'feature' : 'main', at, at, k % 11 === 3 ? 'rerun_disabled' : 'normal');
    }
    w.close();
    const r = new ResultsReader(path);
    try {
      const definition = (limit: number) =>
        r[SQL]
          .prepare(
            `SELECT commit_sha AS sha, MAX(branch) AS branch, MIN(started_at) AS startedAt FROM runs
             WHERE kind = 'normal' GROUP BY commit_sha ORDER BY MAX(started_at) DESC, MAX(run_id) DESC LIMIT ?`,
          )
          .all(limit);
      for (let limit = 0; limit <= 20; limit++)
        expect(recentCommits(r, limit), `limit ${limit}`).toEqual(definition(limit));
      // The definition's order is not trivially the run order: ties and late reruns reorder commits.
      expect(definition(17).map((c) => (c as { sha: string }).sha)).not.toEqual([
        ...new Set(
          r[SQL]
            .prepare("SELECT commit_sha FROM runs WHERE kind = 'normal' ORDER BY run_id DESC")
            .pluck()
            .all(),
        ),
      ]);
    } finally {
      r.close();
    }
  });

  test('previousUlpCommit equals the definition for every commit, with answers further back than one window', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'opgate-prevulp-')), 'r.db');
    const store = new ResultsStore(path);
    // 150 commits; max ulps measured at every 37th commit (0, 37, ..., 148) and at 140, so answers lie 1 to 36 commits back, across the
    // 64-commit first window.
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
    try {
      const definition = r[SQL].prepare(
        `WITH c AS (SELECT commit_sha AS sha, MAX(started_at) AS at, MAX(run_id) AS rid FROM runs
                    WHERE kind = 'normal' GROUP BY commit_sha)
         SELECT c.sha FROM c JOIN c AS me ON me.sha = ?
         WHERE (c.at < me.at OR (c.at = me.at AND c.rid < me.rid))
           AND EXISTS (SELECT 1 FROM runs u JOIN results x ON x.run_id = u.run_id
                       WHERE u.commit_sha = c.sha AND x.max_ulp IS NOT NULL)
         ORDER BY c.at DESC, c.rid DESC LIMIT 1`,
      );
      const answers = new Set<string | null>();
      for (let k = 0; k < 150; k++) {
        const want = (definition.pluck().get(`c${k}`) as string | undefined) ?? null;
        expect(previousUlpCommit(r, `c${k}`), `c${k}`).toBe(want);
        answers.add(want);
      }
      expect(previousUlpCommit(r, 'no-such-commit')).toBeNull();
      expect([...answers].sort()).toEqual([null, 'c0', 'c111', 'c140', 'c148', 'c37', 'c74'].sort());
    } finally {
      r.close();
    }
  });
});
