/**
 * View 6, test search: every instance id with its outcome per commit over recent commits (one letter each),
 * so the client can filter by an id pattern and show a test's history without another request — the same
 * file serves the live server and the static site.
 */
import { outcomesByCommit, recentCommits } from '../../src/ci/index.ts';
import type { ReadDb } from './db.ts';

export interface TestsData {
  /** Oldest first; the columns of every history string. */
  readonly commits: readonly { sha: string; startedAt: string }[];
  /** [id, history]: per commit P pass, F fail, K flaky, S skip, X xfail, U unexpected pass, E error, . not run. */
  readonly tests: readonly (readonly [string, string])[];
}

const LETTER: Record<string, string> = {
  pass: 'P',
  fail: 'F',
  flaky: 'K',
  skip: 'S',
  xfail: 'X',
  xpass: 'U',
  error: 'E',
};

export function testsData(db: ReadDb, limit = 50): TestsData {
  const commits = recentCommits(db, limit).reverse();
  const column = new Map(commits.map((c, i) => [c.sha, i]));
  const rows = outcomesByCommit(
    db,
    commits.map((c) => c.sha),
  );
  const byId = new Map<string, string[]>();
  for (const [id, sha, status] of rows) {
    let h = byId.get(id);
    if (!h) {
      h = Array.from({ length: commits.length }, () => '.');
      byId.set(id, h);
    }
    h[column.get(sha) ?? 0] = LETTER[status] ?? '?';
  }
  return {
    commits: commits.map((c) => ({ sha: c.sha, startedAt: c.startedAt })),
    tests: [...byId].map(([id, h]) => [id, h.join('')] as const).sort((a, b) => (a[0] < b[0] ? -1 : 1)),
  };
}
