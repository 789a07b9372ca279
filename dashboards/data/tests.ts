/**
 * View 6, test search: instance ids with their outcome per commit over recent commits (one letter each). The
 * static site's document holds every id of the window and the client filters it; the live server answers a
 * pattern (`data/tests.json?q=`) with the first SEARCH_LIMIT matching ids and how many match, reading only those
 * ids' rows of the shown commits' runs, so a search costs the same whatever the history's length.
 */
import { instanceIds, instancesStamp, outcomesByCommit, recentCommits } from '../../src/ci/index.ts';
import { matcher, SEARCH_LIMIT } from '../shared.ts';
import type { ReadDb } from './db.ts';
import { KeyedMemo } from './memo.ts';

export interface TestsData {
  /** Oldest first; the columns of every history string. */
  readonly commits: readonly { sha: string; startedAt: string }[];
  /** [id, history]: per commit P pass, F fail, K flaky, S skip, X xfail, U unexpected pass, E error, . not run. */
  readonly tests: readonly (readonly [string, string])[];
  /** How many ids match the pattern (every id the store knows, without one). */
  readonly total: number;
  /** `tests` holds every id of the window (the static document): the client filters it itself. */
  readonly complete: boolean;
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

/** Every known instance id, per state of the instance table (ids are only added). */
const IDS = new KeyedMemo<string[]>(2);

/**
 * `all`: every id with a result in the window (the static document). `q`: the first SEARCH_LIMIT ids matching the
 * pattern (`matcher`'s language; an invalid one throws). Neither: the commits and the number of known ids only.
 */
export function testsData(db: ReadDb, o: { q?: string; all?: boolean; limit?: number } = {}): TestsData {
  const commits = recentCommits(db, o.limit ?? 50).reverse();
  const column = new Map(commits.map((c, i) => [c.sha, i]));
  const shas = commits.map((c) => c.sha);
  const known = o.all ? [] : IDS.get(`${db.path}\0${instancesStamp(db)}`, () => instanceIds(db));
  const matching = o.q ? known.filter(matcher(o.q)) : [];
  const page = matching.slice(0, SEARCH_LIMIT);
  const rows = o.all ? outcomesByCommit(db, shas) : outcomesByCommit(db, shas, page);
  const byId = new Map<string, string[]>(
    page.map((id) => [id, Array.from({ length: commits.length }, () => '.')]),
  );
  for (const [id, sha, status] of rows) {
    let h = byId.get(id);
    if (!h) {
      h = Array.from({ length: commits.length }, () => '.');
      byId.set(id, h);
    }
    h[column.get(sha) ?? 0] = LETTER[status] ?? '?';
  }
  const tests = [...byId].map(([id, h]) => [id, h.join('')] as const).sort((a, b) => (a[0] < b[0] ? -1 : 1));
  return {
    commits: commits.map((c) => ({ sha: c.sha, startedAt: c.startedAt })),
    tests,
    total: o.all ? tests.length : o.q ? matching.length : known.length,
    complete: o.all === true,
  };
}
