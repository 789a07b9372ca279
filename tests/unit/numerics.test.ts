/**
 * The numerics fingerprint, downstream of the golden oracle's `maxUlp`: the record -> results row -> store ->
 * merge plumbing, the per-(op, device, dtype) maxima of a commit against the previous commit that has any, the
 * drift rule, and `opgate numerics`. Rows are built directly (no oracle sets maxUlp yet).
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { registerNumericsCommands } from '../../src/ci/cli/numerics.ts';
import { numericsFingerprint } from '../../src/ci/numerics.ts';
import { foldMaxUlp, type InstanceRecord, resultRow } from '../../src/ci/run/channel.ts';
import { mergeDatabases } from '../../src/ci/store/merge.ts';
import { openReadOnly } from '../../src/ci/store/reader.ts';
import { type ResultRow, ResultsStore, type RunInfo } from '../../src/ci/store/store.ts';
import { passRow } from './run_helpers.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'opgate-numerics-'));

/** One golden result: its cell, layout and max ulp (null: an instance that measured none). */
type Inst = readonly [op: string, device: string, dtype: string, layout: string, ulp: number | null];

const row = ([op, device, dtype, layout, ulp]: Inst): ResultRow => ({
  ...passRow(`test_golden_${op}_${device}_${dtype}_${layout}_eager`, device),
  op,
  oracle: 'golden',
  dtype,
  layout,
  maxUlp: ulp,
});

/** The older commit A: the baseline of B. */
const A: readonly Inst[] = [
  ['exp', 'cpu', 'float32', 'contiguous', 1],
  ['exp', 'cpu', 'float32', 'transposed', 2],
  ['add', 'cpu', 'float32', 'contiguous', 3],
  ['add', 'cpu', 'float32', 'strided', 0.5],
  ['sin', 'cpu', 'float16', 'contiguous', 0],
  ['sin', 'cpu', 'float16', 'transposed', 0],
  ['mul', 'cpu', 'float64', 'contiguous', 10],
  ['pow', 'cpu', 'float32', 'contiguous', 20],
  ['sqrt', 'cpu', 'float32', 'contiguous', 20],
  ['log', 'cpu', 'float32', 'contiguous', 1],
  ['div', 'webgpu', 'float32', 'contiguous', 4],
  ['neg', 'cpu', 'int64', 'contiguous', null],
];
/** M, between them: runs, but no max ulp at all (the golden oracle did not run), so B compares with A. */
const M: readonly Inst[] = [
  ['exp', 'cpu', 'float32', 'contiguous', null],
  ['add', 'cpu', 'float32', 'contiguous', null],
];
/** The newest commit B, as its latest normal run of the job has it. */
const B: readonly Inst[] = [
  ['exp', 'cpu', 'float32', 'contiguous', 1],
  ['exp', 'cpu', 'float32', 'transposed', 6], // 2 -> 6: drift
  ['add', 'cpu', 'float32', 'contiguous', 3.2], // 3 -> 3.2: within 1 ulp
  ['add', 'cpu', 'float32', 'strided', 0.5],
  ['sin', 'cpu', 'float16', 'contiguous', 0],
  ['sin', 'cpu', 'float16', 'transposed', 0.5], // 0 -> 0.5: drift (no longer exact)
  ['mul', 'cpu', 'float64', 'contiguous', 2], // 10 -> 2: improved
  ['pow', 'cpu', 'float32', 'contiguous', 23], // 20 -> 23: over 10%, drift
  ['sqrt', 'cpu', 'float32', 'contiguous', 21.5], // 20 -> 21.5: within 10%
  ['log', 'cpu', 'float32', 'contiguous', Number.POSITIVE_INFINITY], // 1 -> inf: drift
  ['tanh', 'cpu', 'float32', 'contiguous', 7], // new
  ['neg', 'cpu', 'int64', 'contiguous', null],
];
/** B's first attempt of the same job, replaced by the re-run above: its larger values must not count. */
const B_FIRST_ATTEMPT: readonly Inst[] = [
  ['exp', 'cpu', 'float32', 'contiguous', 500],
  ['add', 'cpu', 'float32', 'contiguous', 500],
];
/** A rerun-disabled run at B: not a normal run, so not part of the fingerprint. */
const B_RERUN_DISABLED: readonly Inst[] = [['sqrt', 'cpu', 'float32', 'contiguous', 900]];

const SHA = { A: 'a'.repeat(40), M: 'b'.repeat(40), B: 'c'.repeat(40) };
const info = (commitSha: string, kind = 'normal'): RunInfo => ({
  commitSha,
  branch: 'main',
  platform: 'linux',
  tier: 'pull',
  kind,
});

/** Writes the runs in time order (A, M, B's two attempts, B's rerun-disabled run), each ended passed. */
function writeHistory(path: string): void {
  const s = new ResultsStore(path);
  const runs: [RunInfo, readonly Inst[]][] = [
    [info(SHA.A), A],
    [info(SHA.M), M],
    [info(SHA.B), B_FIRST_ATTEMPT],
    [info(SHA.B), B],
    [info(SHA.B, 'rerun-disabled'), B_RERUN_DISABLED],
  ];
  try {
    runs.forEach(([i, insts], k) => {
      const id = s.startRun(i);
      s.addResults(id, insts.map(row));
      const at = Date.parse('2026-12-01T00:00:00Z') + k * 60_000;
      s.patchRun(id, { startedAt: new Date(at).toISOString(), endedAt: new Date(at + 1000).toISOString() });
      s.endRun(id, 'passed');
    });
  } finally {
    s.close();
  }
}

/** The drift rule, restated independently: grew by more than max(1 ulp, 10%), or from 0 to anything. */
const isDrift = (before: number, now: number) =>
  (before === 0 && now > 0) || now - before > Math.max(1, before / 10);

/** Per cell, the max ulp of the instances that measured one. */
function maxima(insts: readonly Inst[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const [op, device, dtype, , ulp] of insts) {
    if (ulp === null) continue;
    const k = `${op} ${device} ${dtype}`;
    m.set(k, Math.max(m.get(k) ?? Number.NEGATIVE_INFINITY, ulp));
  }
  return m;
}

/** The drifted cells of B against A, from the inserted data alone. */
function expectedDrifts(): string[] {
  const [before, now] = [maxima(A), maxima(B)];
  return [...now]
    .filter(([k, u]) => before.has(k) && isDrift(before.get(k)!, u))
    .map(([k]) => k)
    .sort();
}

const cellOf = (r: { op: string; device: string; dtype: string }) => `${r.op} ${r.device} ${r.dtype}`;

describe('plumbing: record -> row -> store -> merge', () => {
  const record: InstanceRecord = {
    op: 'exp',
    oracle: 'reference',
    device: 'cpu',
    dtype: 'float32',
    layout: 'contiguous',
    mode: 'eager',
    seed: 1,
    expected: 'pass',
    checks: 4,
  };
  const passed = { state: 'passed', fails: false, retryCount: 0, errors: [], durationMs: 2 } as const;

  test('resultRow carries the record max ulp; a record without one stores null', () => {
    expect(resultRow('test_x', { ...record, maxUlp: 3.5 }, passed)?.maxUlp).toBe(3.5);
    expect(resultRow('test_x', record, passed)?.maxUlp).toBeNull();
    const retried = resultRow(
      'test_x',
      { ...record, maxUlp: 7 },
      {
        ...passed,
        retryCount: 1,
        errors: [{ message: 'attempt 1 failed' }],
      },
    );
    expect(retried).toMatchObject({ status: 'flaky', maxUlp: 7 });
  });

  test('attempts and reruns keep the largest max ulp; NaN is the worst; an attempt without one changes nothing', () => {
    let m: number | null | undefined;
    for (const u of [2, undefined, 9, 4]) m = foldMaxUlp(m, u);
    expect(m).toBe(9);
    expect(foldMaxUlp(9, Number.NaN)).toBe(Number.POSITIVE_INFINITY);
    expect(foldMaxUlp(undefined, undefined)).toBeUndefined();
    expect(foldMaxUlp(null, 0)).toBe(0);
  });

  test('the store writes and reads max_ulp (Infinity included), and merge copies it', () => {
    const dir = tmp();
    const src = join(dir, 'shard.db');
    const s = new ResultsStore(src);
    const run = s.startRun(info(SHA.B));
    s.addResults(run, B.map(row));
    s.endRun(run, 'passed');
    const stored = new Map(s.results(run).map((r) => [r.id, r.maxUlp]));
    s.close();
    expect(stored).toEqual(new Map(B.map((i) => [row(i).id, i[4]])));
    const into = join(dir, 'merged.db');
    expect(mergeDatabases([src], into)).toMatchObject({ runsAdded: 1, resultsAdded: B.length });
    const m = new ResultsStore(into);
    try {
      expect(new Map(m.results(m.lastRunId()!).map((r) => [r.id, r.maxUlp]))).toEqual(stored);
    } finally {
      m.close();
    }
  });
});

describe('the fingerprint of a commit against the previous commit with one', () => {
  let path: string;
  beforeAll(() => {
    path = join(tmp(), 'history.db');
    writeHistory(path);
  });

  test('per (op, device, dtype): the max over the latest normal runs; drifts are exactly the rule applied to the data', () => {
    const db = openReadOnly(path);
    try {
      const f = numericsFingerprint(db);
      expect(f.sha).toBe(SHA.B);
      // M has runs but measured nothing: B is compared with A.
      expect(f.baseline).toBe(SHA.A);
      const [before, now] = [maxima(A), maxima(B)];
      expect(
        f.rows
          .filter((r) => r.now !== null)
          .map((r) => [cellOf(r), r.now])
          .sort(),
      ).toEqual([...now].sort());
      for (const r of f.rows) expect(r.before).toBe(before.get(cellOf(r)) ?? null);
      expect(f.drifts.map(cellOf).sort()).toEqual(expectedDrifts());
      // What the data was built to show: 2 -> 6, 0 -> 0.5, 20 -> 23 and 1 -> inf drift; 3 -> 3.2 (under 1 ulp) and
      // 20 -> 21.5 (under 10%) do not, and neither do the superseded attempt's or the rerun-disabled run's values.
      expect(expectedDrifts()).toEqual([
        'exp cpu float32',
        'log cpu float32',
        'pow cpu float32',
        'sin cpu float16',
      ]);
      // Drifts come first; the rest by op, device, dtype.
      expect(f.rows.slice(0, f.drifts.length).every((r) => r.change === 'drift')).toBe(true);
      const rest = f.rows.slice(f.drifts.length).map(cellOf);
      expect(rest).toEqual([...rest].sort());
      const change = Object.fromEntries(f.rows.map((r) => [cellOf(r), r.change]));
      expect(change).toMatchObject({
        'add cpu float32': 'same',
        'sqrt cpu float32': 'same',
        'mul cpu float64': 'improved',
        'tanh cpu float32': 'new',
        'div webgpu float32': 'gone',
      });
      expect(change).not.toHaveProperty('neg cpu int64');
      const exp = f.rows.find((r) => cellOf(r) === 'exp cpu float32')!;
      expect(exp).toMatchObject({ worst: row(B[1]).id, instances: 2 });
    } finally {
      db.close();
    }
  });

  test('at the oldest commit there is no baseline; at M, the baseline is A and M measured nothing', () => {
    const db = openReadOnly(path);
    try {
      const a = numericsFingerprint(db, SHA.A);
      expect(a.baseline).toBeNull();
      expect(a.drifts).toEqual([]);
      expect(new Set(a.rows.map((r) => r.change))).toEqual(new Set(['new']));
      const m = numericsFingerprint(db, SHA.M);
      expect(m.baseline).toBe(SHA.A);
      expect(m.rows.map((r) => r.change)).toEqual(m.rows.map(() => 'gone'));
      expect(m.rows).toHaveLength(maxima(A).size);
    } finally {
      db.close();
    }
  });
});

describe('opgate numerics', () => {
  let path: string;
  const out: string[] = [];
  beforeAll(() => {
    path = join(tmp(), 'history.db');
    writeHistory(path);
  });
  afterEach(() => {
    vi.restoreAllMocks();
    out.length = 0;
    process.exitCode = 0;
  });
  const cli = async (...args: string[]) => {
    vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => out.push(a.map(String).join(' ')));
    const program = new Command('opgate').exitOverride();
    registerNumericsCommands(program);
    await program.parseAsync(['numerics', ...args], { from: 'user' });
  };

  test('prints the table, drifts first; exit status 0 unless --fail-on-drift', async () => {
    await cli('--db', path);
    const text = out.join('\n');
    expect(text).toContain(`at ${SHA.B.slice(0, 12)} vs ${SHA.A.slice(0, 12)}`);
    const lines = out.filter((l) => l.startsWith('  ')).slice(1);
    const drifted = lines.slice(0, expectedDrifts().length);
    for (const l of drifted) expect(l).toContain('DRIFT');
    expect(text).toContain(`${expectedDrifts().length} drift(s)`);
    expect(lines.find((l) => l.includes('log'))).toMatch(/\binf\b/);
    expect(process.exitCode ?? 0).toBe(0);
    await cli('--db', path, '--fail-on-drift');
    expect(process.exitCode).toBe(1);
  });

  test('--json: the fingerprint, Infinity spelled out; an older commit by prefix', async () => {
    await cli('--db', path, '--json');
    const f = JSON.parse(out.join('\n'));
    expect(f.drifts.map(cellOf).sort()).toEqual(expectedDrifts());
    expect(f.rows.find((r: { op: string }) => r.op === 'log').now).toBe('Infinity');
    out.length = 0;
    await cli('--db', path, '--json', '--commit', SHA.A.slice(0, 8), '--fail-on-drift');
    expect(JSON.parse(out.join('\n'))).toMatchObject({ sha: SHA.A, baseline: null, drifts: [] });
    expect(process.exitCode ?? 0).toBe(0);
  });

  test('errors are coded: a missing database (not created), an unknown commit', async () => {
    const missing = join(tmp(), 'none.db');
    await expect(cli('--db', missing)).rejects.toMatchObject({ code: 'E_FILE_NOT_FOUND' });
    expect(existsSync(missing)).toBe(false);
    await expect(cli('--db', path, '--commit', 'deadbeef')).rejects.toMatchObject({ code: 'E_UNKNOWN_NAME' });
  });
});
