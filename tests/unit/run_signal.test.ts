/**
 * Ctrl-C and a CI cancellation: SIGINT and SIGTERM end the run as 'interrupted' with everything it reported
 * (exit 130 / 143, like a shell), and `--resume` takes an interrupted run up again. A run left 'running' by
 * such a signal is the defect this guards against.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ResultsReader } from '../../src/ci/store/reader.ts';
import type { StoredRun } from '../../src/ci/store/runs.ts';
import { bin, runRowExists, spawnRun, storedIds } from './run_helpers.ts';

// One op, two oracles (two template files, about 100 instances): a signal mid-run needs nothing more.
const FILTERS = ['--op', 'add', '--device', 'cpu,meta', '--oracle', 'reference,metadata'];

/** The database's one run. */
function runRow(db: string): StoredRun {
  const d = new ResultsReader(db);
  try {
    return d.runs()[0];
  } finally {
    d.close();
  }
}

describe('opgate run stopped by a signal', () => {
  test('SIGINT, then SIGTERM of its --resume: interrupted each time, with every reported result', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'opgate-sig-')), 'r.db');
    const args = [...FILTERS, '--db', db, '--json'];

    // Its own TMPDIR: the run's temporary folder must be gone after the signal too.
    const tmp = mkdtempSync(join(tmpdir(), 'opgate-sig-tmp-'));
    const first = spawnRun(args, { TMPDIR: tmp });
    await runRowExists(db, first);
    await first.reported(10);
    first.proc.kill('SIGINT');
    const a = await first.exited;
    expect(a.code, first.messages.join('\n')).toBe(130);
    const r1 = runRow(db);
    expect(r1.status).toBe('interrupted');
    expect(r1.endedAt).not.toBeNull();
    // Everything the child reported before the signal is stored: the handler commits the pending rows.
    const stored1 = storedIds(db, r1.runId);
    expect([...stored1].sort()).toEqual([...first.logged.keys()].sort());
    expect(first.messages.join('\n')).toMatch(/SIGINT: run \d+ interrupted .*--resume/);
    expect(readdirSync(tmp).filter((n) => n.startsWith('opgate-'))).toEqual([]);

    const second = spawnRun([...args, '--resume']);
    await second.said('resuming run');
    await second.reported(5);
    second.proc.kill('SIGTERM');
    expect((await second.exited).code, second.messages.join('\n')).toBe(143);
    const r2 = runRow(db);
    expect(r2).toMatchObject({ runId: r1.runId, status: 'interrupted' });
    for (const id of second.logged.keys()) expect(stored1.has(id), `${id} ran twice`).toBe(false);
    expect([...storedIds(db, r1.runId)].sort()).toEqual([...stored1, ...second.logged.keys()].sort());
  }, 180_000);

  test('--resume with nothing to resume is E_NOTHING_TO_RESUME, and creates no database', () => {
    const db = join(mkdtempSync(join(tmpdir(), 'opgate-sig-')), 'none.db');
    const r = spawnSync('node', [bin, 'run', ...FILTERS, '--db', db, '--resume'], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('E_NOTHING_TO_RESUME');
    expect(existsSync(db)).toBe(false);
  }, 120_000);
});
