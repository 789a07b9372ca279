/**
 * View 3, flaky & disabled: flaky instances ranked by flip rate (the EWMA of outcome changes that `opgate flaky`
 * uses) with their recent outcomes, the open DISABLED issues (the quarantine list mirrored in the store), and
 * how many instances were skipped as disabled in each run over time.
 */
import { flakeStats } from '../../src/ci/index.ts';
import { LATEST_RUNS, marks, type ReadDb } from './db.ts';

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
  // Flaky needs a failure (a flaky result, or a failure next to a pass): only ids that ever failed qualify.
  const candidates = db
    .prepare(
      `SELECT DISTINCT r.id FROM results r JOIN runs u ON u.run_id = r.run_id
       WHERE u.kind = 'normal' AND r.status IN ('flaky','fail','error','xpass')`,
    )
    .pluck()
    .all() as string[];
  const flaky = flakeStats({ db }, 30, candidates)
    .filter((s) => s.verdict === 'flaky')
    .slice(0, limit);
  const history = new Map<string, string>();
  if (flaky.length) {
    const rows = db
      .prepare(
        `SELECT r.id, r.status FROM results r JOIN runs u ON u.run_id = r.run_id
         WHERE u.kind = 'normal' AND r.status != 'skip' AND r.id IN (${marks(flaky.length)}) ORDER BY r.run_id`,
      )
      .all(...flaky.map((f) => f.id)) as { id: string; status: string }[];
    for (const r of rows) history.set(r.id, (history.get(r.id) ?? '') + (LETTER[r.status] ?? '?'));
  }
  const disabled = (
    db
      .prepare('SELECT key, issue_number, issue_url, platforms, updated_at FROM disabled_tests ORDER BY key')
      .all() as {
      key: string;
      issue_number: number;
      issue_url: string;
      platforms: string;
      updated_at: string;
    }[]
  ).map((d) => ({
    key: d.key,
    title: `DISABLED ${d.key}`,
    issueNumber: d.issue_number,
    issueUrl: d.issue_url,
    platforms: JSON.parse(d.platforms) as string[],
    updatedAt: d.updated_at,
  }));
  const disabledOverTime = db
    .prepare(
      `SELECT u.commit_sha AS sha, MIN(u.started_at) AS at,
         COUNT(DISTINCT CASE WHEN r.status = 'skip' AND r.message LIKE 'disabled by issue%' THEN r.id END) AS count
       FROM runs u LEFT JOIN results r ON r.run_id = u.run_id
       WHERE u.run_id IN (${LATEST_RUNS}) GROUP BY u.commit_sha ORDER BY MIN(u.started_at), MIN(u.run_id)`,
    )
    .all() as { sha: string; at: string; count: number }[];
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
