/** The opgate CLI end to end, as a user runs it (a child process; vitest runs inside `opgate run`). */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { ResultsStore } from '../../src/ci/store/store.ts';
import { opgateBatch } from './run_helpers.ts';

const bin = join(import.meta.dirname, '../../bin/opgate.mjs');
const opgate = (args: string[]) => spawnSync('node', [bin, ...args], { encoding: 'utf8', timeout: 120_000 });

describe('opgate CLI', () => {
  // repro and ops need no `opgate run` of their own: one process answers them all (bin/main.mjs, as bin/opgate.mjs
  // runs it), started at once so it overlaps the run below.
  let quick: ReturnType<typeof opgateBatch>;
  beforeAll(() => {
    quick = opgateBatch(
      [
        ['repro', 'test_reference_add_cpu_float32_transposed_eager', '--sample', '1'],
        ['repro', 'test_reference_nope_cpu_float32_contiguous_eager'],
        ['ops', '--json'],
      ].map((args) => ({ args, cwd: process.cwd() })),
    );
  });

  test('run --json stores results in SQLite and prints the summary; --junit writes XML', () => {
    const dir = mkdtempSync(join(tmpdir(), 'opgate-cli-'));
    const db = join(dir, 'r.db');
    const junit = join(dir, 'junit.xml');
    // One op, every oracle and device (every template file a user's run starts), two dtypes.
    const r = opgate([
      'run',
      '--op',
      'add',
      '--dtype',
      'float32,int64',
      '--db',
      db,
      '--json',
      '--junit',
      junit,
    ]);
    expect(r.status, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary.failed).toBe(0);
    expect(summary.total).toBeGreaterThan(20);
    expect(summary.passed + summary.skipped + summary.xfailed).toBe(summary.total);
    expect(summary.checks).toBeGreaterThan(summary.total);
    for (const k of ['total', 'passed', 'failed', 'skipped', 'xfailed', 'xpassed', 'durationS', 'checks'])
      expect(summary).toHaveProperty(k);
    const store = new ResultsStore(db);
    const rows = store.results(summary.runId);
    store.close();
    expect(rows.length).toBe(summary.total);
    expect(rows.find((x) => x.id === 'test_reference_add_cpu_float32_transposed_eager')?.status).toBe('pass');
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain(
      '<testcase classname="opgate.reference.add" name="test_reference_add_cpu_float32_transposed_eager"',
    );
  }, 120_000);

  test('repro runs one instance (and one sample) in-process', async () => {
    const [good, bad] = await quick;
    expect(good.code, good.stderr).toBe(0);
    expect(good.stdout).toMatch(
      /^PASS test_reference_add_cpu_float32_transposed_eager sample 1 \(\d+ checks\)/,
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown instance id');
  }, 60_000);

  test('ops --json lists OpInfos with dtypes per device and oracles', async () => {
    const r = (await quick)[2];
    expect(r.code).toBe(0);
    const ops = JSON.parse(r.stdout) as { name: string; dtypes: { cpu: string[] }; oracles: string[] }[];
    const add = ops.find((o) => o.name === 'add')!;
    expect(add.dtypes.cpu).toContain('complex128');
    expect(add.oracles).toEqual(
      expect.arrayContaining(['reference', 'metadata', 'dtypes', 'errors', 'property']),
    );
  }, 60_000);
});
