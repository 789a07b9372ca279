/**
 * The committed baseline (`bench/expected.json`): per scenario the instruction count per iteration and a noise
 * margin. `checkBaseline` fails on a regression beyond the margin and also on an unexplained win beyond it, so
 * the baseline ratchets (PyTorch's pr_time_benchmarks expected results); `acceptBaseline` writes the new file.
 */
import { readFileSync, writeFileSync } from 'node:fs';

export interface ExpectedEntry {
  readonly instructions: number;
  /** Relative noise margin, e.g. 0.01 = 1%. */
  readonly margin: number;
}

export interface Expected {
  readonly platform: string;
  readonly scenarios: Readonly<Record<string, ExpectedEntry>>;
}

/**
 * 0.1%: the 1-element add's count repeats to within 0.001% run to run (docs/perf.md), so a few dozen
 * instructions per call (~0.3% of it) are well outside. Scenarios with more noise get their own margin.
 */
export const DEFAULT_MARGIN = 0.001;

export type Verdict = 'ok' | 'regression' | 'improvement' | 'new';

export interface CheckRow {
  readonly scenario: string;
  readonly expected: number | null;
  readonly measured: number;
  readonly delta: number | null;
  readonly margin: number;
  readonly verdict: Verdict;
}

export function readExpected(path: string): Expected {
  return JSON.parse(readFileSync(path, 'utf8')) as Expected;
}

export function checkBaseline(expected: Expected, measured: Readonly<Record<string, number>>): CheckRow[] {
  return Object.entries(measured).map(([scenario, m]) => {
    const e = expected.scenarios[scenario];
    if (!e)
      return {
        scenario,
        expected: null,
        measured: m,
        delta: null,
        margin: DEFAULT_MARGIN,
        verdict: 'new' as const,
      };
    const delta = (m - e.instructions) / e.instructions;
    const verdict: Verdict = delta > e.margin ? 'regression' : delta < -e.margin ? 'improvement' : 'ok';
    return { scenario, expected: e.instructions, measured: m, delta, margin: e.margin, verdict };
  });
}

/** Fails on regressions and on unexplained wins (the file must be updated to take a win). */
export const failing = (rows: readonly CheckRow[]) =>
  rows.filter((r) => r.verdict === 'regression' || r.verdict === 'improvement');

export function acceptBaseline(
  expected: Expected | null,
  measured: Readonly<Record<string, number>>,
  platform: string,
): Expected {
  const scenarios: Record<string, ExpectedEntry> = { ...(expected?.scenarios ?? {}) };
  for (const [name, m] of Object.entries(measured))
    scenarios[name] = { instructions: Math.round(m), margin: scenarios[name]?.margin ?? DEFAULT_MARGIN };
  const sorted = Object.fromEntries(Object.entries(scenarios).sort(([a], [b]) => (a < b ? -1 : 1)));
  return { platform, scenarios: sorted };
}

export function writeExpected(path: string, e: Expected): void {
  writeFileSync(path, `${JSON.stringify(e, null, 2)}\n`);
}

export function formatCheck(rows: readonly CheckRow[]): string {
  return rows
    .map((r) => {
      const d = r.delta === null ? 'new' : `${r.delta >= 0 ? '+' : ''}${(r.delta * 100).toFixed(3)}%`;
      return `${r.verdict.toUpperCase().padEnd(11)} ${r.scenario.padEnd(26)} ${String(r.expected ?? '-').padStart(12)} -> ${r.measured.toFixed(0).padStart(12)}  (${d}, margin ${(r.margin * 100).toFixed(2)}%)`;
    })
    .join('\n');
}
