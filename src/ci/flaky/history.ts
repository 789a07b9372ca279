/**
 * Flake history from the results store. Per instance over the last `window` normal runs: outcomes (a `flaky`
 * result — failed, then passed on a retry — counts as both), whether it passed and failed on the same commit,
 * and a flip score (an EWMA of outcome changes, PyTorch-style "flakiness" ranking). Verdicts: `flaky` (it flipped),
 * `broken` (it failed every attempt of every run — never quarantined), `healthy`.
 */
import type { ResultsSource } from '../store/connection.ts';
import { type OutcomeRow, outcomeRows, rerunTotals, runTimes } from '../store/flaky.ts';
import { RECENT_OUTCOMES, recentRowPages } from '../store/recent.ts';

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
   * Every instance with outcomes, healthy ones included (`flaky list --all`). Otherwise only the flaky and broken
   * ones (what every caller shows or files).
   */
  readonly healthy?: boolean;
  /** Read every stored result (the definition) instead of the instances' recent history (tests compare them). */
  readonly fromResults?: boolean;
}

/**
 * Each instance's outcomes in finished normal runs, oldest first: from the instances' recent history (one row per
 * instance, whatever the history's length, read a page at a time) when the window fits in it, else from every
 * stored result.
 */
function* outcomeHistories(
  store: ResultsSource,
  window: number,
  o: FlakeOptions,
): Generator<[string, OutcomeRow[]]> {
  if (o.fromResults || window > RECENT_OUTCOMES) {
    const byId = new Map<string, OutcomeRow[]>();
    for (const r of outcomeRows(store, o.only)) {
      const g = byId.get(r.id);
      if (g) g.push(r);
      else byId.set(r.id, [r]);
    }
    yield* byId;
    return;
  }
  const runs = runTimes(store);
  const keep = o.healthy ? undefined : mayBeUnhealthy(runs, window);
  for (const page of recentRowPages(store, { ids: o.only, all: o.healthy, keep }))
    for (const r of page) {
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
            commitSha: run.commitSha,
            startedAt: run.startedAt,
          },
        ];
      });
      if (rows.length) yield [r.id, rows];
    }
}

/**
 * A conservative test on an instance's stored outcomes (recent.ts's letters), before any is decoded: false only
 * when its newest `window` outcomes must read healthy: no flaky result, and either no failure, or a pass besides
 * its failures and no two outcomes on one commit (only a commit with several runs can have both).
 */
function mayBeUnhealthy(
  runs: ReadonlyMap<number, { commitSha: string }>,
  window: number,
): (outcomes: string) => boolean {
  const perCommit = new Map<string, number>();
  for (const r of runs.values()) perCommit.set(r.commitSha, (perCommit.get(r.commitSha) ?? 0) + 1);
  const shared = new Set<number>();
  for (const [run, r] of runs) if ((perCommit.get(r.commitSha) ?? 0) > 1) shared.add(run);
  return (outcomes) => {
    // The newest `window` entries: past the window-th comma from the end. Letters are statuses only.
    let at = outcomes.length;
    for (let n = 0; n < window && at > 0; n++) at = outcomes.lastIndexOf(',', at - 1);
    const tail = at < 0 ? outcomes : outcomes.slice(at + 1);
    if (tail.includes('K')) return true;
    if (!/[FEU]/.test(tail)) return false;
    if (!/[PX]/.test(tail)) return true;
    return shared.size > 0 && tail.split(',').some((e) => shared.has(Number.parseInt(e, 10)));
  };
}

/** One instance's statistics over its newest `window` outcomes (one pass: flaky list reads tens of thousands). */
function statsOf(id: string, all: readonly OutcomeRow[], window: number): FlakeStats {
  const from = Math.max(0, all.length - window);
  let passes = 0;
  let fails = 0;
  let flakyRuns = 0;
  let score = 0;
  let prev: boolean | null = null;
  // Per commit: 1 passed, 2 failed (a flaky result did both).
  const perCommit = new Map<string, number>();
  const commits = new Set<string>();
  let firstSeen: string | null = null;
  let lastSeen: string | null = null;
  let lastFailure: string | null = null;
  for (let k = from; k < all.length; k++) {
    const r = all[k];
    const flaky = r.status === 'flaky';
    const failed = r.status === 'fail' || r.status === 'xpass' || r.status === 'error';
    if (r.status === 'pass' || r.status === 'xfail') passes++;
    if (failed) fails++;
    if (flaky) flakyRuns++;
    perCommit.set(r.commitSha, (perCommit.get(r.commitSha) ?? 0) | (flaky ? 3 : failed ? 2 : 1));
    score = ALPHA * (flaky || (prev !== null && prev !== failed) ? 1 : 0) + (1 - ALPHA) * score;
    prev = flaky ? false : failed;
    if (flaky || failed) {
      firstSeen ??= r.startedAt;
      lastSeen = r.startedAt;
      commits.add(r.commitSha);
      if (r.message) lastFailure = r.message;
    }
  }
  const bothOnOneCommit = [...perCommit.values()].includes(3);
  const verdict: Verdict =
    flakyRuns > 0 || bothOnOneCommit ? 'flaky' : fails > 0 && passes === 0 ? 'broken' : 'healthy';
  const first = all[from];
  return {
    id,
    op: first.op,
    oracle: first.oracle,
    device: first.device,
    runs: all.length - from,
    passes,
    fails,
    flakyRuns,
    bothOnOneCommit,
    flipScore: Math.round(score * 1000) / 1000,
    firstSeen,
    lastSeen,
    commits: [...commits],
    lastFailure,
    verdict,
  };
}

export function flakeStats(store: ResultsSource, window = 30, o: FlakeOptions = {}): FlakeStats[] {
  const out: FlakeStats[] = [];
  for (const [id, all] of outcomeHistories(store, window, o)) {
    const stats = statsOf(id, all, window);
    if (o.healthy || stats.verdict !== 'healthy') out.push(stats);
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
