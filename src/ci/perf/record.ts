/** Perf samples in the results store: record, history per scenario, per-function diff between two commits. */
import type { ResultsStore } from '../store/store.ts';

export interface PerfSample {
  readonly scenario: string;
  readonly metric: 'instructions' | 'wall_us';
  readonly value: number;
  readonly commitSha: string;
  readonly platform: string;
  readonly nodeVersion: string;
  readonly detail?: Record<string, number> | null;
}

export function recordPerf(store: ResultsStore, samples: readonly PerfSample[]): void {
  const ins = store.db.prepare(
    'INSERT INTO perf (scenario, metric, value, commit_sha, platform, node_version, recorded_at, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const now = new Date().toISOString();
  store.db.transaction(() => {
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

/** One value per commit (the latest sample of it), oldest first. */
export function perfHistory(
  store: ResultsStore,
  scenario: string,
  metric: string,
): { commit: string; value: number }[] {
  return store.db
    .prepare(
      `SELECT commit_sha AS "commit", value FROM perf WHERE rowid IN (
         SELECT MAX(rowid) FROM perf WHERE scenario = ? AND metric = ? GROUP BY commit_sha)
       ORDER BY rowid`,
    )
    .all(scenario, metric) as { commit: string; value: number }[];
}

export interface FunctionDelta {
  readonly fn: string;
  readonly a: number;
  readonly b: number;
  readonly delta: number;
}

/** Which functions' inclusive counts changed between two commits' recorded profiles (largest change first). */
export function perfDiff(
  store: ResultsStore,
  scenario: string,
  commitA: string,
  commitB: string,
): FunctionDelta[] {
  const load = (c: string) => {
    const row = store.db
      .prepare(
        `SELECT detail FROM perf WHERE scenario = ? AND metric = 'instructions' AND commit_sha LIKE ? || '%' AND detail IS NOT NULL ORDER BY rowid DESC LIMIT 1`,
      )
      .get(scenario, c) as { detail: string } | undefined;
    if (!row)
      throw new Error(`no recorded profile of ${scenario} at ${c} (run \`opgate perf record\` there)`);
    return JSON.parse(row.detail) as Record<string, number>;
  };
  const a = load(commitA);
  const b = load(commitB);
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .map((fn) => ({ fn, a: a[fn] ?? 0, b: b[fn] ?? 0, delta: (b[fn] ?? 0) - (a[fn] ?? 0) }))
    .filter((d) => d.delta !== 0)
    .sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta));
}
