/**
 * Interruptions aimed at the boundaries, not at random moments: `opgate run` killed (SIGKILL, OPGATE_DB_FAULT=
 * kill@<boundary>) right after its start committed, between a result and its commit, and with every result
 * committed but the run not ended; `opgate merge` killed between two sources. Each time `--resume` (or merging
 * again) completes with every instance exactly once. And first use under concurrency: 20 processes opening one
 * new file at once all succeed; two shards started together on one file run exactly their parts.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { expandMatrix } from '../../src/ci/matrix.ts';
import { dropResult, integrityCheck } from '../../src/ci/store/fixtures.ts';
import { SCHEMA_VERSION } from '../../src/ci/store/migrations.ts';
import { ResultsStore } from '../../src/ci/store/store.ts';
import { opgate } from './run_helpers.ts';
import { completeRunDb, SELECTION } from './store_fault_helpers.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'opgate-boundaries-'));
const RUN = [
  'run',
  '--op',
  'add',
  '--device',
  'cpu',
  '--dtype',
  'float32',
  '--oracle',
  'reference',
  '--json',
];
const IDS = expandMatrix('pull', { op: ['add'], device: ['cpu'], dtype: ['float32'], oracle: ['reference'] })
  .map((i) => i.id)
  .sort();

/** The database's runs: status and result ids. */
function stored(db: string): { status: string; ids: string[] }[] {
  const s = new ResultsStore(db);
  try {
    return s.runs().map((r) => ({
      status: r.status,
      ids: s
        .results(r.runId)
        .map((x) => x.id)
        .sort(),
    }));
  } finally {
    s.close();
  }
}

/**
 * tests/unit/open_store.mjs on `db`: `ready` once it has loaded the store (or has exited), `done` when it has
 * exited; it opens the file on SIGUSR2.
 */
function opener(db: string) {
  const proc = spawn('node', [join(import.meta.dirname, 'open_store.mjs'), db], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let loaded = () => {};
  const ready = new Promise<void>((r) => {
    loaded = r;
  });
  proc.stdout.setEncoding('utf8').on('data', (c: string) => {
    stdout += c;
  });
  proc.stderr.setEncoding('utf8').on('data', (c: string) => {
    stderr += c;
    if (stderr.includes('ready\n')) loaded();
  });
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    proc.on('close', (code) => {
      loaded();
      resolve({ code, stdout, stderr });
    }),
  );
  return { proc, ready, done };
}

describe('kills at each boundary', () => {
  test('opgate run: after its start, between a result and its commit, before its end; --resume completes', async () => {
    // `reportedBefore`: the results reported before the kill, which the store may hold (a result reported but not
    // committed is lost, never more than that).
    const cases = [
      { at: 'run-started', reportedBefore: 0 },
      { at: 'result-reported#3', reportedBefore: 2 },
      { at: 'before-end', reportedBefore: IDS.length },
    ];
    const dbs = cases.map(() => join(tmp(), 'r.db'));
    const killed = await Promise.all(
      cases.map((c, k) =>
        opgate([...RUN, '--db', dbs[k]], {
          env: { OPGATE_DB_FAULT: `kill@${c.at}`, OPGATE_LOG_RESULTS: '1' },
        }),
      ),
    );
    cases.forEach((c, k) => {
      expect(killed[k].code, `${c.at}: ${killed[k].stderr}`).toBeNull();
      expect(integrityCheck(dbs[k])).toBe('ok');
      const runs = stored(dbs[k]);
      expect(
        runs.map((r) => r.status),
        c.at,
      ).toEqual(['aborted']);
      const logged = [...killed[k].stderr.matchAll(/^opgate-result \d+ \w+ (\S+)$/gm)].map((m) => m[1]);
      if (c.at === 'result-reported#3') expect(logged, c.at).toHaveLength(3);
      // What is stored was reported before the kill; the result the kill interrupted is not.
      for (const id of runs[0].ids) expect(logged.slice(0, c.reportedBefore), c.at).toContain(id);
      if (c.at === 'before-end') expect(runs[0].ids, 'every result committed before the end').toEqual(IDS);
      if (c.at === 'run-started') expect(runs[0].ids).toEqual([]);
    });
    const resumed = await Promise.all(dbs.map((db) => opgate([...RUN, '--db', db, '--resume'])));
    cases.forEach((c, k) => {
      expect(resumed[k].code, `${c.at}: ${resumed[k].stderr}`).toBe(0);
      expect(stored(dbs[k]), c.at).toEqual([{ status: 'passed', ids: IDS }]);
    });
  }, 180_000);

  test('opgate merge: between two sources; merging again completes', async () => {
    const dir = tmp();
    const sources = [1, 2].map((k) => completeRunDb(join(dir, `s${k}.db`), { shard: `${k}/2` }));
    const into = join(dir, 'm.db');
    const killed = await opgate(['merge', ...sources, '--into', into], {
      env: { OPGATE_DB_FAULT: 'kill@merge-source' },
    });
    expect(killed.code, killed.stderr).toBeNull();
    expect(integrityCheck(into)).toBe('ok');
    expect(stored(into).map((r) => r.ids.length)).toEqual([SELECTION.length]);
    const again = await opgate(['merge', ...sources, '--into', into]);
    expect(again.code, again.stderr).toBe(0);
    expect(stored(into).map((r) => r.ids.length)).toEqual([SELECTION.length, SELECTION.length]);
  }, 60_000);
});

describe('first use and shards under concurrency', () => {
  test('20 processes opening one new file at once: all succeed, one schema', async () => {
    const db = join(tmp(), 'new.db');
    // Each process loads the store and waits for one signal, sent to all 20 once every one is loaded, so the 20
    // opens race (opgate before issue 45 crashed 28 of 60 such opens with "table runs already exists").
    const openers = Array.from({ length: 20 }, () => opener(db));
    await Promise.all(openers.map((o) => o.ready));
    for (const o of openers) o.proc.kill('SIGUSR2');
    for (const { code, stdout, stderr } of await Promise.all(openers.map((o) => o.done))) {
      expect(code, stderr).toBe(0);
      expect(stdout).toBe(String(SCHEMA_VERSION));
    }
    expect(integrityCheck(db)).toBe('ok');
  }, 120_000);

  test('two shards started together on one file run exactly their parts; verify fails once a result is gone', async () => {
    const db = join(tmp(), 'shared.db');
    const ops = [
      '--op',
      'add',
      '--device',
      'cpu,meta',
      '--dtype',
      'float32',
      '--oracle',
      'reference,metadata',
    ];
    const shards = await Promise.all(
      [1, 2].map((i) => opgate(['run', ...ops, '--db', db, '--shard', `${i}/2`, '--json'])),
    );
    for (const s of shards) expect(s.code, s.stderr).toBe(0);
    const whole = expandMatrix('pull', {
      op: ['add'],
      device: ['cpu', 'meta'],
      dtype: ['float32'],
      oracle: ['reference', 'metadata'],
    });
    const runs = stored(db);
    const all = runs.flatMap((r) => r.ids);
    expect(all.length, 'no instance twice').toBe(new Set(all).size);
    expect([...all].sort(), 'none missing').toEqual(whole.map((i) => i.id).sort());
    const ok = await opgate(['verify', '--db', db]);
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^ok {3}shard set \w+: 2 shard\(s\), \d+ instance\(s\)/);
    const s = new ResultsStore(db);
    const first = s.runs()[0];
    const gone = s.results(first.runId)[0].id;
    s.close();
    expect(dropResult(db, first.runId, gone)).toBe(1);
    const bad = await opgate(['verify', '--db', db]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain(
      `shard ${first.shard}: 1 planned instance(s) without a result (${gone}, ...)`,
    );
  }, 120_000);
});
