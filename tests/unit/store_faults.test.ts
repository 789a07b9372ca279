/**
 * Fault injection at every write point, like SQLite's own I/O-error tests: a run, a resume and a merge are first
 * run clean to count their write points, then once per point with that point failing (SQLITE_FULL, SQLITE_IOERR,
 * SQLITE_READONLY, SQLITE_CORRUPT; once, and from that point on, as a disk that stays full does). Each time:
 * the coded error, the results committed before it kept, nothing half-written, and a `--resume` (or a merge
 * again) that completes with every instance exactly once.
 */
import { copyFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { runMatrix } from '../../src/ci/run/run.ts';
import { INJECTABLE, type InjectableCode } from '../../src/ci/store/faults.ts';
import { mergeDatabases } from '../../src/ci/store/merge.ts';
import { ResultsStore } from '../../src/ci/store/store.ts';
import {
  afterExit,
  completeRunDb,
  countWritePoints,
  expectComplete,
  resumeToEnd,
  runOptions,
  SELECTION,
  tmpDb,
  underFault,
} from './store_fault_helpers.ts';

const CODES: Record<InjectableCode, string> = {
  SQLITE_FULL: 'E_DB_FULL',
  SQLITE_IOERR: 'E_DB_IO',
  SQLITE_READONLY: 'E_DB_READONLY',
  SQLITE_CORRUPT: 'E_DB_CORRUPT',
};
const TRIALS = (Object.keys(INJECTABLE) as InjectableCode[]).flatMap((code) =>
  [false, true].map((sticky) => ({ code, sticky })),
);
const injected: Record<string, number> = {};

function expectCoded(error: (Error & { code?: string }) | null, code: InjectableCode): void {
  expect(error, 'the fault must surface').not.toBeNull();
  expect(error!.code).toBe(CODES[code]);
  expect(error!.message.split('\n')).toHaveLength(1);
}

describe('a fault at every write point', () => {
  test('of a run: coded error, committed results kept, --resume completes', async () => {
    const points = await countWritePoints(() => runMatrix(runOptions(tmpDb())));
    // A new file's migration, the start, a commit per result, the end.
    expect(points).toEqual(['migrate', 'start run', ...SELECTION.map(() => 'add results'), 'end run passed']);
    for (const { code, sticky } of TRIALS)
      for (let k = 1; k <= points.length; k++) {
        const db = tmpDb();
        const { error } = await underFault({ kind: 'fail', code, at: k, sticky }, () =>
          runMatrix(runOptions(db)),
        );
        const where = `${code}${sticky ? '+' : ''} at ${k} (${points[k - 1]})`;
        expectCoded(error, code);
        const { runId, ids } = afterExit(db);
        // What was committed before the fault is kept: one result per commit that succeeded, and, where the
        // file takes writes again (a fault that passes), the batch whose commit failed, on the way out.
        const committed = points.slice(0, k - 1).filter((p) => p === 'add results').length;
        expect(ids.length, where).toBe(committed + (!sticky && points[k - 1] === 'add results' ? 1 : 0));
        if (k > 2) expect(error!.message, where).toMatch(`with ${ids.length} of 5 results stored`);
        if (runId !== null && k > 2) expect(error!.message, where).toMatch(/opgate run --resume/);
        await resumeToEnd(db, runId !== null);
        expectComplete(db);
        injected.run = (injected.run ?? 0) + 1;
      }
  });

  test('of a resume: coded error, nothing lost, a second --resume completes', async () => {
    // A run stopped after 2 of its 5 results (a full disk at its 5th write point), its process gone.
    const stopped = tmpDb('stopped.db');
    await underFault({ kind: 'fail', code: 'SQLITE_FULL', at: 5, sticky: true }, () =>
      runMatrix(runOptions(stopped)),
    );
    expect(afterExit(stopped).ids).toHaveLength(2);
    const copy = () => {
      const db = tmpDb();
      copyFileSync(stopped, db);
      return db;
    };
    const points = await countWritePoints(() => runMatrix(runOptions(copy(), true)));
    // The stopped run is reaped (its writer is dead), taken over, and given its last three results.
    expect(points).toEqual([
      'reap aborted runs',
      'resume run',
      'add results',
      'add results',
      'add results',
      'end run passed',
    ]);
    for (const { code, sticky } of TRIALS)
      for (let k = 1; k <= points.length; k++) {
        const db = copy();
        const { error } = await underFault({ kind: 'fail', code, at: k, sticky }, () =>
          runMatrix(runOptions(db, true)),
        );
        expectCoded(error, code);
        const { ids } = afterExit(db);
        const committed = points.slice(0, k - 1).filter((p) => p === 'add results').length;
        expect(ids.length).toBe(2 + committed + (!sticky && points[k - 1] === 'add results' ? 1 : 0));
        await runMatrix(runOptions(db, true));
        expectComplete(db);
        injected.resume = (injected.resume ?? 0) + 1;
      }
  });

  test('of a merge: coded error, each source copied whole or not at all, merging again completes', async () => {
    // Three shard databases of one complete run each.
    const sources = [0, 1, 2].map((k) => completeRunDb(tmpDb(`shard-${k}.db`), { shard: `${k + 1}/3` }));
    const points = await countWritePoints(async () => mergeDatabases(sources, tmpDb('m.db')));
    expect(points).toEqual(['migrate', ...sources.map((s) => `merge ${s}`)]);
    const runsIn = (db: string) => {
      const s = new ResultsStore(db);
      try {
        return s.runs().map((r) => s.results(r.runId).length);
      } finally {
        s.close();
      }
    };
    for (const { code, sticky } of TRIALS)
      for (let k = 1; k <= points.length; k++) {
        const into = tmpDb('m.db');
        const { error } = await underFault({ kind: 'fail', code, at: k, sticky }, async () =>
          mergeDatabases(sources, into),
        );
        expectCoded(error, code);
        // The sources copied before the fault, whole; nothing of the one it interrupted.
        if (k > 1) expect(runsIn(into)).toEqual(Array(k - 2).fill(SELECTION.length));
        const again = mergeDatabases(sources, into);
        expect(again.runsAdded).toBe(k > 1 ? 3 - (k - 2) : 3);
        expect(runsIn(into)).toEqual([5, 5, 5]);
        expect(mergeDatabases(sources, into).runsAdded).toBe(0);
        injected.merge = (injected.merge ?? 0) + 1;
      }
    console.log(`write points injected: ${JSON.stringify(injected)}`);
  });
});
