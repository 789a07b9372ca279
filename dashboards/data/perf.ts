/**
 * View 4, perf: every (scenario, metric, platform, node version) series over commits — instruction counts
 * from callgrind and tinybench wall-clock — with change points (regression / improvement / suspicious) and
 * their before → after values. Series are split by platform and Node version because counts are only
 * comparable within one.
 */
import {
  type ChangePoint,
  changePoints,
  perfSeriesPoints,
  perfWindowStamp,
  perfWindowStart,
} from '../../src/ci/index.ts';
import type { ReadDb } from './db.ts';
import { WindowMemo } from './memo.ts';

export interface PerfSeries {
  readonly scenario: string;
  readonly metric: string;
  readonly platform: string;
  readonly nodeVersion: string;
  /** Oldest first; the latest sample per commit. */
  readonly points: readonly { sha: string; value: number; at: string }[];
  readonly changes: readonly (ChangePoint & { sha: string })[];
}

export interface PerfData {
  readonly series: readonly PerfSeries[];
}

/** The view per database and window length, with where its window started (a warm request stamps the window). */
const PERF = new WindowMemo<PerfData, number>(4);

export function perfData(db: ReadDb, limit = 100): PerfData {
  return PERF.get(
    `${db.path}\0${limit}`,
    () => perfWindowStart(db, limit),
    (from) => perfWindowStamp(db, from),
    (from) => computePerfData(db, limit, from),
  );
}

function computePerfData(db: ReadDb, limit: number, from: number): PerfData {
  const rows = perfSeriesPoints(db, limit, from);
  const groups = new Map<string, typeof rows>();
  for (const r of rows) {
    const k = [r.scenario, r.metric, r.platform, r.nodeVersion].join('\0');
    const g = groups.get(k) ?? [];
    g.push(r);
    groups.set(k, g);
  }
  const series = [...groups.values()].map((g) => {
    const points = g.slice(-limit).map(({ sha, value, at }) => ({ sha, value, at }));
    // Wall-clock is noisy: a 5% margin there; instruction counts are deterministic, so 1% is already large.
    const margin = g[0].metric === 'instructions' ? 0.01 : 0.05;
    const changes = changePoints(
      points.map((p) => p.value),
      4,
      margin,
    )
      .filter((c) => c.state !== 'insufficient data')
      .map((c) => ({ ...c, sha: points[c.index].sha }));
    return {
      scenario: g[0].scenario,
      metric: g[0].metric,
      platform: g[0].platform,
      nodeVersion: g[0].nodeVersion,
      points,
      changes,
    };
  });
  return { series };
}
