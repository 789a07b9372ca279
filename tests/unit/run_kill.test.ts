/**
 * A run killed with SIGKILL at a random moment, three times over (the run, its resume, and the resume of that):
 * each time the database is intact, the run reads 'aborted', and what it lost is only what it reported in its
 * last second (the child logs each result before committing it, so the log is what it had finished); then
 * `opgate run --resume` takes the run up again (running nothing it already had), and the last resume completes
 * it with every instance stored exactly once.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { expandMatrix } from '../../src/ci/matrix.ts';
import { integrityCheck } from '../../src/ci/store/fixtures.ts';
import { ResultsStore } from '../../src/ci/store/store.ts';
import { runRowExists, sleep, spawnRun, storedIds } from './run_helpers.ts';

// About 180 instances in two template files (reference on cpu, metadata on meta), a few per 100 ms: long enough to
// be killed mid-flow at each kill, and two workers reporting. More oracles only add template files that each of
// the start-ups collects, and slow ones only lengthen the last resume: what is checked is the store's. Each kill
// costs a start-up of `opgate run` (vitest and its workers): three show a fresh run, a resumed one and a resume of
// a resume killed, and the kill points are drawn anew at every run of the suite.
const ORACLES = ['reference', 'metadata'];
const FILTERS = ['--op', 'add,sub', '--device', 'cpu,meta', '--oracle', ORACLES.join(',')];
const KILLS = 3;
/** The store's promise: a result reported more than this long before a kill is in the database. */
const MAX_LOSS_MS = 1000;

describe('opgate run killed with SIGKILL', () => {
  test(`${KILLS} kills at random moments, then --resume completes the run`, async () => {
    const t0 = Date.now();
    const db = join(mkdtempSync(join(tmpdir(), 'opgate-kill-')), 'r.db');
    const args = [...FILTERS, '--db', db, '--json'];
    const expected = expandMatrix('pull', {
      op: ['add', 'sub'],
      device: ['cpu', 'meta'],
      oracle: ORACLES,
    }).map((i) => i.id);
    let runId: number | null = null;
    let before = new Set<string>();
    const measured: { after: number; jitter: number; lost: number; oldestLostMs: number }[] = [];
    for (let k = 0; k < KILLS; k++) {
      const child = spawnRun(k === 0 ? args : [...args, '--resume']);
      // A random moment of the run: after a random number of results (0: right after it (re)started), then a
      // random fraction of the flush period, so kills land before, during and after commits.
      const after = Math.floor(Math.random() * 40);
      const jitter = Math.floor(Math.random() * 400);
      if (k === 0) await runRowExists(db, child);
      else await child.said('resuming run');
      await child.reported(after);
      await sleep(jitter);
      const at = Date.now();
      expect(child.proc.exitCode, `kill ${k}: the child must still be running`).toBeNull();
      child.proc.kill('SIGKILL');
      expect((await child.exited).signal).toBe('SIGKILL');

      expect(integrityCheck(db)).toBe('ok');
      const store = new ResultsStore(db);
      runId ??= store.lastRunId()!;
      expect(store.lastRunId(), 'a resume writes into the same run').toBe(runId);
      expect(store.run(runId)?.status, `kill ${k}`).toBe('aborted');
      store.close();

      const stored = storedIds(db, runId);
      // Nothing already stored was run again, and nothing appears that was not reported.
      for (const id of child.logged.keys()) expect(before.has(id), `${id} ran twice`).toBe(false);
      for (const id of stored) expect(before.has(id) || child.logged.has(id), id).toBe(true);
      const lost = [...child.logged].filter(([id]) => !stored.has(id));
      const oldestLostMs = Math.max(0, ...lost.map(([, t]) => at - t));
      measured.push({ after, jitter, lost: lost.length, oldestLostMs });
      expect(oldestLostMs, `kill ${k}: lost ${JSON.stringify(lost)}`).toBeLessThanOrEqual(MAX_LOSS_MS);
      before = stored;
    }

    const last = spawnRun([...args, '--resume']);
    const { code } = await last.exited;
    expect(code, last.messages.join('\n')).toBe(0);
    for (const id of last.logged.keys()) expect(before.has(id), `${id} ran twice`).toBe(false);
    const summary = JSON.parse(last.stdout);
    expect(summary.runId).toBe(runId);
    expect(summary.total).toBe(expected.length);

    const store = new ResultsStore(db);
    const ids = store.results(runId!).map((r) => r.id);
    expect(store.run(runId!)?.status).toBe('passed');
    expect(store.plannedIds(runId!), 'a complete run keeps no plan').toBeNull();
    expect(store.runs()).toHaveLength(1);
    store.close();
    expect(ids.length).toBe(expected.length);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...expected].sort());
    console.log(
      `kill -9 x${KILLS} then --resume: ${JSON.stringify(measured)}; ${(Date.now() - t0) / 1000} s`,
    );
  }, 300_000);
});
