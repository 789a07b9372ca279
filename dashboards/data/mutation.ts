/**
 * View 8, mutation: how strong the oracles are. One mutation run (`opgate mutate`; the newest by default): its
 * score, the kill matrix (which oracle kills mutants of which operator, and how many only that oracle kills),
 * the per-operator outcomes, the survivors with their diff and the declared equivalents with their reasons;
 * and the score of every run over commits.
 */
import {
  type MutantOutcome,
  type MutantRow,
  type MutationScore,
  mutantOutcomeCounts,
  mutantsOf,
  mutationRuns,
  mutationScore,
  type StoredMutationRun,
} from '../../src/ci/index.ts';
import type { ReadDb } from './db.ts';

export interface MutationRunSummary {
  readonly mrunId: number;
  readonly sha: string;
  readonly branch: string;
  readonly mode: string;
  readonly at: string;
  readonly score: MutationScore;
}

/** One oracle's row of the kill matrix. */
export interface KillRow {
  /** An oracle name, or 'unit' for the unit tests. */
  readonly killer: string;
  /** Per mutation operator: the mutants this killer has a kill row for. */
  readonly byOperator: Readonly<Record<string, number>>;
  readonly kills: number;
  /** Mutants it was the first to kill (`killedBy`). */
  readonly first: number;
  /** Mutants it is the only killer of (their one kill row is its). */
  readonly only: number;
}

export interface OperatorRow {
  readonly operator: string;
  readonly total: number;
  readonly killed: number;
  readonly survived: number;
  readonly timeout: number;
  readonly equivalent: number;
  readonly error: number;
}

/** A survivor or an equivalent, as listed: where, which operator, the one-line diff and why. */
export type ListedMutant = Pick<
  MutantRow,
  'mutantId' | 'file' | 'line' | 'operator' | 'original' | 'mutated' | 'reason'
>;

export interface MutationData {
  /** The run shown; null when there is none. */
  readonly run: (MutationRunSummary & { readonly args: Record<string, unknown> }) | null;
  /** Every run, oldest first (the newest 200). */
  readonly history: readonly MutationRunSummary[];
  /** The kill matrix's columns: operators with a mutant in the run, by name. */
  readonly operators: readonly string[];
  /** Most kills first; 'unit' last, to set the matrix's oracles against the hand-written tests. */
  readonly matrix: readonly KillRow[];
  readonly perOperator: readonly OperatorRow[];
  readonly survivors: readonly ListedMutant[];
  readonly equivalents: readonly ListedMutant[];
}

const HISTORY = 200;

const summary = (r: StoredMutationRun, outcomes: readonly MutantOutcome[]): MutationRunSummary => ({
  mrunId: r.mrunId,
  sha: r.commitSha,
  branch: r.branch,
  mode: r.mode,
  at: r.startedAt,
  score: mutationScore(outcomes),
});

const listed = (m: MutantRow): ListedMutant => ({
  mutantId: m.mutantId,
  file: m.file,
  line: m.line,
  operator: m.operator,
  original: m.original,
  mutated: m.mutated,
  reason: m.reason,
});

export function killMatrix(mutants: readonly MutantRow[]): KillRow[] {
  const rows = new Map<
    string,
    { byOperator: Record<string, number>; kills: number; first: number; only: number }
  >();
  const row = (killer: string) => {
    const r = rows.get(killer) ?? { byOperator: {}, kills: 0, first: 0, only: 0 };
    rows.set(killer, r);
    return r;
  };
  for (const m of mutants) {
    for (const k of m.kills) {
      const r = row(k.killer);
      r.byOperator[m.operator] = (r.byOperator[m.operator] ?? 0) + 1;
      r.kills++;
      if (m.kills.length === 1) r.only++;
    }
    if (m.killedBy) row(m.killedBy).first++;
  }
  return [...rows]
    .map(([killer, r]) => ({ killer, ...r }))
    .sort(
      (a, b) =>
        Number(a.killer === 'unit') - Number(b.killer === 'unit') ||
        b.kills - a.kills ||
        a.killer.localeCompare(b.killer),
    );
}

export function operatorRows(mutants: readonly MutantRow[]): OperatorRow[] {
  const by = new Map<string, MutantOutcome[]>();
  for (const m of mutants) by.set(m.operator, [...(by.get(m.operator) ?? []), m.outcome]);
  return [...by]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([operator, outcomes]) => {
      const s = mutationScore(outcomes);
      return {
        operator,
        total: s.mutants,
        killed: s.killed,
        survived: s.survived,
        timeout: s.timeout,
        equivalent: s.equivalent,
        error: s.error,
      };
    });
}

/** The run `mrunId` (the newest when omitted); a run id that does not exist shows no run. */
export function mutationData(db: ReadDb, mrunId?: number): MutationData {
  const runs = mutationRuns(db);
  const outcomes = new Map<number, MutantOutcome[]>();
  for (const c of mutantOutcomeCounts(db))
    outcomes.set(c.mrunId, [...(outcomes.get(c.mrunId) ?? []), ...Array<MutantOutcome>(c.n).fill(c.outcome)]);
  const history = runs.slice(-HISTORY).map((r) => summary(r, outcomes.get(r.mrunId) ?? []));
  const shown = mrunId === undefined ? runs.at(-1) : runs.find((r) => r.mrunId === mrunId);
  if (!shown)
    return { run: null, history, operators: [], matrix: [], perOperator: [], survivors: [], equivalents: [] };
  const mutants = mutantsOf(db, shown.mrunId);
  const perOperator = operatorRows(mutants);
  return {
    run: { ...summary(shown, outcomes.get(shown.mrunId) ?? []), args: shown.args ?? {} },
    history,
    operators: perOperator.map((o) => o.operator),
    matrix: killMatrix(mutants),
    perOperator,
    survivors: mutants.filter((m) => m.outcome === 'survived').map(listed),
    equivalents: mutants.filter((m) => m.outcome === 'equivalent').map(listed),
  };
}

/** The runs the static site carries a document of (`data/mutation/<id>.json`): all the history lists. */
export const mutationRunIds = (db: ReadDb): number[] =>
  mutationRuns(db)
    .slice(-HISTORY)
    .map((r) => r.mrunId);
