/**
 * `opgate dashboard build` is incremental: a build into a folder an earlier build wrote keeps the per-commit,
 * cell and mutation-run documents whose stamps (their commits' runs as they stand) did not change, computes the
 * rest, and removes what belonged to commits no longer shown. Whatever it kept, the site equals a full build
 * from scratch.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { buildDashboard } from '../../dashboards/build.ts';
import { STATIC_PER_COMMIT } from '../../dashboards/data/index.ts';
import { seedDemoDb } from '../../dashboards/seed.ts';
import { commitDocPath } from '../../dashboards/shared.ts';
import { ResultsStore } from '../../src/ci/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'opgate-dashbuild-'));

/** Every data document of a site by path, but the two that name their build (meta's time, the stamps). */
function site(out: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else files.set(relative(out, p), readFileSync(p, 'utf8'));
    }
  };
  walk(join(out, 'data'));
  files.delete('data/meta.json');
  files.delete('data/stamps.json');
  return files;
}

/** Runs commit `sha` again with the newest run's results, every 7th one failing instead. */
function addRun(db: string, sha: string): void {
  const s = new ResultsStore(db);
  try {
    const last = s.runs().at(-1)!;
    const run = s.startRun({
      commitSha: sha,
      branch: 'main',
      platform: last.platform,
      shard: last.shard,
      tier: last.tier,
      filters: last.filters,
    });
    s.addResults(
      run,
      s
        .results(last.runId)
        .map((r, k) =>
          k % 7 === 0 && r.status === 'pass' ? { ...r, status: 'fail' as const, message: 'broken now' } : r,
        ),
    );
    s.endRun(run, 'failed');
  } finally {
    s.close();
  }
}

describe('opgate dashboard build', () => {
  test('keeps what did not change, removes what left the window, and equals a full build', async () => {
    const db = join(dir, 'seeded.db');
    const facts = seedDemoDb(db, { commits: STATIC_PER_COMMIT + 2, shards: 2, ops: ['add', 'sum'] });
    const out = join(dir, 'site');
    const first = await buildDashboard({ db, out, repo: null });
    expect(first.kept).toBe(0);
    const again = await buildDashboard({ db, out, repo: null });
    expect(again.kept, 'nothing changed: every stamped document kept').toBeGreaterThan(STATIC_PER_COMMIT * 3);
    expect(again.removed).toBe(0);

    // A new commit, and the newest shown commit run again: the oldest shown commit leaves the window.
    const newest = facts.shas.at(-1)!;
    const oldestShown = facts.shas.at(-STATIC_PER_COMMIT)!;
    addRun(db, 'f'.repeat(40));
    addRun(db, newest);
    const next = await buildDashboard({ db, out, repo: null });
    expect(next.kept).toBeGreaterThan(0);
    expect(next.kept).toBeLessThan(again.kept);
    expect(next.removed).toBeGreaterThanOrEqual(3);
    const incremental = site(out);
    expect(incremental.has(commitDocPath('coverage', oldestShown)), 'left the window').toBe(false);
    expect(incremental.has(commitDocPath('shards', 'f'.repeat(40)))).toBe(true);
    const scratch = join(dir, 'scratch');
    await buildDashboard({ db, out: scratch, repo: null, full: true });
    expect([...incremental.keys()].sort()).toEqual([...site(scratch).keys()].sort());
    for (const [path, text] of site(scratch)) expect(incremental.get(path), path).toBe(text);
  }, 120_000);
});
