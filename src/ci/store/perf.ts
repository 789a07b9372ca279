/** The perf table: samples by (scenario, metric, commit, platform, Node version), with per-function detail. */
import { type ResultsSource, SQL } from './connection.ts';
import type { ResultsStore } from './store.ts';

/**
 * instructions: callgrind counts per iteration; wall_us: opgate's wall-clock (µs per call); torch_wall_us and
 * ratio (opgate / torch): the same case's PyTorch time and the quotient, from `npm run bench:torch`.
 */
export type PerfMetric = 'instructions' | 'wall_us' | 'torch_wall_us' | 'ratio';

export interface PerfSample {
  readonly scenario: string;
  readonly metric: PerfMetric;
  readonly value: number;
  readonly commitSha: string;
  readonly platform: string;
  readonly nodeVersion: string;
  readonly detail?: Record<string, number> | null;
}

/** A stored sample; `rowid` orders samples by when they were written. */
export interface StoredPerfSample {
  readonly scenario: string;
  readonly metric: string;
  readonly value: number;
  readonly commitSha: string;
  readonly platform: string;
  readonly nodeVersion: string;
  readonly recordedAt: string;
}

/** Writes samples in one transaction, all recorded now. */
export function insertPerf(store: ResultsStore, samples: readonly PerfSample[]): void {
  const db = store[SQL];
  const ins = db.prepare(
    'INSERT INTO perf (scenario, metric, value, commit_sha, platform, node_version, recorded_at, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const now = new Date().toISOString();
  db.transaction(() => {
    for (const s of samples)
      ins.run(
        s.scenario,
        s.metric,
        s.value,
        s.commitSha,
        s.platform,
        s.nodeVersion,
        now,
        s.detail ? JSON.stringify(s.detail) : null,
      );
  })();
}

/** Every sample, in the order written. */
export function perfSamples(src: ResultsSource): StoredPerfSample[] {
  return src[SQL]
    .prepare(
      `SELECT scenario, metric, value, commit_sha AS commitSha, platform, node_version AS nodeVersion,
       recorded_at AS recordedAt FROM perf ORDER BY rowid`,
    )
    .all() as StoredPerfSample[];
}

/** One value per commit (the latest sample of it), oldest first. */
export function perfByCommit(
  src: ResultsSource,
  scenario: string,
  metric: string,
): { commit: string; value: number }[] {
  return src[SQL]
    .prepare(
      `SELECT commit_sha AS "commit", value FROM perf WHERE rowid IN (
       SELECT MAX(rowid) FROM perf WHERE scenario = ? AND metric = ? GROUP BY commit_sha)
     ORDER BY rowid`,
    )
    .all(scenario, metric) as { commit: string; value: number }[];
}

/** The newest per-function profile of `scenario` at a commit (a sha prefix will do), or null. */
export function perfProfile(
  src: ResultsSource,
  scenario: string,
  commit: string,
): Record<string, number> | null {
  const detail = src[SQL]
    .prepare(
      `SELECT detail FROM perf WHERE scenario = ? AND metric = 'instructions' AND commit_sha LIKE ? || '%'
       AND detail IS NOT NULL ORDER BY rowid DESC LIMIT 1`,
    )
    .pluck()
    .get(scenario, commit) as string | undefined;
  return detail === undefined ? null : (JSON.parse(detail) as Record<string, number>);
}
