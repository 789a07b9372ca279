/**
 * Flake history and the quarantine list: the outcomes of normal runs per instance, the reruns of
 * rerun-disabled runs, and `disabled_tests`, the mirror of the open DISABLED issues.
 */
import { marks, type ResultsSource, SQL } from './connection.ts';
import type { ResultsStore } from './store.ts';

/** One outcome of an instance in a normal run. */
export interface OutcomeRow {
  readonly id: string;
  readonly op: string;
  readonly oracle: string;
  readonly device: string;
  readonly status: string;
  readonly message: string | null;
  readonly commitSha: string;
  readonly startedAt: string;
}

/**
 * The outcomes (not skips) of finished normal runs (a run in progress is not history yet), by id then oldest
 * first; `only`: just these ids. Every stored result: the definition the instances' recent history
 * (recent.ts) is checked against, and what a window longer than that history reads.
 */
export function outcomeRows(src: ResultsSource, only?: readonly string[]): OutcomeRow[] {
  return src[SQL]
    .prepare(
      `SELECT r.id, r.op, r.oracle, r.device, r.status, r.message, u.commit_sha AS commitSha, u.started_at AS startedAt
     FROM results r JOIN runs u ON u.run_id = r.run_id
     WHERE u.kind = 'normal' AND u.status != 'running' AND r.status IN ('pass','fail','flaky','xfail','xpass','error')
       ${only ? 'AND r.id IN (SELECT value FROM json_each(?))' : ''}
     ORDER BY r.id, r.run_id`,
    )
    .all(...(only ? [JSON.stringify(only)] : [])) as OutcomeRow[];
}

/** Each run's commit and start, by run id (a few thousand rows in a year's history). */
export function runTimes(src: ResultsSource): Map<number, { commitSha: string; startedAt: string }> {
  const rows = src[SQL]
    .prepare('SELECT run_id AS runId, commit_sha AS commitSha, started_at AS startedAt FROM runs')
    .all() as { runId: number; commitSha: string; startedAt: string }[];
  return new Map(rows.map((r) => [r.runId, { commitSha: r.commitSha, startedAt: r.startedAt }]));
}

/** Rerun passes and failures of `ids` over the newest `window` rerun-disabled runs. */
export function rerunTotals(
  src: ResultsSource,
  ids: readonly string[],
  window: number,
): { passes: number; failures: number; runs: number } {
  const db = src[SQL];
  const runs = db
    .prepare(`SELECT run_id FROM runs WHERE kind = 'rerun-disabled' ORDER BY run_id DESC LIMIT ?`)
    .pluck()
    .all(window) as number[];
  if (runs.length === 0 || ids.length === 0) return { passes: 0, failures: 0, runs: runs.length };
  const r = db
    .prepare(
      `SELECT COALESCE(SUM(rerun_passes), 0) AS p, COALESCE(SUM(rerun_failures), 0) AS f FROM results
       WHERE run_id IN (${marks(runs.length)}) AND id IN (${marks(ids.length)})`,
    )
    .get(...runs, ...ids) as { p: number; f: number };
  return { passes: r.p, failures: r.f, runs: runs.length };
}

/** A `disabled_tests` row: a key quarantined by an open DISABLED issue. */
export interface DisabledTestRow {
  readonly key: string;
  readonly issueNumber: number;
  readonly issueUrl: string;
  readonly platforms: readonly string[];
  /** When the list was last synced with this entry in it. */
  readonly updatedAt: string;
}

export function disabledTests(src: ResultsSource): DisabledTestRow[] {
  return (
    src[SQL]
      .prepare(
        `SELECT key, issue_number AS issueNumber, issue_url AS issueUrl, platforms, updated_at AS updatedAt
       FROM disabled_tests ORDER BY key`,
      )
      .all() as (Omit<DisabledTestRow, 'platforms'> & { platforms: string })[]
  ).map((r) => ({ ...r, platforms: JSON.parse(r.platforms) as string[] }));
}

/** Replaces the whole list in one transaction (the issues are the source of truth). */
export function replaceDisabledTests(store: ResultsStore, rows: readonly DisabledTestRow[]): void {
  const db = store[SQL];
  db.transaction(() => {
    db.prepare('DELETE FROM disabled_tests').run();
    const ins = db.prepare(
      'INSERT OR REPLACE INTO disabled_tests (key, issue_number, issue_url, platforms, updated_at) VALUES (?, ?, ?, ?, ?)',
    );
    for (const e of rows) ins.run(e.key, e.issueNumber, e.issueUrl, JSON.stringify(e.platforms), e.updatedAt);
  })();
}
