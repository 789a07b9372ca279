/**
 * The dashboards without a browser: the CLI (`opgate dashboard build|serve|demo`), the server's robustness and
 * read-only access, typed errors, and the reason/URL parsing the views rely on. The browser tests are in
 * dashboards/e2e/.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, test } from 'vitest';
import { gridData } from '../../dashboards/data/grid.ts';
import { openReadOnly } from '../../dashboards/data/index.ts';
import { serveDashboard } from '../../dashboards/index.ts';
import { seedDemoDb } from '../../dashboards/seed.ts';
import { parseReason, safeUrl } from '../../dashboards/shared.ts';
import { ResultsStore } from '../../src/ci/index.ts';
import { writeSqliteFile } from '../../src/ci/store/fixtures.ts';
import { passRow } from './run_helpers.ts';

const BIN = resolve(import.meta.dirname, '../../bin/opgate.mjs');
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'opgate-dashcli-'));
const DB = join(dir, 'seeded.db');
const OPS = ['add', 'sum', 'as_strided'];

/** Raw HTTP (the path is sent as written, `//` included). */
function get(url: string, path: string, method = 'GET'): Promise<{ status: number; body: string }> {
  return new Promise((done, reject) => {
    const req = request(`${url.replace(/\/$/, '')}${path}`, { method }, (res) => {
      let body = '';
      res.on('data', (c) => {
        body += c;
      });
      res.on('end', () => done({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(() => {
  seedDemoDb(DB, { commits: 10, shards: 2, ops: OPS });
});

describe('opgate dashboard (CLI)', () => {
  test('build writes the static site: shell, bundle, documents and the failing cells', async () => {
    const out = join(dir, 'site');
    const { stdout } = await run('node', [
      BIN,
      'dashboard',
      'build',
      '--db',
      DB,
      '--out',
      out,
      '--repo',
      'o/r',
    ]);
    expect(stdout).toMatch(/^wrote \d+ files/);
    for (const f of [
      'index.html',
      'app.js',
      'app.css',
      'data/meta.json',
      'data/grid.json',
      'data/tests.json',
      'data/mutation.json',
      'data/mutation/1.json',
    ])
      expect(existsSync(join(out, f)), f).toBe(true);
    const grid = JSON.parse(readFileSync(join(out, 'data/grid.json'), 'utf8'));
    expect(grid.commits).toHaveLength(10);
    const red = Object.entries(grid.cells as Record<string, { status: string }>).filter(
      ([, c]) => c.status === 'red',
    );
    expect(red.length).toBeGreaterThan(0);
    expect(JSON.parse(readFileSync(join(out, 'data/meta.json'), 'utf8')).repo).toBe('o/r');
    // The page carries its CSP (GitHub Pages serves no headers of ours).
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toContain("script-src 'self'");
  }, 60_000);

  test('bad input is a typed error and exit status 2', async () => {
    const missing = await run('node', [
      BIN,
      'dashboard',
      'build',
      '--db',
      join(dir, 'nope.db'),
      '--out',
      join(dir, 'x'),
    ]).catch((e) => e);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^E_DB_NOT_FOUND: --db: no results database at .*nope\.db/);
    const port = await run('node', [BIN, 'dashboard', '--db', DB, '--port', '70000']).catch((e) => e);
    expect(port.code).toBe(2);
    expect(port.stderr).toContain('E_BAD_PARAM: --port: got 70000, expected an integer in 0..65535');
    const repo = await run('node', [
      BIN,
      'dashboard',
      'build',
      '--db',
      DB,
      '--out',
      join(dir, 'y'),
      '--repo',
      'a b',
    ]).catch((e) => e);
    expect(repo.stderr).toContain('E_BAD_PARAM: --repo: got "a b", expected owner/name');
    const demo = await run('node', [BIN, 'dashboard', 'demo', DB]).catch((e) => e);
    expect(demo.stderr).toContain('exists; the demo only writes a new file');
  }, 60_000);

  test('an older schema is refused, not migrated behind the user', () => {
    const old = join(dir, 'old.db');
    writeSqliteFile(old, { version: 2, tables: 'none' });
    return expect(serveDashboard({ db: old, port: 0, repo: null })).rejects.toMatchObject({
      code: 'E_DB_SCHEMA',
    });
  });
});

describe('the server', () => {
  test('serves read-only: odd paths are 404s, writes are refused, the file is untouched', async () => {
    const before = statSync(DB);
    const d = await serveDashboard({ db: DB, port: 0, repo: null });
    try {
      expect((await get(d.url, '//')).status).toBe(404);
      expect((await get(d.url, '/data/../../etc/passwd')).status).toBe(404);
      expect((await get(d.url, '/data/nope.json')).status).toBe(404);
      // A mutation run's document exists for its id only.
      expect(JSON.parse((await get(d.url, '/data/mutation/1.json')).body).run.mrunId).toBe(1);
      expect((await get(d.url, '/data/mutation/999.json')).status).toBe(404);
      expect((await get(d.url, '/data/grid.json', 'POST')).status).toBe(405);
      const grid = await get(d.url, '/data/grid.json');
      expect(grid.status).toBe(200);
      expect(JSON.parse(grid.body).jobs.length).toBeGreaterThan(0);
      // Still up after all that.
      expect((await get(d.url, '/')).body).toContain('<main id="view"');
    } finally {
      await d.close();
    }
    const after = statSync(DB);
    expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs]);
  });
});

describe('reasons and links', () => {
  test('a rule reason keeps its issue; a quarantine skip names its issue', () => {
    expect(parseReason('bool overflow (issue #12)')).toEqual({ reason: 'bool overflow', issue: '#12' });
    expect(parseReason('disabled by issue #34 https://github.com/o/r/issues/34')).toEqual({
      reason: 'disabled (flaky quarantine)',
      issue: 'https://github.com/o/r/issues/34',
    });
    expect(parseReason('plain')).toEqual({ reason: 'plain', issue: null });
    expect(parseReason(null).reason).toBe('(no reason recorded)');
  });

  test('only http(s) links survive', () => {
    expect(safeUrl('https://github.com/o/r/issues/1')).toBe('https://github.com/o/r/issues/1');
    expect(safeUrl('javascript:alert(1)')).toBeNull();
    expect(safeUrl('data:text/html,<script>')).toBeNull();
    expect(safeUrl('not a url')).toBeNull();
  });
});

describe('which runs count', () => {
  test("a job is (shard, device filter, …): CI's cpu 1/2 and webgpu 1/2 both count; a re-run replaces its job", () => {
    const path = join(dir, 'jobs.db');
    const store = new ResultsStore(path);
    const row = (id: string, device: string, status: 'pass' | 'fail') => ({ ...passRow(id, device), status });
    const job = (device: string, status: 'pass' | 'fail', tmp: string) => {
      const run = store.startRun({
        commitSha: 'c1',
        branch: 'main',
        platform: 'linux',
        shard: '1/2',
        tier: 'pull',
        filters: JSON.stringify({ device: [device], idsFile: `/tmp/${tmp}/ids.txt` }),
      });
      store.addResults(run, [row(`test_reference_add_${device}`, device, status)]);
      store.endRun(run, status === 'pass' ? 'passed' : 'failed');
    };
    job('cpu', 'fail', 'a');
    job('webgpu', 'pass', 'b');
    job('cpu', 'pass', 'c'); // the cpu job re-run (another temp dir): it replaces the first attempt
    // A run still going, asked for two devices, has reported on one of them: both are running.
    const going = store.startRun({
      commitSha: 'c2',
      branch: 'main',
      platform: 'linux',
      shard: '1/1',
      tier: 'pull',
      filters: JSON.stringify({ device: ['cpu', 'meta'] }),
    });
    store.addResults(going, [row('test_reference_add_cpu', 'cpu', 'pass')]);
    store.close();
    const db = openReadOnly(path);
    try {
      const g = gridData(db);
      expect(g.jobs).toEqual(['1/1 cpu', '1/1 meta', '1/2 cpu', '1/2 webgpu']);
      expect(g.cells['c2 1/1 cpu']).toMatchObject({ status: 'running', pass: 1 });
      expect(g.cells['c2 1/1 meta']).toMatchObject({ status: 'running', total: 0 });
      expect(g.cells['c1 1/2 cpu']).toMatchObject({ status: 'green', pass: 1, fail: 0 });
      expect(g.cells['c1 1/2 webgpu']).toMatchObject({ status: 'green', pass: 1 });
    } finally {
      db.close();
    }
  });
});
