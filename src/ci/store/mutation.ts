/** The mutation tables (`opgate mutate`): one mutation run per invocation, its mutants and who killed them. */
import { type ResultsSource, SQL } from './connection.ts';
import type { ResultsStore } from './store.ts';

export type MutantOutcome = 'killed' | 'survived' | 'timeout' | 'equivalent' | 'error';

export interface MutationRunInfo {
  readonly commitSha: string;
  readonly branch: string;
  /** 'sample' (a sampled run over the runtime), 'changed' (changed lines of a git range) or 'only' (named mutants). */
  readonly mode: string;
  readonly args?: Record<string, unknown>;
}

/** One oracle (or 'unit') that killed a mutant, with the first failing test id and its message. */
export interface MutantKill {
  readonly killer: string;
  readonly testId: string;
  readonly message?: string | null;
}

export interface MutantRow {
  readonly mutantId: string;
  readonly file: string;
  readonly line: number;
  readonly operator: string;
  readonly original: string;
  readonly mutated: string;
  readonly outcome: MutantOutcome;
  /** The first killer (an oracle name or 'unit'); null unless killed. */
  readonly killedBy: string | null;
  /** Why: an equivalent's declared reason, a timeout's or an error's cause, a survivor's coverage. */
  readonly reason: string | null;
  /** Matrix instances target determination selected, and how many ran. */
  readonly selected: number;
  readonly ran: number;
  readonly durationMs: number;
  readonly kills: readonly MutantKill[];
}

export interface StoredMutationRun extends MutationRunInfo {
  readonly mrunId: number;
  readonly startedAt: string;
  readonly endedAt: string | null;
}

export function beginMutationRun(store: ResultsStore, info: MutationRunInfo): number {
  const r = store[SQL]
    .prepare('INSERT INTO mutation_runs (commit_sha, branch, started_at, mode, args) VALUES (?, ?, ?, ?, ?)')
    .run(info.commitSha, info.branch, new Date().toISOString(), info.mode, JSON.stringify(info.args ?? {}));
  return Number(r.lastInsertRowid);
}

/** Writes one mutant and its kills (replacing an earlier row of the same run and id). */
export function insertMutant(store: ResultsStore, mrunId: number, m: MutantRow): void {
  const db = store[SQL];
  db.transaction(() => {
    db.prepare('DELETE FROM mutants WHERE mrun_id = ? AND mutant_id = ?').run(mrunId, m.mutantId);
    db.prepare(
      `INSERT INTO mutants (mrun_id, mutant_id, file, line, operator, original, mutated, outcome, killed_by, reason,
         selected, ran, duration_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      mrunId,
      m.mutantId,
      m.file,
      m.line,
      m.operator,
      m.original,
      m.mutated,
      m.outcome,
      m.killedBy,
      m.reason,
      m.selected,
      m.ran,
      m.durationMs,
    );
    const kill = db.prepare(
      'INSERT INTO mutant_kills (mrun_id, mutant_id, killer, test_id, message) VALUES (?, ?, ?, ?, ?)',
    );
    for (const k of m.kills) kill.run(mrunId, m.mutantId, k.killer, k.testId, k.message ?? null);
  })();
}

export function endMutationRun(store: ResultsStore, mrunId: number): void {
  store[SQL]
    .prepare('UPDATE mutation_runs SET ended_at = ? WHERE mrun_id = ?')
    .run(new Date().toISOString(), mrunId);
}

interface RunRow {
  mrun_id: number;
  commit_sha: string;
  branch: string;
  started_at: string;
  ended_at: string | null;
  mode: string;
  args: string;
}

/** Every mutation run, oldest first. */
export function mutationRuns(src: ResultsSource): StoredMutationRun[] {
  return (src[SQL].prepare('SELECT * FROM mutation_runs ORDER BY mrun_id').all() as RunRow[]).map((r) => ({
    mrunId: r.mrun_id,
    commitSha: r.commit_sha,
    branch: r.branch,
    startedAt: r.started_at,
    endedAt: r.ended_at,
    mode: r.mode,
    args: JSON.parse(r.args),
  }));
}

interface MutantDbRow {
  mutant_id: string;
  file: string;
  line: number;
  operator: string;
  original: string;
  mutated: string;
  outcome: MutantOutcome;
  killed_by: string | null;
  reason: string | null;
  selected: number;
  ran: number;
  duration_ms: number;
}

/** The mutants of one run with their kills, by file and line. */
export function mutantsOf(src: ResultsSource, mrunId: number): MutantRow[] {
  const db = src[SQL];
  const kills = new Map<string, MutantKill[]>();
  for (const k of db
    .prepare('SELECT mutant_id, killer, test_id, message FROM mutant_kills WHERE mrun_id = ? ORDER BY killer')
    .all(mrunId) as { mutant_id: string; killer: string; test_id: string; message: string | null }[])
    kills.set(k.mutant_id, [
      ...(kills.get(k.mutant_id) ?? []),
      { killer: k.killer, testId: k.test_id, message: k.message },
    ]);
  return (
    db
      .prepare('SELECT * FROM mutants WHERE mrun_id = ? ORDER BY file, line, mutant_id')
      .all(mrunId) as MutantDbRow[]
  ).map((r) => ({
    mutantId: r.mutant_id,
    file: r.file,
    line: r.line,
    operator: r.operator,
    original: r.original,
    mutated: r.mutated,
    outcome: r.outcome,
    killedBy: r.killed_by,
    reason: r.reason,
    selected: r.selected,
    ran: r.ran,
    durationMs: r.duration_ms,
    kills: kills.get(r.mutant_id) ?? [],
  }));
}

export interface MutationScore {
  readonly mutants: number;
  readonly killed: number;
  readonly survived: number;
  readonly timeout: number;
  readonly equivalent: number;
  readonly error: number;
  /** (killed + timeout) / (mutants - equivalent - error); 1 when nothing counts. */
  readonly score: number;
}

/** The score of a list of outcomes: a timeout counts as detected (the mutant hung a test), as in Stryker. */
export function mutationScore(outcomes: readonly MutantOutcome[]): MutationScore {
  const n = (o: MutantOutcome) => outcomes.filter((x) => x === o).length;
  const killed = n('killed');
  const timeout = n('timeout');
  const equivalent = n('equivalent');
  const error = n('error');
  const counted = outcomes.length - equivalent - error;
  return {
    mutants: outcomes.length,
    killed,
    survived: n('survived'),
    timeout,
    equivalent,
    error,
    score: counted === 0 ? 1 : (killed + timeout) / counted,
  };
}
