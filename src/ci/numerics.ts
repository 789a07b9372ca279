/**
 * The per-op numerics fingerprint (issue 17; PyTorch proposed one in pytorch#64284 and never built it): per
 * (op, device, dtype), the largest error of a floating output against PyTorch's recorded results, in ulps of the
 * output dtype, as the golden oracle measures it (`max_ulp` in the results). A commit's fingerprint is the max
 * over its counted runs' instances (layouts, samples); it is compared with the previous commit that has one.
 *
 * Drift: a cell's max ulp grew by more than max(1 ulp, 10% of its previous value), or grew at all from 0 (an op
 * that was bit-exact no longer is). The slack absorbs what a changed sample or a re-recorded golden value moves
 * by; a real change of algorithm or accumulation order moves by more. Shrinking by the same rule is `improved`.
 */
import { CiError } from './errors.ts';
import type { ResultsSource } from './store/connection.ts';
import {
  commitShas,
  maxUlpByCell,
  previousUlpCommit,
  recentCommits,
  type UlpRow,
} from './store/views/index.ts';

/** The drift rule, in words (the CLI and the dashboards print it). */
export const DRIFT_RULE = 'grew by more than max(1 ulp, 10%), or from 0 ulp to any error';

/** Whether a max ulp of `now` is a drift from `before` (see the module comment). */
export function drifted(before: number, now: number): boolean {
  if (!(now > before)) return false;
  return before === 0 || now - before > Math.max(1, 0.1 * before);
}

export type UlpChange = 'drift' | 'improved' | 'same' | 'new' | 'gone';

export interface FingerprintRow {
  readonly op: string;
  readonly device: string;
  readonly dtype: string;
  /** Max ulp at the commit; null when the commit measured none for this cell (`gone`). */
  readonly now: number | null;
  /** Max ulp at the baseline commit; null when it measured none (`new`, or no baseline). */
  readonly before: number | null;
  readonly change: UlpChange;
  /** The instance with the largest error now (or, for `gone`, before). */
  readonly worst: string;
  /** Instances that measured a max ulp now. */
  readonly instances: number;
}

export interface Fingerprint {
  /** The commit (the newest by default); null when the database has no runs. */
  readonly sha: string | null;
  /** The previous commit with a fingerprint, compared against; null when there is none. */
  readonly baseline: string | null;
  /** Drifts first, then by op, device, dtype. */
  readonly rows: readonly FingerprintRow[];
  /** The rows that drifted. */
  readonly drifts: readonly FingerprintRow[];
  readonly rule: string;
}

const key = (r: { op: string; device: string; dtype: string }) => `${r.op}\0${r.device}\0${r.dtype}`;
const byCell = (a: FingerprintRow, b: FingerprintRow) =>
  a.op.localeCompare(b.op) || a.device.localeCompare(b.device) || a.dtype.localeCompare(b.dtype);

/** Compares two fingerprints cell by cell: drifts first, then by op, device, dtype. */
export function compareFingerprints(now: readonly UlpRow[], before: readonly UlpRow[]): FingerprintRow[] {
  const old = new Map(before.map((r) => [key(r), r]));
  const rows: FingerprintRow[] = now.map((r) => {
    const b = old.get(key(r));
    old.delete(key(r));
    const change: UlpChange = !b
      ? 'new'
      : drifted(b.maxUlp, r.maxUlp)
        ? 'drift'
        : drifted(r.maxUlp, b.maxUlp)
          ? 'improved'
          : 'same';
    const { op, device, dtype, worst, instances } = r;
    return { op, device, dtype, now: r.maxUlp, before: b?.maxUlp ?? null, change, worst, instances };
  });
  for (const b of old.values())
    rows.push({ ...b, now: null, before: b.maxUlp, change: 'gone', instances: 0 });
  const drift = (r: FingerprintRow) => (r.change === 'drift' ? 0 : 1);
  return rows.sort((a, b) => drift(a) - drift(b) || byCell(a, b));
}

/** A commit named on the command line: a full sha or a prefix of exactly one commit with runs. */
export function resolveCommit(db: ResultsSource, spec: string): string {
  const shas = commitShas(db);
  const hits = shas.filter((s) => s === spec || (spec.length >= 4 && s.startsWith(spec)));
  if (hits.length === 1) return hits[0];
  throw new CiError(
    'E_UNKNOWN_NAME',
    hits.length
      ? `--commit: '${spec}' matches ${hits.length} commits; give more of the sha`
      : `--commit: no runs at a commit '${spec}' (${shas.length} commits have runs)`,
  );
}

/**
 * The fingerprint at `sha` (the newest commit by default) against the previous commit that has one. `cellsOf`: a
 * commit's max ulp per cell (the dashboards pass one that remembers finished commits').
 */
export function numericsFingerprint(
  db: ResultsSource,
  sha?: string,
  cellsOf: (sha: string) => readonly UlpRow[] = (s) => maxUlpByCell(db, s),
): Fingerprint {
  const commit = sha ?? recentCommits(db, 1)[0]?.sha ?? null;
  if (commit === null) return { sha: null, baseline: null, rows: [], drifts: [], rule: DRIFT_RULE };
  const baseline = previousUlpCommit(db, commit);
  const rows = compareFingerprints(cellsOf(commit), baseline ? cellsOf(baseline) : []);
  return { sha: commit, baseline, rows, drifts: rows.filter((r) => r.change === 'drift'), rule: DRIFT_RULE };
}
