/**
 * `opgate mutate` end to end. The named mutants (the bugs issue 20 found the matrix blind to, kept as data) are
 * each applied in a temporary workspace and must be killed by the matrix oracle that closes their gap, with
 * every kill re-checked on the unmutated source; the engine tells a survivor and a hang (timeout) from a kill;
 * the PR gate's flags behave.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { type Mutant, NAMED_MUTANTS, runMutants } from '../../src/ci/mutate/index.ts';
import { mutantsOf, mutationRuns } from '../../src/ci/store/mutation.ts';
import { ResultsStore } from '../../src/ci/store/store.ts';
import { opgateBatch } from './run_helpers.ts';

const ROOT = join(import.meta.dirname, '../..');
const bin = join(ROOT, 'bin/opgate.mjs');
const opgate = (args: string[]) =>
  spawnSync('node', [bin, ...args], { encoding: 'utf8', timeout: 300_000, cwd: ROOT });
const tmp = () => mkdtempSync(join(tmpdir(), 'opgate-mutate-'));

describe('opgate mutate', () => {
  test('every named mutant is killed by the matrix oracle that closes its gap (stored, with its killers); the slow ones run nightly', () => {
    const db = join(tmp(), 'm.db');
    const r = opgate([
      'mutate',
      '--named',
      '--fast',
      // Matrix oracles only: a gap is closed when the matrix, not a hand-written unit test, kills its mutant.
      '--no-unit',
      '--per-oracle',
      '--budget',
      '20',
      '--jobs',
      '2',
      '--json',
      '--db',
      db,
    ]);
    expect(r.status, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    const fast = NAMED_MUTANTS.filter((n) => !n.slow);
    expect(summary).toMatchObject({ mutants: fast.length, killed: fast.length, score: 1 });
    const store = new ResultsStore(db);
    const [run] = mutationRuns(store);
    const rows = mutantsOf(store, run.mrunId);
    store.close();
    expect(run.mode).toBe('only');
    for (const n of fast) {
      const row = rows.find((m) => m.file === n.file && m.mutated.includes(n.replace));
      expect(row, n.name).toBeDefined();
      expect(row!.outcome, n.name).toBe('killed');
      expect(
        row!.kills.map((k) => k.killer),
        n.name,
      ).toEqual(expect.arrayContaining([...n.killers]));
      for (const k of row!.kills) expect(n.instances, n.name).toContain(k.testId);
    }
  }, 300_000);

  test('a mutant nothing checks survives; one that hangs an instance is a timeout, its worker killed', async () => {
    const file = 'src/runtime/ops/reductions/softmax.ts';
    const original = 'let s = 0;';
    const { readFileSync } = await import('node:fs');
    const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
    const line = lines.findIndex((l) => l.trim() === original) + 1;
    expect(line).toBeGreaterThan(0);
    const base = { file, line, operator: 'remove-correction', original: lines[line - 1] };
    const mutants: Mutant[] = [
      // Nothing runs it: no instance, no test.
      {
        ...base,
        id: 'unchecked',
        mutated: lines[line - 1].replace(original, 'let s = 0 + 0;'),
        instances: [],
      },
      // Every softmax call waits forever (blocked, not spinning: the watchdog sees no progress either way, and
      // a spin would hold a core of the suite's two for the whole timeout).
      {
        ...base,
        id: 'hangs',
        mutated: lines[line - 1].replace(
          original,
          'let s = 0; Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);',
        ),
        instances: ['test_reference_softmax_cpu_float64_contiguous_eager'],
      },
    ];
    const rows = await runMutants(mutants, {
      root: ROOT,
      tier: 'pull',
      jobs: 2,
      maxInstances: 10,
      perOracle: false,
      unit: false,
      instanceTimeoutMs: 8000,
      budgetMs: null,
    });
    const by = new Map(rows.map((r) => [r.mutantId, r]));
    expect(by.get('unchecked')).toMatchObject({ outcome: 'survived', reason: 'nothing selected', kills: [] });
    expect(by.get('hangs')).toMatchObject({ outcome: 'timeout' });
    expect(by.get('hangs')!.reason).toMatch(/no progress for 8 s/);
  }, 120_000);

  test('the PR gate: --changed with no runtime change has nothing to mutate and passes; --list shows a sample; bad flags are coded errors', async () => {
    const db = join(tmp(), 'm.db');
    // What each command reports, not the process boundary: one process runs the four (tests/unit/cli_batch.mjs).
    const [none, list, bad, op] = await opgateBatch(
      [
        ['mutate', '--changed', 'HEAD..HEAD', '--min-score', '0.9', '--json', '--db', db],
        ['mutate', '--sample', '10', '--seed', '2', '--list'],
        ['mutate', '--min-score', '1.5', '--db', db],
        ['mutate', '--operator', 'nope', '--list'],
      ].map((args) => ({ args, cwd: ROOT })),
    );
    expect(none.code, none.stderr).toBe(0);
    expect(JSON.parse(none.stdout)).toMatchObject({ mutants: 0, score: 1 });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^10 mutants$/m);
    expect(new Set([...list.stdout.matchAll(/^\w{12} \S+:\d+ ([\w-]+)/gm)].map((m) => m[1])).size).toBe(10);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--min-score: got '1.5'.*E_INVALID_ARGUMENT/);
    expect(op.code).toBe(2);
    expect(op.stderr).toMatch(/no operator 'nope'/);
  }, 120_000);
});
