/**
 * Flake history from the results store. Per instance over the last `window` normal runs: outcomes (a `flaky`
 * result — failed, then passed on a retry — counts as both), whether it passed and failed on the same commit,
 * and a flip score (an EWMA of outcome changes, PyTorch-style "flakiness" ranking). Verdicts: `flaky` (it flipped),
 * `broken` (it failed every attempt of every run — never quarantined), `healthy`.
 */
import type { ResultsSource } from '../store/connection.ts';
import { type OutcomeRow, outcomeRows, rerunTotals, runTimes } from '../store/flaky.ts';
import { RECENT_OUTCOMES, recentRows } from '../store/recent.ts';

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

const ALPHA = 0.3;

export interface FlakeOptions {
  /** Only these ids. */
  readonly only?: readonly string[];
  /**
   * Every instance with outcomes, healthy ones included (`flaky list --all`). Otherwise only those whose kept
   * outcomes hold a failure: an instance that never failed is healthy, whatever else it did.
   */
  readonly healthy?: boolean;
  /** Read every stored result (the definition) instead of the instances' recent history (tests compare them). */
  readonly fromResults?: boolean;
}

/**
 * Each instance's outcomes in finished normal runs, oldest first: from the instances' recent history (one row per
 * instance, whatever the history's length) when the window fits in it, else from every stored result.
 */
function outcomeHistories(store: ResultsSource, window: number, o: FlakeOptions): Map<string, OutcomeRow[]> {
  const byId = new Map<string, OutcomeRow[]>();
  if (o.fromResults || window > RECENT_OUTCOMES) {
    for (const r of outcomeRows(store, o.only)) {
      const g = byId.get(r.id);
      if (g) g.push(r);
      else byId.set(r.id, [r]);
    }
    return byId;
  }
  const runs = runTimes(store);
  for (const r of recentRows(store, { ids: o.only, all: o.healthy })) {
    const rows = r.outcomes.flatMap((x) => {
      const run = runs.get(x.run);
      if (!run) return [];
      return [
        {
          id: r.id,
          op: r.op,
          oracle: r.oracle,
          device: r.device,
          status: x.status,
          message: x.message,
          ...run,
        },
      ];
    });
    if (rows.length) byId.set(r.id, rows);
  }
  return byId;
}

export function flakeStats(store: ResultsSource, window = 30, o: FlakeOptions = {}): FlakeStats[] {
  const out: FlakeStats[] = [];
  for (const [id, all] of outcomeHistories(store, window, o)) {
    const rs = all.slice(-window);
    const fail = (s: string) => s === 'fail' || s === 'xpass' || s === 'error';
    const passes = rs.filter((r) => r.status === 'pass' || r.status === 'xfail').length;
    const fails = rs.filter((r) => fail(r.status)).length;
    const flakyRuns = rs.filter((r) => r.status === 'flaky').length;
    const outcomes = new Map<string, Set<string>>();
    for (const r of rs) {
      const o = outcomes.get(r.commitSha) ?? new Set<string>();
      if (r.status === 'flaky') o.add('pass').add('fail');
      else o.add(fail(r.status) ? 'fail' : 'pass');
      outcomes.set(r.commitSha, o);
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
      firstSeen: bad[0]?.startedAt ?? null,
      lastSeen: bad[bad.length - 1]?.startedAt ?? null,
      commits: [...new Set(bad.map((r) => r.commitSha))],
      lastFailure: [...bad].reverse().find((r) => r.message)?.message ?? null,
      verdict,
    });
  }
  return out.sort((a, b) => b.flipScore - a.flipScore || (a.id < b.id ? -1 : 1));
}

/** Rerun-disabled evidence for the instances a key covers: passes and failures over the last `window` reruns. */
export function rerunEvidence(
  store: ResultsSource,
  ids: readonly string[],
  window = 30,
): { passes: number; failures: number; runs: number } {
  if (ids.length === 0) return { passes: 0, failures: 0, runs: 0 };
  return rerunTotals(store, ids, window);
}
