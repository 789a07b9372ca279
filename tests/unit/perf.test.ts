/**
 * Perf baselines: the baseline check (regressions and unexplained wins both fail), the committed baselines' format,
 * change points over a metric's history, the deliberate regressions the scenario program can register
 * (bench/perf_inject.ts), and the gate itself under real valgrind, split by cost:
 * - `npm test` (valgrind installed): the fewest counts that show the gate works, on one scenario: a baseline of the
 *   1M-element add into out=, and a 2x slower add kernel that `opgate perf check` fails against it (two counts).
 * - the perf job (`npm run test:perf-gate`, which sets OPGATE_PERF_GATE=1) also: the clean kernel passes against that
 *   baseline; a few dozen instructions more per add call fail the 1-element add, and so does the win of removing them
 *   (recorded in the perf history). The job then counts every scenario against bench/expected.json (`opgate perf
 *   check`).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { applyPerfInjections } from '../../bench/perf_inject.ts';
import { SCENARIOS } from '../../bench/scenarios.ts';
import {
  acceptBaseline,
  changePoints,
  checkBaseline,
  failing,
  perfDiff,
  perfHistory,
  readExpected,
  recordPerf,
  valgrindAvailable,
} from '../../src/ci/perf/index.ts';
import { perfSamples } from '../../src/ci/store/perf.ts';
import { ResultsStore } from '../../src/ci/store/store.ts';
import {
  callOp,
  DispatchKey,
  flatValues,
  type Kernel,
  operatorTable,
  type Tensor,
  tensor,
} from '../../src/runtime/index.ts';

const bin = resolve(import.meta.dirname, '../../bin/opgate.mjs');
const EXPECTED = resolve(import.meta.dirname, '../../bench/expected.json');
const VALGRIND = valgrindAvailable();
/** `npm run test:perf-gate`, as the perf workflow runs this file. */
const PERF_JOB = !!process.env.OPGATE_PERF_GATE;

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

test('bench/expected.json has one baseline per scenario: a positive count and a margin below 100%', () => {
  const expected = readExpected(EXPECTED);
  expect(expected.platform).toMatch(/^\w+-\w+ node\d+$/);
  expect(Object.keys(expected.scenarios).sort()).toEqual(SCENARIOS.map((s) => s.name).sort());
  for (const [name, e] of Object.entries(expected.scenarios)) {
    expect(e.instructions, name).toBeGreaterThan(0);
    expect(e.margin, name).toBeGreaterThan(0);
    expect(e.margin, name).toBeLessThan(1);
  }
});

test("the scenario program's deliberate regressions go through the operator table and keep the results", () => {
  const keep = [
    ['add.out', DispatchKey.CPU],
    ['add.Tensor', DispatchKey.Autograd],
  ] as const;
  const saved = keep.map(([name, key]) => operatorTable.get(name).kernels.get(key) as Kernel);
  try {
    let runs = 0;
    const cpu = saved[0];
    operatorTable.impl('add.out', DispatchKey.CPU, (ks, args, op) => {
      runs++;
      return cpu(ks, args, op);
    });
    expect(applyPerfInjections('kernel:add.out,dispatch:add.Tensor:3')).toEqual([
      'kernel:add.out',
      'dispatch:add.Tensor:3',
    ]);
    const a = tensor([1, 2], { dtype: 'float32' });
    const out = tensor([0, 0], { dtype: 'float32' });
    expect(callOp('add', [a, a], { out })).toBe(out);
    expect(flatValues(out)).toEqual([2, 4]);
    expect(runs).toBe(2);
    expect(flatValues(callOp('add', [a, a]) as Tensor)).toEqual([2, 4]);
    expect(operatorTable.get('add.Tensor').kernels.get(DispatchKey.Autograd)).not.toBe(saved[1]);
    expect(() => applyPerfInjections('slower:add.out')).toThrow(/OPGATE_PERF_INJECT: got 'slower:add.out'/);
    expect(applyPerfInjections('')).toEqual([]);
  } finally {
    for (const [k, [name, key]] of keep.entries()) operatorTable.impl(name, key, saved[k]);
  }
});

/** `opgate perf <cmd> --scenario <scenario> --expected <file>` under valgrind, with `env` added. */
const perfCli =
  (scenario: string, expected: string, base: NodeJS.ProcessEnv = {}) =>
  (cmd: string, env: NodeJS.ProcessEnv = {}, more: string[] = []) =>
    spawnSync('node', [bin, 'perf', cmd, '--scenario', scenario, '--expected', expected, ...more], {
      encoding: 'utf8',
      env: { ...process.env, ...base, ...env },
      timeout: 600_000,
    });

/**
 * The gate's proof in `npm test`: one scenario, two counts (about 40 s of valgrind on an idle 2-core machine, far
 * more on a loaded one). A slower kernel is the regression every scenario exists for; the 1M add into out= is
 * nearly all kernel.
 */
describe.skipIf(!VALGRIND)('with valgrind: the gate', () => {
  test('opgate perf check flags a 2x slower add kernel on the 1M-element add (into out=, the kernel alone); the perf job also passes the clean one', () => {
    const expected = join(mkdtempSync(join(tmpdir(), 'opgate-perf-')), 'expected.json');
    // A short warm-up keeps the valgrind runs quick; the count only has to repeat within this test.
    const perf = perfCli('add_1M_out', expected, { OPGATE_PERF_WARMUP: '8' });
    // The committed file first, so the accepted entry keeps add_1M_out's committed margin (accept keeps margins):
    // the gate is judged as CI judges it. Its count repeats within that margin, not within the default 0.1%
    // (+0.12% seen: the scavenge before the region lands differently when only argv differs).
    copyFileSync(EXPECTED, expected);
    expect(perf('accept').status).toBe(0);
    const base = readExpected(expected).scenarios.add_1M_out.instructions;
    // kernel:add.out registers add.out's cpu kernel run twice (bench/perf_inject.ts): with out= the kernel is
    // nearly all of the count (its copies in and out included), which about doubles.
    const slow = perf('check', { OPGATE_PERF_INJECT: 'kernel:add.out' });
    expect(slow.status, slow.stderr).toBe(1);
    expect(slow.stdout).toMatch(/REGRESSION\s+add_1M_out/);
    const measured = Number(/add_1M_out\s+\d+ ->\s+(\d+)/.exec(slow.stdout)?.[1]);
    expect(measured / base).toBeGreaterThan(1.5);
    expect(measured / base).toBeLessThan(2.5);
    // And the unchanged kernel passes against the baseline it just wrote: a third count, which the perf job makes
    // (npm test keeps to two; the perf job's `opgate perf check` also passes every clean scenario).
    if (!PERF_JOB) return;
    const same = perf('check');
    expect(same.status, same.stdout).toBe(0);
    expect(same.stdout).toMatch(/OK\s+add_1M_out/);
  }, 900_000);
});

/**
 * The perf job's further proof (`npm run test:perf-gate`, OPGATE_PERF_GATE=1; three more counts, past what `npm
 * test` spends here): the gate's margin is tight enough for a few dozen instructions per call.
 */
describe.skipIf(!VALGRIND || !PERF_JOB)('with valgrind: the gate, perf job', () => {
  test('opgate perf check flags a few dozen instructions more per call on the dispatch path, and the win of removing them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'opgate-perf-'));
    const expected = join(dir, 'expected.json');
    const perf = perfCli('add_1elem', expected);
    // Baseline without the loop.
    expect(perf('accept').status).toBe(0);
    const base = readExpected(expected).scenarios.add_1elem.instructions;
    expect(base).toBeGreaterThan(1000);
    // dispatch:add.Tensor wraps the kernel add.Tensor dispatches to first in a 2-step loop (bench/perf_inject.ts).
    const slow = perf('check', { OPGATE_PERF_INJECT: 'dispatch:add.Tensor' });
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
});
