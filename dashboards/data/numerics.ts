/**
 * View 7, numerics: the per-op numerics fingerprint at a commit (the newest by default) — per op × device ×
 * dtype the largest error of a floating output in ulps of its dtype, as the golden oracle measured it — against
 * the previous commit that has one, with the cells whose max ulp drifted first (the rule is `DRIFT_RULE`).
 */
import { maxUlpByCell, numericsFingerprint, type UlpChange, type UlpRow } from '../../src/ci/index.ts';
import type { ReadDb } from './db.ts';
import { CommitMemo } from './memo.ts';

/** A max ulp in JSON, which has no Infinity: 'inf' for an unbounded error; null for none measured. */
export type UlpValue = number | 'inf' | null;

export interface NumericsRow {
  readonly op: string;
  readonly device: string;
  readonly dtype: string;
  readonly now: UlpValue;
  readonly before: UlpValue;
  readonly change: UlpChange;
  /** The instance with the largest error. */
  readonly worst: string;
  readonly instances: number;
}

export interface NumericsData {
  readonly sha: string | null;
  /** The previous commit with a fingerprint; null when there is none. */
  readonly baseline: string | null;
  readonly rule: string;
  readonly drifts: number;
  /** Drifts first, then by op, device, dtype. */
  readonly rows: readonly NumericsRow[];
}

const json = (u: number | null): UlpValue => (u === Number.POSITIVE_INFINITY ? 'inf' : u);

/** Each commit's max ulp per cell (a whole run's results), remembered per commit stamp (memo.ts). */
const CELLS = new CommitMemo<readonly UlpRow[]>(100);

export function numericsData(db: ReadDb, sha?: string): NumericsData {
  const f = numericsFingerprint(db, sha, (s) => CELLS.one(db, s, () => maxUlpByCell(db, s)));
  return {
    sha: f.sha,
    baseline: f.baseline,
    rule: f.rule,
    drifts: f.drifts.length,
    rows: f.rows.map((r) => ({ ...r, now: json(r.now), before: json(r.before) })),
  };
}
