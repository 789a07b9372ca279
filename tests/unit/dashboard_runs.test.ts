/**
 * The dashboards show a run whose process died as aborted, not running for ever; an interrupted run as
 * interrupted; neither is ever a green cell. Only a live writer (its pid on this host, or a fresh heartbeat
 * from another host) keeps a cell running.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { openReadOnly } from '../../dashboards/data/db.ts';
import { gridData } from '../../dashboards/data/grid.ts';
import { shardsData } from '../../dashboards/data/shards.ts';
import { ResultsStore, type RunPatch } from '../../src/ci/store/store.ts';
import { deadPid, passRow } from './run_helpers.ts';

const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

describe('dashboards: runs that did not finish', () => {
  test('killed (dead pid, or a stale heartbeat from another host) reads aborted; interrupted reads interrupted', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'opgate-dash-')), 'r.db');
    const store = new ResultsStore(path);
    // One commit, one job per device, each run a different way of (not) finishing.
    const job = (device: string, set: RunPatch | null, end?: 'passed' | 'interrupted') => {
      const run = store.startRun({
        commitSha: 'c1',
        branch: 'main',
        platform: 'linux',
        shard: '1/1',
        tier: 'pull',
        filters: JSON.stringify({ device: [device] }),
      });
      store.addResults(run, [passRow(`test_reference_add_${device}`, device)]);
      if (end) store.endRun(run, end);
      if (set) store.patchRun(run, set);
    };
    job('cpu', { pid: deadPid() }); // killed with SIGKILL on this host
    job('meta', { host: 'ci-runner-7', pid: 1234, heartbeatAt: ago(10 * 60_000) }); // its machine went away
    job('webgpu', { host: 'ci-runner-8', pid: 1234, heartbeatAt: ago(5_000) }); // alive elsewhere
    job('lazy', null); // this process: alive
    job('gone', null, 'interrupted');
    store.close();

    const db = openReadOnly(path);
    try {
      const g = gridData(db);
      const cell = (d: string) => g.cells[`c1 1/1 ${d}`]?.status;
      expect(cell('cpu')).toBe('aborted');
      expect(cell('meta')).toBe('aborted');
      expect(cell('webgpu')).toBe('running');
      expect(cell('lazy')).toBe('running');
      expect(cell('gone')).toBe('interrupted');
      const s = shardsData(db, 'c1');
      const status = Object.fromEntries(s.shards.map((x) => [x.devices, x.status]));
      expect(status).toEqual({
        cpu: 'aborted',
        meta: 'aborted',
        webgpu: 'running',
        lazy: 'running',
        gone: 'interrupted',
      });
      // An aborted run ended at its last heartbeat: it has a wall time, not "still running".
      for (const x of s.shards) expect(x.wallS === null, x.devices ?? '').toBe(x.status === 'running');
    } finally {
      db.close();
    }
  });
});
