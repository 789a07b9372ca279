/**
 * The mutation view's document from a hand-written store: the kill matrix counts one kill row per killer and
 * "only" when a mutant has a single kill row, the unit tests come last, outcomes per operator, survivors and
 * equivalents listed, the score per run, and any run by id (the static site writes one document per listed run).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { openReadOnly } from '../../dashboards/data/index.ts';
import { mutationData, mutationRunIds } from '../../dashboards/data/mutation.ts';
import {
  beginMutationRun,
  endMutationRun,
  insertMutant,
  type MutantOutcome,
  ResultsStore,
} from '../../src/ci/index.ts';

const mutant = (
  id: string,
  operator: string,
  outcome: MutantOutcome,
  killers: string[] = [],
  reason?: string,
) => ({
  mutantId: id,
  file: `src/runtime/${id}.ts`,
  line: 10,
  operator,
  original: `a < b // ${id}`,
  mutated: `a <= b // ${id}`,
  outcome,
  killedBy: killers[0] ?? null,
  reason: reason ?? null,
  selected: 3,
  ran: 3,
  durationMs: 100,
  kills: killers.map((killer) => ({ killer, testId: `test_${killer}_${id}` })),
});

function seeded(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'opgate-mut-')), 'm.db');
  const store = new ResultsStore(path);
  const old = beginMutationRun(store, { commitSha: 'c1', branch: 'main', mode: 'sample' });
  insertMutant(store, old, mutant('a', 'swap-comparison', 'survived'));
  insertMutant(store, old, mutant('b', 'drop-offset', 'killed', ['reference']));
  endMutationRun(store, old);
  const now = beginMutationRun(store, {
    commitSha: 'c2',
    branch: 'main',
    mode: 'sample',
    args: { perOracle: true },
  });
  insertMutant(store, now, mutant('a', 'swap-comparison', 'killed', ['unit', 'reference', 'golden']));
  insertMutant(store, now, mutant('b', 'drop-offset', 'killed', ['golden']));
  insertMutant(store, now, mutant('c', 'drop-offset', 'killed', ['reference']));
  insertMutant(store, now, mutant('d', 'swap-comparison', 'survived', [], 'all passed'));
  insertMutant(store, now, mutant('e', 'swap-comparison', 'equivalent', [], 'integers: i >= 0 is i > -1'));
  insertMutant(store, now, mutant('f', 'drop-guard', 'timeout', [], 'exceeded 120 s'));
  endMutationRun(store, now);
  store.close();
  return path;
}

describe('dashboards: mutation view data', () => {
  test('kill matrix, per-operator outcomes, survivors and equivalents of the newest run; the score per run', () => {
    const db = openReadOnly(seeded());
    try {
      const m = mutationData(db);
      expect(m.run).toMatchObject({ sha: 'c2', mode: 'sample', args: { perOracle: true } });
      expect(m.run?.score).toMatchObject({ mutants: 6, killed: 3, survived: 1, timeout: 1, equivalent: 1 });
      expect(m.run?.score.score).toBeCloseTo(4 / 5);
      expect(m.history.map((r) => [r.sha, r.score.score])).toEqual([
        ['c1', 0.5],
        ['c2', 0.8],
      ]);
      expect(m.operators).toEqual(['drop-guard', 'drop-offset', 'swap-comparison']);
      // Most kills first (then by name), 'unit' last; a mutant killed by three counts for each, "only" for none.
      expect(m.matrix).toEqual([
        {
          killer: 'golden',
          byOperator: { 'swap-comparison': 1, 'drop-offset': 1 },
          kills: 2,
          first: 1,
          only: 1,
        },
        {
          killer: 'reference',
          byOperator: { 'swap-comparison': 1, 'drop-offset': 1 },
          kills: 2,
          first: 1,
          only: 1,
        },
        { killer: 'unit', byOperator: { 'swap-comparison': 1 }, kills: 1, first: 1, only: 0 },
      ]);
      expect(m.perOperator.find((o) => o.operator === 'swap-comparison')).toEqual({
        operator: 'swap-comparison',
        total: 3,
        killed: 1,
        survived: 1,
        timeout: 0,
        equivalent: 1,
        error: 0,
      });
      expect(m.survivors.map((s) => [s.mutantId, s.original, s.mutated, s.reason])).toEqual([
        ['d', 'a < b // d', 'a <= b // d', 'all passed'],
      ]);
      expect(m.equivalents.map((s) => [s.mutantId, s.reason])).toEqual([['e', 'integers: i >= 0 is i > -1']]);
      // An older run by id; an unknown id shows none.
      const first = m.history[0].mrunId;
      expect(mutationData(db, first).survivors.map((s) => s.mutantId)).toEqual(['a']);
      expect(mutationData(db, 999).run).toBeNull();
      expect(mutationRunIds(db)).toEqual(m.history.map((r) => r.mrunId));
    } finally {
      db.close();
    }
  });

  test('a store without mutation runs: no run, nothing listed', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'opgate-mut-')), 'e.db');
    new ResultsStore(path).close();
    const db = openReadOnly(path);
    try {
      expect(mutationData(db)).toMatchObject({ run: null, history: [], matrix: [], survivors: [] });
    } finally {
      db.close();
    }
  });
});
