/** Perf samples in the results store: record, history per scenario, per-function diff between two commits. */
import { CiError } from '../errors.ts';
import type { ResultsSource } from '../store/connection.ts';
import { insertPerf, type PerfSample, perfByCommit, perfProfile } from '../store/perf.ts';
import type { ResultsStore } from '../store/store.ts';

export type { PerfSample };

export function recordPerf(store: ResultsStore, samples: readonly PerfSample[]): void {
  insertPerf(store, samples);
}

/** One value per commit (the latest sample of it), oldest first. */
export function perfHistory(
  store: ResultsSource,
  scenario: string,
  metric: string,
): { commit: string; value: number }[] {
  return perfByCommit(store, scenario, metric);
}
export interface FunctionDelta {
  readonly fn: string;
  readonly a: number;
  readonly b: number;
  readonly delta: number;
}

/** Which functions' inclusive counts changed between two commits' recorded profiles (largest change first). */
export function perfDiff(
  store: ResultsSource,
  scenario: string,
  commitA: string,
  commitB: string,
): FunctionDelta[] {
  const load = (c: string) => {
    const profile = perfProfile(store, scenario, c);
    if (!profile)
      throw new CiError(
        'E_PERF_PROFILE_NOT_FOUND',
        `no recorded profile of ${scenario} at ${c} (run \`opgate perf record\` there)`,
      );
    return profile;
  };
  const a = load(commitA);
  const b = load(commitB);
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .map((fn) => ({ fn, a: a[fn] ?? 0, b: b[fn] ?? 0, delta: (b[fn] ?? 0) - (a[fn] ?? 0) }))
    .filter((d) => d.delta !== 0)
    .sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta));
}
