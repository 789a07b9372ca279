/**
 * View 3, flaky & disabled: flaky instances ranked by flip rate (the EWMA of outcome changes that `opgate flaky`
 * uses) with their recent outcomes, the open DISABLED issues (the quarantine list mirrored in the store), and
 * how many instances were skipped as disabled in each run over time.
 */
import {
  disabledSkipsByCommit,
  disabledTests,
  flakeStats,
  recentCommits,
  recentRows,
} from '../../src/ci/index.ts';
import type { ReadDb } from './db.ts';
import { CommitMemo } from './memo.ts';

export interface FlakyRow {
  readonly id: string;
  readonly flipScore: number;
  readonly runs: number;
  readonly passes: number;
  readonly fails: number;
  readonly flakyRuns: number;
  readonly lastSeen: string | null;
  readonly lastFailure: string | null;
  /** Oldest first: P pass, F fail, K flaky (failed, then passed on a retry). */
  readonly history: string;
}

export interface DisabledRow {
  readonly key: string;
  readonly title: string;
  readonly issueNumber: number;
  readonly issueUrl: string;
  readonly platforms: readonly string[];
  readonly updatedAt: string;
}

export interface FlakyData {
  readonly flaky: readonly FlakyRow[];
  readonly disabled: readonly DisabledRow[];
  /** Per commit, oldest first: instances skipped as disabled. */
  readonly disabledOverTime: readonly { sha: string; at: string; count: number }[];
}

const LETTER: Record<string, string> = {
  pass: 'P',
  xfail: 'P',
  flaky: 'K',
  fail: 'F',
  error: 'F',
  xpass: 'F',
};

export function flakyData(db: ReadDb, limit = 200): FlakyData {
  // From the instances' recent history: only those whose kept outcomes hold a failure can be flaky.
  const flaky = flakeStats(db, 30)
    .filter((s) => s.verdict === 'flaky')
    .slice(0, limit);
  const history = new Map(
    recentRows(db, { ids: flaky.map((f) => f.id) }).map((r) => [
      r.id,
      r.outcomes.map((x) => LETTER[x.status] ?? '?').join(''),
    ]),
  );
  const disabled = disabledTests(db).map((d) => ({
    key: d.key,
    title: `DISABLED ${d.key}`,
    issueNumber: d.issueNumber,
    issueUrl: d.issueUrl,
    platforms: d.platforms,
    updatedAt: d.updatedAt,
  }));
  const disabledOverTime = skipsOverTime(db);
  return {
    flaky: flaky.map((s) => ({
      id: s.id,
      flipScore: s.flipScore,
      runs: s.runs,
      passes: s.passes,
      fails: s.fails,
      flakyRuns: s.flakyRuns,
      lastSeen: s.lastSeen,
      lastFailure:
        s.lastFailure && s.lastFailure.length > 2000 ? `${s.lastFailure.slice(0, 2000)}…` : s.lastFailure,
      history: (history.get(s.id) ?? '').slice(-30),
    })),
    disabled,
    disabledOverTime: disabledOverTime.slice(-200),
  };
}

type Skips = ReturnType<typeof disabledSkipsByCommit>[number];

/** Each commit's disabled skips, remembered per commit stamp (memo.ts): a warm request reads the changed ones. */
const SKIPS = new CommitMemo<Skips | null>(400);

/** disabledSkipsByCommit over the newest 200 commits, oldest first, without the firstRun it orders by. */
function skipsOverTime(db: ReadDb): { sha: string; at: string; count: number }[] {
  const shas = recentCommits(db, 200).map((c) => c.sha);
  const per = SKIPS.of(db, shas, (missing) => {
    const rows = new Map(disabledSkipsByCommit(db, 200, { shas: missing }).map((r) => [r.sha, r]));
    return new Map(missing.map((s) => [s, rows.get(s) ?? null]));
  });
  return [...per.values()]
    .filter((r): r is Skips => r !== null)
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.firstRun - b.firstRun))
    .map(({ sha, at, count }) => ({ sha, at, count }));
}
