/**
 * In-process runs for the fault-injection suite: the real run library (plan, reporter, store, resume) on a real
 * SQLite file, with a stand-in engine that reports a small selection at once instead of starting vitest, and a
 * commit per result (flushMs 0), so every write point of a run is one statement the suite can fail.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { expandMatrix, type MatrixInstance, resultAxes } from '../../src/ci/matrix.ts';
import { type RunEngine, type RunOptions, runMatrix } from '../../src/ci/run/run.ts';
import { type FaultPlan, setDbFaults, writePointsSeen } from '../../src/ci/store/faults.ts';
import { type ResultRow, ResultsStore } from '../../src/ci/store/store.ts';
import { deadPid } from './run_helpers.ts';

export const FILTERS = { op: ['add'], device: ['cpu'], dtype: ['float32'], oracle: ['reference'] };
export const SELECTION: readonly MatrixInstance[] = expandMatrix('pull', FILTERS).slice(0, 5);
export const IDS = SELECTION.map((i) => i.id).sort();

export const tmpDb = (name = 'r.db'): string => join(mkdtempSync(join(tmpdir(), 'opgate-faults-')), name);

export const rowOf = (i: MatrixInstance, durationMs = 1): ResultRow => ({
  ...resultAxes(i),
  status: 'pass',
  durationMs,
  attempts: 1,
  message: null,
  sample: null,
  seed: i.seed,
  checks: 1,
});

/**
 * Writes a database at `path` holding one complete (passed) run of `rows` (default: SELECTION's), as a shard
 * job leaves it; returns `path`.
 */
export function completeRunDb(
  path: string,
  o: { shard?: string; commitSha?: string; rows?: readonly ResultRow[] } = {},
): string {
  const s = new ResultsStore(path);
  const run = s.startRun({
    commitSha: o.commitSha ?? 'abc',
    branch: 'main',
    platform: 'p',
    tier: 'pull',
    shard: o.shard ?? '1/1',
  });
  s.addResults(run, o.rows ?? SELECTION.map((i) => rowOf(i)));
  s.endRun(run, 'passed');
  s.close();
  return path;
}

/** Reports each planned instance of `selection`, one per tick, and stops once the store has failed. */
export const standInEngine =
  (selection: readonly MatrixInstance[], duration: (i: MatrixInstance) => number = () => 1): RunEngine =>
  async (plan, reporter) => {
    const planned = new Set(
      Object.entries(plan.oracles).flatMap(([oracle, entries]) =>
        entries!.map((e) => [oracle, ...e].join('|')),
      ),
    );
    for (const i of selection) {
      if (reporter.failure) return;
      if (!planned.has([i.oracle, i.op, i.device, i.dtype, i.layout].join('|'))) continue;
      reporter.report(rowOf(i, duration(i)));
      await new Promise((r) => setImmediate(r));
    }
  };

export const runOptions = (db: string, resume = false, selection = SELECTION): RunOptions => ({
  tier: 'pull',
  filters: FILTERS,
  selection,
  instances: selection,
  disabled: [],
  reruns: 0,
  db,
  progress: false,
  shard: '1/1',
  retries: 0,
  kind: 'normal',
  resume,
  engine: standInEngine(selection),
  flushMs: 0,
});

/** Runs `fn` under a fault plan; returns its coded error (or null) and the write points it passed. */
export async function underFault(
  plan: FaultPlan,
  fn: () => Promise<unknown>,
): Promise<{ error: (Error & { code?: string }) | null; points: string[] }> {
  setDbFaults(plan);
  try {
    await fn();
    return { error: null, points: [...writePointsSeen()] };
  } catch (e) {
    return { error: e as Error & { code?: string }, points: [...writePointsSeen()] };
  } finally {
    setDbFaults(null);
  }
}

/** The write points of `fn` with no fault. */
export async function countWritePoints(fn: () => Promise<unknown>): Promise<string[]> {
  const { error, points } = await underFault({ kind: 'count' }, fn);
  expect(error).toBeNull();
  return points;
}

/**
 * After a failed run in this process: as the CLI's process would exit here, its unfinished run is given a
 * dead writer, so it reads 'aborted' (resumable) like a run whose process is gone. Returns the run's results.
 */
export function afterExit(db: string): { runId: number | null; ids: string[] } {
  const store = new ResultsStore(db);
  try {
    const runId = store.lastRunId();
    if (runId === null) return { runId, ids: [] };
    if (store.run(runId)?.status === 'running') store.patchRun(runId, { pid: deadPid() });
    return { runId, ids: store.results(runId).map((r) => r.id) };
  } finally {
    store.close();
  }
}

/** The database holds exactly one run, passed, with every selected instance once. */
export function expectComplete(db: string): void {
  const store = new ResultsStore(db);
  try {
    const runs = store.runs();
    expect(runs).toHaveLength(1);
    expect(runs[0].status).toBe('passed');
    const ids = store.results(runs[0].runId).map((r) => r.id);
    expect(ids.length, 'no instance twice').toBe(new Set(ids).size);
    expect([...ids].sort(), 'none missing').toEqual(IDS);
  } finally {
    store.close();
  }
}

/** Continues the stopped run (or starts it again when its start never committed) to the end. */
export async function resumeToEnd(db: string, hadRun: boolean): Promise<void> {
  if (hadRun) await runMatrix(runOptions(db, true));
  else {
    await expect(runMatrix(runOptions(db, true))).rejects.toMatchObject({ code: 'E_NOTHING_TO_RESUME' });
    await runMatrix(runOptions(db));
  }
}
