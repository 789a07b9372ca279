/**
 * `opgate merge` copies finished runs only, and a finished run replaces a partial copy merged before it: a
 * merge that ran while a shard was still writing must not freeze that shard half-way in the target.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { expandMatrix } from '../../src/ci/matrix.ts';
import { mergeDatabases } from '../../src/ci/store/merge.ts';
import { ResultsStore } from '../../src/ci/store/store.ts';
import { deadPid, passRow, refId, runRowExists, sleep, spawnRun } from './run_helpers.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'opgate-merge-'));

const INFO = { commitSha: 'abc', branch: 'main', platform: 'linux', tier: 'pull' } as const;

/** The target's runs: status and result count. */
function runsOf(path: string): { status: string; n: number }[] {
  const s = new ResultsStore(path);
  try {
    return s.runs().map((r) => ({ status: r.status, n: s.results(r.runId).length }));
  } finally {
    s.close();
  }
}

describe('merge copies finished runs', () => {
  test('a run still going is not copied; once it ends, all of it is', () => {
    const dir = tmp();
    const src = join(dir, 'shard.db');
    const into = join(dir, 'merged.db');
    const s = new ResultsStore(src);
    const run = s.startRun(INFO, [refId('a'), refId('b'), refId('c')]);
    s.addResults(run, [passRow(refId('a'))]);
    // This process is the run's writer, and it is alive: the run is going.
    expect(mergeDatabases([src], into)).toMatchObject({ runsAdded: 0, runsRunning: 1, resultsAdded: 0 });
    expect(runsOf(into)).toEqual([]);
    s.addResults(run, [passRow(refId('b')), passRow(refId('c'))]);
    s.endRun(run, 'passed');
    s.close();
    expect(mergeDatabases([src], into)).toMatchObject({ runsAdded: 1, resultsAdded: 3 });
    expect(runsOf(into)).toEqual([{ status: 'passed', n: 3 }]);
  });

  test('an aborted copy is replaced by the run resumed to the end, and a fuller partial copy by nothing less', () => {
    const dir = tmp();
    const src = join(dir, 'shard.db');
    const into = join(dir, 'merged.db');
    const s = new ResultsStore(src);
    const run = s.startRun(INFO, [refId('a'), refId('b'), refId('c')]);
    s.addResults(run, [passRow(refId('a'))]);
    // Its process was killed: the run reads aborted, a finished run that merge copies.
    s.patchRun(run, { pid: deadPid() });
    expect(mergeDatabases([src], into)).toMatchObject({ runsAdded: 1, resultsAdded: 1 });
    expect(runsOf(into)).toEqual([{ status: 'aborted', n: 1 }]);
    // Resumed, killed again with one more result: the fuller partial copy replaces the first.
    s.resumeRun(run);
    s.addResults(run, [passRow(refId('b'))]);
    s.patchRun(run, { pid: deadPid() });
    expect(mergeDatabases([src], into)).toMatchObject({ runsAdded: 0, runsReplaced: 1, resultsAdded: 2 });
    expect(runsOf(into)).toEqual([{ status: 'aborted', n: 2 }]);
    // Resumed to the end: the complete run replaces the partial copy; merging it again adds nothing.
    s.resumeRun(run);
    s.addResults(run, [passRow(refId('c'))]);
    s.endRun(run, 'passed');
    s.close();
    expect(mergeDatabases([src], into)).toMatchObject({ runsAdded: 0, runsReplaced: 1, resultsAdded: 3 });
    expect(mergeDatabases([src], into)).toMatchObject({ runsSkipped: 1, runsReplaced: 0, resultsAdded: 0 });
    expect(runsOf(into)).toEqual([{ status: 'passed', n: 3 }]);
  });

  test('a running copy left by an older merge is replaced by the finished run', () => {
    const dir = tmp();
    const src = join(dir, 'shard.db');
    const into = join(dir, 'merged.db');
    const s = new ResultsStore(src);
    const run = s.startRun(INFO);
    s.addResults(run, [passRow(refId('a')), passRow(refId('b'))]);
    s.endRun(run, 'failed');
    const started = s.run(run)!.startedAt;
    s.close();
    // What an older opgate's merge left: the same run (same key), 'running', half its results, no writer.
    const t = new ResultsStore(into);
    const copy = t.startRun(INFO);
    t.patchRun(copy, { startedAt: started, pid: null, host: null, heartbeatAt: null });
    t.addResults(copy, [passRow(refId('a'))]);
    t.patchRun(copy, { heartbeatAt: null });
    t.close();
    expect(mergeDatabases([src], into)).toMatchObject({ runsAdded: 0, runsReplaced: 1, resultsAdded: 2 });
    expect(runsOf(into)).toEqual([{ status: 'failed', n: 2 }]);
  });

  test('a merge during a real run, then another after it: the target holds the whole finished run', async () => {
    const dir = tmp();
    const src = join(dir, 'shard.db');
    const into = join(dir, 'merged.db');
    // Not the autograd and compile oracles: seconds each, and the merge does not care which oracle a row is of.
    const oracle = ['reference', 'golden', 'metadata', 'dtypes', 'errors', 'property'];
    const child = spawnRun([
      '--op',
      'add',
      '--device',
      'cpu,meta',
      '--oracle',
      oracle.join(','),
      '--db',
      src,
      '--json',
    ]);
    await runRowExists(src, child);
    // Some results in, or a few seconds: either way the run is going.
    await Promise.race([child.reported(30), sleep(8000)]);
    const during = mergeDatabases([src], into);
    expect(child.proc.exitCode, 'the run was still going during the first merge').toBeNull();
    expect(during).toMatchObject({ runsAdded: 0, runsRunning: 1 });
    expect((await child.exited).code, child.messages.join('\n')).toBe(0);
    expect(mergeDatabases([src], into)).toMatchObject({ runsAdded: 1, runsRunning: 0 });
    const total = expandMatrix('pull', { op: ['add'], device: ['cpu', 'meta'], oracle }).length;
    expect(runsOf(into)).toEqual([{ status: 'passed', n: total }]);
  }, 180_000);
});
