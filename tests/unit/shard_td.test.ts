import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { expandMatrix, type MatrixInstance } from '../../src/ci/index.ts';
import { recordPerf } from '../../src/ci/perf/index.ts';
import { toMarkdown } from '../../src/ci/run/markdown.ts';
import { summarize } from '../../src/ci/run/summary.ts';
import { makeUnits, parseShard, planFor, planShards } from '../../src/ci/shard/index.ts';
import { mergeDatabases } from '../../src/ci/store/merge.ts';
import { perfSamples } from '../../src/ci/store/perf.ts';
import { type ResultRow, ResultsStore } from '../../src/ci/store/store.ts';
import { affectedBy, isAffected } from '../../src/ci/td/index.ts';
import { opgate, opgateBatch, passRow, refId } from './run_helpers.ts';
import { completeRunDb, rowOf } from './store_fault_helpers.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const tmp = () => mkdtempSync(join(tmpdir(), 'opgate-shard-'));

/** A deterministic heavy-tailed "history" (most instances fast, a few slow), like real matrix durations. */
function syntheticHistory(instances: readonly MatrixInstance[]): Map<string, number> {
  let s = 12345;
  const rnd = () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
  return new Map(instances.map((i) => [i.id, Math.exp(rnd() * 6) * (i.oracle === 'gradgradcheck' ? 20 : 1)]));
}

describe('shard planning', () => {
  const pull = expandMatrix('pull');

  test('with a synthetic history, 4 shards are balanced within max/mean <= 1.10', () => {
    const history = syntheticHistory(pull);
    const units = makeUnits(pull, history, { shards: 4, estimate: () => 1 });
    const plan = planShards(units, 4);
    expect(plan.estimated).toBe(0);
    expect(plan.imbalance).toBeLessThanOrEqual(1.1);
    for (const n of [2, 8])
      expect(
        planShards(makeUnits(pull, history, { shards: n, estimate: () => 1 }), n).imbalance,
      ).toBeLessThanOrEqual(1.1);
  });

  test('the union of all shards is the whole tier, with no instance twice or missing', () => {
    const plan = planFor(pull, 4, null);
    const ids = plan.shards.flatMap((s) => s.units.flatMap((u) => u.ids));
    expect(ids.length).toBe(pull.length);
    expect(new Set(ids).size).toBe(pull.length);
    expect(new Set(ids)).toEqual(new Set(pull.map((i) => i.id)));
    // Without history every instance is estimated (samples × dtype cost), not dealt round-robin.
    expect(plan.estimated).toBe(pull.length);
    expect(new Set(plan.shards.map((s) => Math.round(s.ms))).size).toBeGreaterThan(0);
  });

  test('a unit larger than the limit is split; the plan is deterministic', () => {
    const insts = pull.filter((i) => i.op === 'add');
    const units = makeUnits(insts, new Map(), { shards: 4, maxUnitMs: 5, estimate: () => 1 });
    expect(units.every((u) => u.ms <= 5)).toBe(true);
    expect(units.length).toBeGreaterThan(insts.length / 5 - 1);
    expect(planShards(units, 3)).toEqual(planShards([...units].reverse(), 3));
  });

  test('--shard must be i/N with 1 <= i <= N', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    for (const bad of ['0/4', '5/4', '2', 'a/b'])
      expect(() => parseShard(bad)).toThrow(
        /--shard: got '.*', expected i\/N with 1 <= i <= N \[E_INVALID_ARGUMENT\]/,
      );
  });

  test('opgate run --shard i/2 runs exactly its part: the two shards together are the unsharded run', async () => {
    const dir = tmp();
    const ids = (db: string) => {
      const s = new ResultsStore(db);
      const r = s.results(s.lastRunId()!).map((x) => x.id);
      s.close();
      return r;
    };
    // One op on one device in one dtype, two oracles (two template files): the shards of any selection partition
    // it the same way, and the whole tier's partition is shown above without running it.
    const FILTERS = ['--op', 'neg', '--device', 'cpu', '--dtype', 'float32', '--oracle', 'reference,dtypes'];
    const run = async (extra: string[], db: string) => {
      const r = await opgate(['run', ...FILTERS, ...['--db', db, '--json', ...extra]]);
      expect(r.code, r.stderr).toBe(0);
      return ids(db);
    };
    // What the unsharded run runs: the selection (run_plan.test.ts checks an unsharded run's total against it).
    // The history the shards plan by: that run finished, with uneven durations, written here rather than run.
    const selection = expandMatrix('pull', {
      op: ['neg'],
      device: ['cpu'],
      dtype: ['float32'],
      oracle: ['reference', 'dtypes'],
    });
    const whole = selection.map((i) => i.id);
    completeRunDb(join(dir, 'all.db'), {
      commitSha: 'c0',
      rows: selection.map((i, k) => rowOf(i, 1 + ((k * 37) % 50))),
    });
    const md2 = join(dir, 's2.md');
    // The shards only read all.db's history: side by side, as CI's shard jobs run.
    const [a, b] = await Promise.all([
      run(['--shard', '1/2', '--history', join(dir, 'all.db')], join(dir, 's1.db')),
      run(
        ['--tier', 'pull', '--shard', '2/2', '--history', join(dir, 'all.db'), '--summary-md', md2],
        join(dir, 's2.db'),
      ),
    ]);
    expect(readFileSync(md2, 'utf8')).toContain('opgate pull tier — shard 2/2');
    expect(a.length).toBeGreaterThan(0);
    expect(b.length).toBeGreaterThan(0);
    expect([...a, ...b].sort()).toEqual([...whole].sort());
    // merge the shards, twice (in that order, in one process): the second merge adds nothing.
    const merged = join(dir, 'merged.db');
    const md = join(dir, 'merged.md');
    const shards = [join(dir, 's1.db'), join(dir, 's2.db')];
    const [m1, m2] = await opgateBatch([
      { args: ['merge', ...shards, '--into', merged, '--summary-md', md], cwd: dir },
      { args: ['merge', ...shards, '--into', merged], cwd: dir },
    ]);
    expect(m1.stdout).toMatch(
      /2 run\(s\), \d+ result\(s\) and 0 perf sample\(s\) added, 0 run\(s\) already there/,
    );
    const summary = readFileSync(md, 'utf8');
    expect(summary).toContain('## ✅ opgate — 2 shard(s) merged');
    expect(summary).toContain(`${whole.length} instances: **${whole.length} passed**`);
    expect(m2.stdout).toMatch(
      /0 run\(s\), 0 result\(s\) and 0 perf sample\(s\) added, 2 run\(s\) already there/,
    );
  }, 240_000);
});

describe('merge', () => {
  const row = (id: string): ResultRow => ({ ...passRow(id), checks: 2 });
  test('is idempotent: merging the same shard databases twice adds nothing', () => {
    const dir = tmp();
    const shards = [1, 2].map((k) => {
      const path = join(dir, `s${k}.db`);
      const s = new ResultsStore(path);
      const run = s.startRun({
        commitSha: 'abc',
        branch: 'main',
        platform: 'linux',
        shard: `${k}/2`,
        tier: 'pull',
      });
      s.addResults(run, [row(refId(`a_${k}`)), row(refId(`b_${k}`))]);
      s.endRun(run, 'passed');
      s.close();
      return path;
    });
    const into = join(dir, 'all.db');
    // A perf history merges in too (the dashboards' database gets the perf workflow's samples).
    const perf = join(dir, 'perf.db');
    const p = new ResultsStore(perf);
    recordPerf(p, [
      {
        scenario: 'add_1elem',
        metric: 'instructions',
        value: 12_000,
        commitSha: 'abc',
        platform: 'linux',
        nodeVersion: '20',
      },
      {
        scenario: 'add_1elem',
        metric: 'instructions',
        value: 12_100,
        commitSha: 'abd',
        platform: 'linux',
        nodeVersion: '20',
      },
    ]);
    p.close();
    expect(mergeDatabases([...shards, perf], into)).toEqual({
      runsAdded: 2,
      runsSkipped: 0,
      runsReplaced: 0,
      runsRunning: 0,
      resultsAdded: 4,
      perfAdded: 2,
    });
    expect(mergeDatabases([...shards, perf], into)).toEqual({
      runsAdded: 0,
      runsSkipped: 2,
      runsReplaced: 0,
      runsRunning: 0,
      resultsAdded: 0,
      perfAdded: 0,
    });
    const s = new ResultsStore(into);
    const runs = s.runs();
    const n = runs.reduce((k, r) => k + s.results(r.runId).length, 0);
    const shardsSeen = runs.map((r) => r.shard).sort();
    expect(
      perfSamples(s)
        .map((p) => p.value)
        .sort((a, b) => a - b),
    ).toEqual([12_000, 12_100]);
    s.close();
    expect(n).toBe(4);
    expect(shardsSeen).toEqual(['1/2', '2/2']);
  });

  test('merge --keep-commits keeps the newest commits (runs, results and perf samples) and drops the rest', async () => {
    const dir = tmp();
    const history = join(dir, 'history.db');
    const s = new ResultsStore(history);
    for (const sha of ['c1', 'c2', 'c3']) {
      const run = s.startRun({ commitSha: sha, branch: 'main', platform: 'linux', tier: 'pull' });
      s.addResults(run, [row(refId(sha))]);
      s.endRun(run, 'passed');
      recordPerf(s, [
        {
          scenario: 'add_1elem',
          metric: 'instructions',
          value: 1,
          commitSha: sha,
          platform: 'linux',
          nodeVersion: '20',
        },
      ]);
    }
    s.close();
    const [bad, ok] = await opgateBatch(
      [
        ['--keep-commits', '0'],
        ['--keep-commits', '2'],
      ].map((more) => ({
        args: ['merge', history, '--into', join(dir, 'kept.db'), ...more],
        cwd: dir,
      })),
    );
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('got 0, expected a positive integer');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain(
      'kept the newest 2 commit(s): dropped 1 commit(s), 1 run(s), 1 perf sample(s)',
    );
    const kept = new ResultsStore(join(dir, 'kept.db'));
    const runs = kept.runs();
    const commits = runs.map((r) => r.commitSha).sort();
    const results = runs.flatMap((r) => kept.results(r.runId).map((x) => x.id)).sort();
    const perf = perfSamples(kept)
      .map((p) => p.commitSha)
      .sort();
    kept.close();
    expect([commits, results, perf]).toEqual([
      ['c2', 'c3'],
      [refId('c2'), refId('c3')],
      ['c2', 'c3'],
    ]);
  }, 60_000);
});

describe('target determination', () => {
  const pull = expandMatrix('pull');
  const selected = (files: string[]) => {
    const a = affectedBy(files, ROOT);
    return pull.filter((i) => isAffected(i, a));
  };

  test('a changed webgpu kernel file selects the ops whose definitions use it, on webgpu', () => {
    const got = selected(['src/runtime/backends/webgpu/matmul.ts']);
    expect(new Set(got.map((i) => i.op))).toEqual(new Set(['mm', 'bmm', 'mv', 'dot', 'matmul']));
    expect(new Set(got.map((i) => i.device))).toEqual(new Set(['webgpu']));
  });

  test('a changed op definition or OpInfo selects those ops on every device', () => {
    const got = selected(['src/runtime/ops/reductions/sum.ts']);
    expect(new Set(got.map((i) => i.op))).toEqual(new Set(['sum', 'mean', 'prod', 'all', 'any']));
    expect(new Set(got.map((i) => i.device)).size).toBeGreaterThan(1);
    expect(new Set(selected(['op_db/ops/linalg/linalg.ts']).map((i) => i.op))).toEqual(
      new Set(['mm', 'bmm', 'mv', 'dot', 'matmul']),
    );
  });

  test('a kernel helper file selects the ops that reach it through its importers and the dispatcher', () => {
    // nn/pool/windows.ts names no pooling op: nn/pool/adaptive.ts imports it, and F's wrappers call its ops by name.
    const ops = new Set(selected(['src/runtime/ops/nn/pool/windows.ts']).map((i) => i.op));
    for (const k of [1, 2, 3])
      for (const kind of ['avg', 'max']) expect(ops).toContain(`nn.functional.adaptive_${kind}_pool${k}d`);
    expect(ops).toContain('nn.functional.fractional_max_pool2d');
    // ... and max_pool2d_with_indices's kernel (pooling.ts), which only F.max_pool2d's OpInfo reaches by name.
    expect(ops).toContain('nn.functional.max_pool2d');
    // nn/conv/gemm.ts names no op at all: its users' ops (aten's convolution, reached through F.conv2d), not
    // everything.
    const gemm = new Set(selected(['src/runtime/ops/nn/conv/gemm.ts']).map((i) => i.op));
    expect(gemm).toContain('nn.functional.conv2d');
    expect(gemm).not.toContain('add');
  });

  test("a changed golden file selects its op's instances on every device", () => {
    const got = selected(['op_db/goldens/pow.json.gz']);
    expect(new Set(got.map((i) => i.op))).toEqual(new Set(['pow']));
    expect(new Set(got.map((i) => i.oracle))).toContain('golden');
  });

  test('a changed dispatcher file (shared infrastructure) selects everything; a README nothing', () => {
    expect(selected(['src/runtime/dispatch/dispatcher.ts']).length).toBe(pull.length);
    expect(selected(['README.md', 'tests/unit/views.test.ts']).length).toBe(0);
  });

  test('a changed oracle selects its instances only', () => {
    const got = selected(['src/oracles/crossbackend.ts']);
    expect(new Set(got.map((i) => i.oracle))).toEqual(new Set(['crossbackend']));
    expect(got.length).toBe(pull.filter((i) => i.oracle === 'crossbackend').length);
  });
});

test('the Markdown summary lists failures with repro commands and renders ids and messages inert', () => {
  const rows: ResultRow[] = [
    {
      ...passRow('test_reference_add_cpu_float32_contiguous_eager'),
      status: 'fail',
      durationMs: 3,
      message: 'got <img src=x onerror=alert(1)> ```',
      sample: 2,
      seed: 7,
    },
  ];
  const md = toMarkdown(summarize(rows, 1), rows);
  expect(md).toMatch(/## ❌ opgate conformance matrix/);
  expect(md).toMatch(/\| reference \| cpu \| 1 \| 0 \| 1 \|/);
  expect(md).toContain(
    'repro: `npx opgate repro test_reference_add_cpu_float32_contiguous_eager --sample 2`',
  );
  // The message sits in a fenced block whose fence it cannot close.
  const block = md.slice(md.indexOf('```\n') + 4, md.lastIndexOf('\n```'));
  expect(block).toBe("got <img src=x onerror=alert(1)> '''");
});
