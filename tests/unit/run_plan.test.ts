/**
 * `opgate run` plans once: one matrix expansion per run, counted across the main process and the vitest workers
 * (OPGATE_TRACE_EXPANSIONS), for a plain, a sharded, a TD-ordered, a rerun-disabled and a resumed run; the plan
 * reaches the workers in memory (no temp files); a retried failure is one row with its first failing message.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { expandMatrix } from '../../src/ci/index.ts';
import { resultRow } from '../../src/ci/run/channel.ts';
import { narrow, toRunPlan } from '../../src/ci/run/plan.ts';
import { opgate } from './run_helpers.ts';

// One op, one dtype, two oracles (two template files, so two workers that must not expand the matrix again).
const FILTERS = ['--op', 'neg', '--device', 'cpu', '--dtype', 'float32', '--oracle', 'reference,dtypes'];

/** Runs `opgate run` with a fresh expansion trace and TMPDIR; the trace's lines, and what the TMPDIR kept. */
async function traced(args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'opgate-plan-'));
  const trace = join(dir, 'expansions.txt');
  const r = await opgate(['run', ...args], {
    env: { OPGATE_TRACE_EXPANSIONS: trace, TMPDIR: dir, ...env },
  });
  const lines = existsSync(trace) ? readFileSync(trace, 'utf8').split('\n').filter(Boolean) : [];
  const left = readdirSync(dir).filter((n) => n.startsWith('opgate'));
  return { ...r, lines, left };
}

describe('opgate run plans once', () => {
  test('one expansion for a plain, a sharded, a TD-ordered and a rerun-disabled run; no temp files', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'opgate-plan-db-')), 'r.db');
    const disabledFile = `${db}.disabled.json`;
    const quarantined = 'test_reference_neg_cpu_float32_contiguous_eager';
    writeFileSync(
      disabledFile,
      JSON.stringify({ [quarantined]: { issue: 1, url: 'https://x/1', platforms: [] } }),
    );
    const runs = await Promise.all([
      traced([...FILTERS, '--db', db, '--json']),
      traced([...FILTERS, '--db', `${db}.s`, '--shard', '2/3', '--json']),
      traced([
        ...FILTERS,
        '--db',
        `${db}.td`,
        '--changed',
        'src/oracles/dtypes.ts',
        '--td',
        'order',
        '--json',
      ]),
      traced([
        ...FILTERS,
        '--db',
        `${db}.rd`,
        '--disabled-file',
        disabledFile,
        '--rerun-disabled',
        '--reruns',
        '2',
        '--json',
      ]),
    ]);
    for (const r of runs) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.lines, r.stderr).toHaveLength(1);
      expect(r.left).toEqual([]);
    }
    const total = (r: { stdout: string }) => JSON.parse(r.stdout).total as number;
    expect(total(runs[0])).toBe(
      expandMatrix('pull', {
        op: ['neg'],
        device: ['cpu'],
        dtype: ['float32'],
        oracle: ['reference', 'dtypes'],
      }).length,
    );
    expect(total(runs[1])).toBeLessThan(total(runs[0]));
    expect(total(runs[2])).toBe(total(runs[0]));
    expect(JSON.parse(runs[3].stdout)).toMatchObject({ total: 1, passed: 1 });
  }, 240_000);

  test('one expansion for a resumed run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opgate-plan-'));
    const db = join(dir, 'r.db');
    // The same two template files: the resume's workers must not expand the matrix either.
    const args = [...FILTERS, '--db', db, '--json'];
    // The run to resume: killed (SIGKILL) right after its start committed, before vitest started; it reads
    // 'aborted'. How a run is stopped is run_signal's and store_boundaries' to show, not this test's.
    const first = await opgate(['run', ...args], { env: { OPGATE_DB_FAULT: 'kill@run-started' } });
    expect(first.code, first.stderr).toBeNull();
    const second = await traced([...args, '--resume']);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/resuming run \d+/);
    expect(second.lines, second.stderr).toHaveLength(1);
  }, 240_000);
});

describe('the plan and the result record', () => {
  const insts = expandMatrix('pull', { op: ['add'], oracle: ['reference'] });

  test('the plan is compact: per oracle, [op, device, dtype, layout] entries in run order', () => {
    const plan = toRunPlan(insts, [], 0);
    expect(Object.keys(plan.oracles)).toEqual(['reference']);
    expect(plan.oracles.reference?.[0]).toEqual([
      insts[0].op,
      insts[0].device,
      insts[0].dtype,
      insts[0].layout,
    ]);
    expect(plan.oracles.reference).toHaveLength(insts.length);
    // TD order: the affected first, the rest after, nothing lost.
    const affected = { all: false, ops: new Map(), oracles: new Set<string>(), reasons: [] };
    expect(narrow(insts, { disabled: [], affected: { by: affected, mode: 'select' } }).instances).toEqual([]);
    expect(narrow(insts, { disabled: [], affected: { by: affected, mode: 'order' } }).instances).toEqual(
      insts,
    );
  });

  test('a retried failure is one row with its attempts and its first failing message, once', () => {
    const record = {
      op: 'add',
      oracle: 'reference' as const,
      device: 'cpu',
      dtype: 'float32',
      layout: 'contiguous',
      mode: 'eager',
      seed: 1,
      expected: 'pass' as const,
      checks: 0,
    };
    const errors = [
      { message: 'attempt 1 failed' },
      { message: 'attempt 2 failed' },
      { message: 'attempt 3 failed' },
    ];
    const failed = resultRow('test_x', record, {
      state: 'failed',
      fails: false,
      retryCount: 2,
      errors,
      durationMs: 3,
    });
    expect(failed).toMatchObject({ status: 'fail', attempts: 3, message: 'attempt 1 failed' });
    const flaky = resultRow('test_x', record, {
      state: 'passed',
      fails: false,
      retryCount: 1,
      errors: errors.slice(0, 1),
      durationMs: 3,
    });
    expect(flaky).toMatchObject({ status: 'flaky', attempts: 2, message: 'attempt 1 failed' });
  });
});
