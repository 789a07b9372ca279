/** The mutation view's query beyond the store's mutation API: every run's outcome counts in one pass. */
import { SQL } from '../connection.ts';
import type { MutantOutcome } from '../mutation.ts';
import type { ResultsReader } from '../reader.ts';

export interface OutcomeCount {
  readonly mrunId: number;
  readonly outcome: MutantOutcome;
  readonly n: number;
}

/** Per mutation run and outcome, how many mutants (the score over runs without loading every mutant). */
export function mutantOutcomeCounts(db: ResultsReader): OutcomeCount[] {
  return db[SQL]
    .prepare(
      'SELECT mrun_id AS mrunId, outcome, COUNT(*) AS n FROM mutants GROUP BY mrun_id, outcome ORDER BY mrun_id',
    )
    .all() as OutcomeCount[];
}
