/**
 * Perf baselines: the baseline check (regressions and unexplained wins both fail), change points over a metric's
 * history, and — with real valgrind — a loop of a few dozen instructions added to the dispatcher's hot path is
 * flagged by `opgate perf check`, and so is the win of removing it; so is a 2x slower add kernel on the 1M add.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  acceptBaseline,
  changePoints,
  checkBaseline,
  failing,
  perfDiff,
  perfHistory,
  recordPerf,
  valgrindAvailable,
} from '../../src/ci/perf/index.ts';
import { perfSamples } from '../../src/ci/store/perf.ts';
import { ResultsStore } from '../../src/ci/store/store.ts';

const bin = resolve(import.meta.dirname, '../../bin/opgate.mjs');

describe('baseline check', () => {
  const expected = {
    platform: 'linux-x64 node20',
    scenarios: { a: { instructions: 10_000, margin: 0.001 }, b: { instructions: 500, margin: 0.01 } },
  };
  test('within the margin passes; beyond it a regression or an unexplained win fails; a new scenario is reported', () => {
    const rows = checkBaseline(expected, { a: 10_005, b: 480, c: 7 });
    expect(rows.map((r) => [r.scenario, r.verdict])).toEqual([
      ['a', 'ok'],
      ['b', 'improvement'],
      ['c', 'new'],
    ]);
    expect(failing(checkBaseline(expected, { a: 10_020 })).map((r) => r.verdict)).toEqual(['regression']);
    const accepted = acceptBaseline(expected, { b: 480, c: 7 }, 'p');
    expect(accepted.scenarios).toEqual({
      a: { instructions: 10_000, margin: 0.001 },
      b: { instructions: 480, margin: 0.01 },
      c: { instructions: 7, margin: 0.001 },
    });
  });
});

describe('change points', () => {
  const flat = [100, 100.01, 99.99, 100, 100.02, 99.98, 100, 100.01];
  test('a sustained step up is a regression at the step, down an improvement', () => {
    const up = [...flat, 103, 103.01, 102.99, 103, 103.02, 103];
    const cps = changePoints(up);
    expect(cps).toHaveLength(1);
    expect(cps[0]).toMatchObject({ index: 8, state: 'regression' });
    expect(changePoints([...flat, 97, 97, 97.01, 96.99, 97])[0]).toMatchObject({
      index: 8,
      state: 'improvement',
    });
  });
  test('a lone spike is suspicious; too little history is insufficient data; noise is nothing', () => {
    const spike = [...flat.slice(0, 5), 110, ...flat.slice(5)];
    expect(changePoints(spike).map((c) => c.state)).toEqual(['suspicious']);
    expect(changePoints([100, 101, 102])).toEqual([expect.objectContaining({ state: 'insufficient data' })]);
    expect(changePoints([...flat, ...flat])).toEqual([]);
  });
});

test('perf samples are stored per commit; history and per-function diff read them back', () => {
  const store = new ResultsStore(join(mkdtempSync(join(tmpdir(), 'opgate-perf-')), 'r.db'));
  const base = {
    scenario: 'add_1elem',
    metric: 'instructions' as const,
    platform: 'linux-x64 node20',
    nodeVersion: '20.20.2',
  };
  recordPerf(store, [
    { ...base, value: 17600, commitSha: 'aaaa1111', detail: { callOp: 12000, redispatch: 9000 } },
    {
      ...base,
      value: 17650,
      commitSha: 'bbbb2222',
      detail: { callOp: 12050, redispatch: 9000, newThing: 40 },
    },
  ]);
  expect(perfHistory(store, 'add_1elem', 'instructions')).toEqual([
    { commit: 'aaaa1111', value: 17600 },
    { commit: 'bbbb2222', value: 17650 },
  ]);
  expect(perfDiff(store, 'add_1elem', 'aaaa', 'bbbb')).toEqual([
    { fn: 'callOp', a: 12000, b: 12050, delta: 50 },
    { fn: 'newThing', a: 0, b: 40, delta: 40 },
  ]);
  store.close();
});

/**
 * The gate's own proofs under real valgrind: six runs, about 6 minutes on a 2-core machine, past `npm test`'s time
 * budget, so the perf workflow runs them on every pull request next to the gate itself (`npm run test:perf-gate`,
 * which sets OPGATE_PERF_GATE=1); `npm test` runs them only with that variable set.
 */
describe.skipIf(!valgrindAvailable() || !process.env.OPGATE_PERF_GATE)('with valgrind', () => {
  test('opgate perf check flags a loop added to the dispatcher hot path, and the win of removing it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'opgate-perf-'));
    const expected = join(dir, 'expected.json');
    const perf = (cmd: string, env: NodeJS.ProcessEnv = {}, more: string[] = []) =>
      spawnSync('node', [bin, 'perf', cmd, '--scenario', 'add_1elem', '--expected', expected, ...more], {
        encoding: 'utf8',
        env: { ...process.env, ...env },
        timeout: 600_000,
      });
    // Baseline without the loop.
    expect(perf('accept').status).toBe(0);
    const base = JSON.parse(readFileSync(expected, 'utf8')).scenarios.add_1elem.instructions as number;
    expect(base).toBeGreaterThan(1000);
    // A 2-step loop in callOp: a few dozen instructions per call (~0.2% of an eager add).
    const slow = perf('check', { OPGATE_PERF_INJECT_DISPATCH: '2' });
    expect(slow.status).toBe(1);
    expect(slow.stdout).toMatch(/REGRESSION\s+add_1elem/);
    const measured = Number(/add_1elem\s+\d+ ->\s+(\d+)/.exec(slow.stdout)?.[1]);
    expect(measured - base).toBeGreaterThan(10);
    expect(measured - base).toBeLessThan(100);
    // The slower count as the committed baseline: the real code is now an unexplained win, which also fails.
    writeFileSync(
      expected,
      JSON.stringify({ platform: 'p', scenarios: { add_1elem: { instructions: measured, margin: 0.001 } } }),
    );
    // --record stores the same measurement for the dashboards' perf history (CI's perf workflow does this).
    const history = join(dir, 'perf-history.db');
    const fast = perf('check', {}, ['--record', history]);
    expect(fast.status).toBe(1);
    const store = new ResultsStore(history);
    const recorded = perfSamples(store).map(({ scenario, metric, value }) => ({ scenario, metric, value }));
    store.close();
    expect(recorded).toEqual([{ scenario: 'add_1elem', metric: 'instructions', value: expect.any(Number) }]);
    expect(Math.abs((recorded[0] as { value: number }).value - base) / base).toBeLessThan(0.001);
    expect(fast.stdout).toMatch(/IMPROVEMENT\s+add_1elem/);
    expect(fast.stdout).toMatch(/commit this as/);
  }, 900_000);

  test('opgate perf check flags a 2x slower add kernel on the 1M-element add (into out=, the kernel alone)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'opgate-perf-'));
    const expected = join(dir, 'expected.json');
    // A short warm-up keeps the six valgrind runs quick; the count only has to repeat within this test.
    const perf = (cmd: string, env: NodeJS.ProcessEnv = {}) =>
      spawnSync('node', [bin, 'perf', cmd, '--scenario', 'add_1M_out', '--expected', expected], {
        encoding: 'utf8',
        env: { ...process.env, OPGATE_PERF_WARMUP: '8', ...env },
        timeout: 600_000,
      });
    // The committed file first, so the accepted entry keeps add_1M_out's committed margin (accept keeps margins):
    // the gate is judged as CI judges it. Its count repeats within that margin, not within the default 0.1%
    // (+0.12% seen: the scavenge before the region lands differently when only argv differs).
    copyFileSync(resolve(import.meta.dirname, '../../bench/expected.json'), expected);
    expect(perf('accept').status).toBe(0);
    const base = JSON.parse(readFileSync(expected, 'utf8')).scenarios.add_1M_out.instructions as number;
    // OPGATE_PERF_INJECT_KERNEL=2 runs every pointwise row twice: with out= the row is nearly all of the count
    // (its copies in and out included), which about doubles: +114% with the committed warm-up.
    const slow = perf('check', { OPGATE_PERF_INJECT_KERNEL: '2' });
    expect(slow.status, slow.stderr).toBe(1);
    expect(slow.stdout).toMatch(/REGRESSION\s+add_1M_out/);
    const measured = Number(/add_1M_out\s+\d+ ->\s+(\d+)/.exec(slow.stdout)?.[1]);
    expect(measured / base).toBeGreaterThan(1.5);
    expect(measured / base).toBeLessThan(2.5);
    // And the unchanged kernel passes against the baseline it just wrote.
    const same = perf('check');
    expect(same.status, same.stdout).toBe(0);
    expect(same.stdout).toMatch(/OK\s+add_1M_out/);
  }, 900_000);
});
