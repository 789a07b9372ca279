/**
 * Flake history from the results store. Per instance over the last `window` normal runs: outcomes (a `flaky`
 * result — failed, then passed on a retry — counts as both), whether it passed and failed on the same commit,
 * and a flip score (an EWMA of outcome changes, PyTorch-style "flakiness" ranking). Verdicts: `flaky` (it flipped),
 * `broken` (it failed every attempt of every run — never quarantined), `healthy`.
 */
import type { ResultsStore } from '../store/store.ts';

export type Verdict = 'flaky' | 'broken' | 'healthy';

export interface FlakeStats {
  readonly id: string;
  readonly op: string;
  readonly oracle: string;
  readonly device: string;
  readonly runs: number;
  readonly passes: number;
  readonly fails: number;
  readonly flakyRuns: number;
  readonly bothOnOneCommit: boolean;
  readonly flipScore: number;
  readonly firstSeen: string | null;
  readonly lastSeen: string | null;
  readonly commits: readonly string[];
  readonly lastFailure: string | null;
  readonly verdict: Verdict;
}

interface Row {
  id: string;
  op: string;
  oracle: string;
  device: string;
  status: string;
  message: string | null;
  commit_sha: string;
  started_at: string;
}

const ALPHA = 0.3;

/** `only`: restrict to these ids (the dashboards pass the ones that ever failed, to skip the healthy mass). */
export function flakeStats(
  store: Pick<ResultsStore, 'db'>,
  window = 30,
  only?: readonly string[],
): FlakeStats[] {
  const rows = store.db
    .prepare(
      `SELECT r.id, r.op, r.oracle, r.device, r.status, r.message, u.commit_sha, u.started_at
       FROM results r JOIN runs u ON u.run_id = r.run_id
       WHERE u.kind = 'normal' AND r.status IN ('pass','fail','flaky','xfail','xpass','error')
         ${only ? 'AND r.id IN (SELECT value FROM json_each(?))' : ''}
       ORDER BY r.id, r.run_id`,
    )
    .all(...(only ? [JSON.stringify(only)] : [])) as Row[];
  const byId = new Map<string, Row[]>();
  for (const r of rows) {
    const g = byId.get(r.id);
    if (g) g.push(r);
    else byId.set(r.id, [r]);
  }
  const out: FlakeStats[] = [];
  for (const [id, all] of byId) {
    const rs = all.slice(-window);
    const fail = (s: string) => s === 'fail' || s === 'xpass' || s === 'error';
    const passes = rs.filter((r) => r.status === 'pass' || r.status === 'xfail').length;
    const fails = rs.filter((r) => fail(r.status)).length;
    const flakyRuns = rs.filter((r) => r.status === 'flaky').length;
    const outcomes = new Map<string, Set<string>>();
    for (const r of rs) {
      const o = outcomes.get(r.commit_sha) ?? new Set<string>();
      if (r.status === 'flaky') o.add('pass').add('fail');
      else o.add(fail(r.status) ? 'fail' : 'pass');
      outcomes.set(r.commit_sha, o);
    }
    const bothOnOneCommit = [...outcomes.values()].some((o) => o.size === 2);
    let score = 0;
    let prev: boolean | null = null;
    for (const r of rs) {
      const failed = fail(r.status);
      const flip = r.status === 'flaky' || (prev !== null && prev !== failed) ? 1 : 0;
      score = ALPHA * flip + (1 - ALPHA) * score;
      prev = r.status === 'flaky' ? false : failed;
    }
    const bad = rs.filter((r) => r.status === 'flaky' || fail(r.status));
    const verdict: Verdict =
      flakyRuns > 0 || bothOnOneCommit ? 'flaky' : fails > 0 && passes === 0 ? 'broken' : 'healthy';
    out.push({
      id,
      op: rs[0].op,
      oracle: rs[0].oracle,
      device: rs[0].device,
      runs: rs.length,
      passes,
      fails,
      flakyRuns,
      bothOnOneCommit,
      flipScore: Math.round(score * 1000) / 1000,
      firstSeen: bad[0]?.started_at ?? null,
      lastSeen: bad[bad.length - 1]?.started_at ?? null,
      commits: [...new Set(bad.map((r) => r.commit_sha))],
      lastFailure: [...bad].reverse().find((r) => r.message)?.message ?? null,
      verdict,
    });
  }
  return out.sort((a, b) => b.flipScore - a.flipScore || (a.id < b.id ? -1 : 1));
}

/** Rerun-disabled evidence for the instances a key covers: passes and failures over the last `window` reruns. */
export function rerunEvidence(
  store: ResultsStore,
  ids: readonly string[],
  window = 30,
): { passes: number; failures: number; runs: number } {
  if (ids.length === 0) return { passes: 0, failures: 0, runs: 0 };
  const runs = store.db
    .prepare(`SELECT run_id FROM runs WHERE kind = 'rerun-disabled' ORDER BY run_id DESC LIMIT ?`)
    .all(window) as { run_id: number }[];
  if (runs.length === 0) return { passes: 0, failures: 0, runs: 0 };
  const q = store.db.prepare(
    `SELECT COALESCE(SUM(rerun_passes), 0) AS p, COALESCE(SUM(rerun_failures), 0) AS f FROM results
     WHERE run_id IN (${runs.map(() => '?').join(',')}) AND id IN (${ids.map(() => '?').join(',')})`,
  );
  const r = q.get(...runs.map((x) => x.run_id), ...ids) as { p: number; f: number };
  return { passes: r.p, failures: r.f, runs: runs.length };
}
