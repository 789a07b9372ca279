/** Run summaries: totals, per (oracle, device) counts and rates, the JSON shape of `opgate run --json`. */
import type { ResultRow } from '../store/store.ts';

export interface Summary {
  readonly total: number;
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  /** Failed, then passed on a rerun. */
  readonly flaky: number;
  readonly xfailed: number;
  readonly xpassed: number;
  readonly errors: number;
  readonly durationS: number;
  readonly checks: number;
  readonly checksPerS: number;
  readonly instancesPerS: number;
  readonly byOracleDevice: readonly {
    oracle: string;
    device: string;
    total: number;
    passed: number;
    failed: number;
    skipped: number;
    xfailed: number;
    xpassed: number;
    checks: number;
    instancesPerS: number;
  }[];
}

export function summarize(rows: readonly ResultRow[], durationS: number): Summary {
  const count = (rs: readonly ResultRow[], s: ResultRow['status']) => rs.filter((r) => r.status === s).length;
  const groups = new Map<string, ResultRow[]>();
  for (const r of rows) {
    const k = `${r.oracle}\u0000${r.device}`;
    const g = groups.get(k);
    if (g) g.push(r);
    else groups.set(k, [r]);
  }
  const checks = rows.reduce((a, r) => a + r.checks, 0);
  const rate = (n: number, s: number) => (s > 0 ? Math.round((n / s) * 10) / 10 : 0);
  return {
    total: rows.length,
    passed: count(rows, 'pass'),
    failed: count(rows, 'fail'),
    skipped: count(rows, 'skip'),
    flaky: count(rows, 'flaky'),
    xfailed: count(rows, 'xfail'),
    xpassed: count(rows, 'xpass'),
    errors: count(rows, 'error'),
    durationS: Math.round(durationS * 100) / 100,
    checks,
    checksPerS: rate(checks, durationS),
    instancesPerS: rate(rows.length, durationS),
    byOracleDevice: [...groups.values()].map((g) => {
      const busy = g.reduce((a, r) => a + r.durationMs, 0) / 1000;
      return {
        oracle: g[0].oracle,
        device: g[0].device,
        total: g.length,
        passed: count(g, 'pass'),
        failed: count(g, 'fail'),
        skipped: count(g, 'skip'),
        xfailed: count(g, 'xfail'),
        xpassed: count(g, 'xpass'),
        checks: g.reduce((a, r) => a + r.checks, 0),
        instancesPerS: rate(g.length, busy),
      };
    }),
  };
}

/**
 * Whether a run fails. A target run's failures are findings (departures of a foreign runtime from PyTorch), not
 * run failures: it fails on errors (an instance that could not be judged) and on an xfail that passed (a declared
 * departure that did not occur: stale data).
 */
export function isFailing(s: Summary, findings = false): boolean {
  return (findings ? 0 : s.failed) + s.xpassed + s.errors > 0;
}

export function formatSummary(s: Summary): string {
  const head = ['oracle', 'device', 'total', 'pass', 'fail', 'skip', 'xfail', 'xpass', 'checks', 'inst/s'];
  const body = s.byOracleDevice.map((g) =>
    [
      g.oracle,
      g.device,
      g.total,
      g.passed,
      g.failed,
      g.skipped,
      g.xfailed,
      g.xpassed,
      g.checks,
      g.instancesPerS,
    ].map(String),
  );
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [
    line(head),
    line(widths.map((w) => '-'.repeat(w))),
    ...body.map(line),
    '',
    `${s.total} instances: ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped, ${s.flaky} flaky, ${s.xfailed} xfailed, ${s.xpassed} xpassed, ${s.errors} errors`,
    `${s.checks} checks in ${s.durationS}s (${s.checksPerS} checks/s, ${s.instancesPerS} instances/s)`,
  ].join('\n');
}
