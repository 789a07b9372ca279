/**
 * The DISABLED-issue bot against a local fake of GitHub's REST API (tests/unit/fake_github.ts): idempotent
 * filing (search before filing, comments instead of duplicates), aggregation above K, the per-run cap,
 * recovery after 502s and rate-limit replies, dry runs, sync round trips, close-fixed evidence, and the token
 * never leaking.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { registerFlakyCommands } from '../../src/ci/cli/flaky.ts';
import {
  closeFixed,
  disabledBy,
  EXCERPT_LIMIT,
  fileIssues,
  flakeStats,
  githubClient,
  listDisabled,
  opKeyOf,
  parseRepo,
  REENABLE_LINE,
  syncDisabled,
} from '../../src/ci/flaky/index.ts';
import { expandMatrix } from '../../src/ci/matrix.ts';
import { type ResultStatus, ResultsStore } from '../../src/ci/store/store.ts';
import { FakeGitHub } from './fake_github.ts';

const ALL = expandMatrix('full');
const BY_ID = new Map(ALL.map((i) => [i.id, i]));
const TOKEN = 'ghp_fakeSECRETtoken0123456789abcdef';
const REPO = { owner: 'acme', repo: 'tensors' };
const R = 'acme/tensors';
/** The fake server's clock: after the seeded history (January 2024), before the "new" runs (March 2024). */
const CLOCK = Date.parse('2024-02-01T00:00:00Z');

const id = (op: string, dtype = 'float32', layout = 'contiguous', oracle = 'reference', device = 'cpu') => {
  const s = `test_${oracle}_${op.replace(/\./g, '_')}_${device}_${dtype}_${layout}_eager`;
  if (!BY_ID.has(s)) throw new Error(`not in the matrix: ${s}`);
  return s;
};
/** Six instances of one op-level key (test_reference_add_cpu). */
const ADD6 = ['float32', 'float64', 'int32', 'int64']
  .map((d) => id('add', d))
  .concat(['transposed', 'strided'].map((l) => id('add', 'float32', l)));
const SINGLES = ['neg', 'abs', 'exp', 'sin', 'sqrt'].map((op) => id(op));
const BROKEN = id('log');

interface Seed {
  readonly id: string;
  readonly status: ResultStatus;
  readonly message?: string;
  readonly rerunPasses?: number;
  readonly rerunFailures?: number;
}

function addRun(store: ResultsStore, at: string, commit: string, rows: Seed[], kind = 'normal'): void {
  const run = store.startRun({ commitSha: commit, branch: 'main', platform: 'linux', tier: 'full', kind });
  store.db.prepare('UPDATE runs SET started_at = ? WHERE run_id = ?').run(at, run);
  store.addResults(
    run,
    rows.map((r) => {
      const i = BY_ID.get(r.id);
      if (!i) throw new Error(`unknown id ${r.id}`);
      return {
        id: r.id,
        op: i.op,
        oracle: i.oracle,
        device: i.device,
        dtype: i.dtype,
        layout: i.layout,
        mode: i.mode,
        status: r.status,
        durationMs: 1,
        attempts: r.status === 'flaky' ? 2 : 1,
        message: r.message ?? null,
        sample: null,
        seed: 1,
        checks: 1,
        rerunPasses: r.rerunPasses ?? null,
        rerunFailures: r.rerunFailures ?? null,
      };
    }),
  );
  store.endRun(run, 'passed');
}

/**
 * January 2024 history: `flaky` ids pass, then fail on the same commit, then are `flaky` (failed, passed on a
 * retry) — the first ids flip more (higher flip score); `broken` ids fail every time; `healthy` ids pass.
 */
function seedHistory(store: ResultsStore, flaky: string[], broken: string[] = [], healthy: string[] = []) {
  const day = (d: number) => `2024-01-${String(d).padStart(2, '0')}T10:00:00.000Z`;
  const rows = (k: number): Seed[] => [
    ...flaky.map((x, j): Seed => {
      // Earlier ids in `flaky` get more flips, so the ranking is deterministic.
      const flips = k < flaky.length - j + 1;
      return {
        id: x,
        status: k === 3 ? 'flaky' : flips && k % 2 === 1 ? 'fail' : 'pass',
        message: flips && k % 2 === 1 ? `AssertionError: ${x} mismatch at sample ${k}` : undefined,
      };
    }),
    ...broken.map((x): Seed => ({ id: x, status: 'fail', message: `${x} always fails` })),
    ...healthy.map((x): Seed => ({ id: x, status: 'pass' })),
  ];
  for (let k = 0; k < 8; k++) addRun(store, day(k + 1), k < 4 ? 'a'.repeat(40) : 'b'.repeat(40), rows(k));
}

let fake: FakeGitHub;
let logs: string[];
let dir: string;

beforeEach(async () => {
  fake = new FakeGitHub();
  fake.now = () => CLOCK;
  await fake.start();
  logs = [];
  dir = mkdtempSync(join(tmpdir(), 'opgate-flaky-'));
});

afterEach(async () => {
  await fake.stop();
  expect(logs.join('\n')).not.toContain(TOKEN);
});

const client = (extra: Parameters<typeof githubClient>[0] = {}) =>
  githubClient({ baseUrl: fake.baseUrl, token: TOKEN, retryBaseMs: 5, log: (l) => logs.push(l), ...extra });
const opts = { repo: REPO, instances: ALL, log: (l: string) => logs.push(l) };
const titles = () => fake.issues.filter((i) => i.repo === R).map((i) => i.title);
const posts = (suffix: string) =>
  fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith(suffix) && r.status < 300);
const newStore = () => new ResultsStore(join(dir, 'r.db'));

describe('file-issues', () => {
  test('three runs file each issue once; later runs comment only when there are new flaky results', async () => {
    const store = newStore();
    seedHistory(store, SINGLES.slice(0, 3), [BROKEN]);
    const gh = client();

    const r1 = await fileIssues(store, gh, opts);
    expect(r1.filed.map((f) => f.key).sort()).toEqual(SINGLES.slice(0, 3).sort());
    expect(r1.broken).toEqual([BROKEN]);
    expect(titles().sort()).toEqual(
      SINGLES.slice(0, 3)
        .map((s) => `DISABLED ${s}`)
        .sort(),
    );
    expect(r1.filed.every((f) => f.url.startsWith('https://github.test/acme/tensors/issues/'))).toBe(true);

    // Nothing new: no duplicate, no comment.
    const r2 = await fileIssues(store, gh, opts);
    expect(r2.filed).toEqual([]);
    expect(r2.commented).toEqual([]);
    expect(r2.upToDate.map((u) => u.keys[0]).sort()).toEqual(SINGLES.slice(0, 3).sort());

    // A new flake of one of them (after the issue was filed): a comment on its issue, still no duplicate.
    addRun(store, '2024-03-01T10:00:00.000Z', 'c'.repeat(40), [
      { id: SINGLES[0], status: 'flaky', message: 'new flake' },
    ]);
    const r3 = await fileIssues(store, gh, opts);
    expect(r3.filed).toEqual([]);
    const issue0 = fake.issues.find((i) => i.title === `DISABLED ${SINGLES[0]}`);
    expect(r3.commented).toEqual([{ issue: issue0?.number, keys: [SINGLES[0]] }]);
    expect(issue0?.comments).toHaveLength(1);
    expect(issue0?.comments[0].body).toContain('Still flaky');
    expect(issue0?.comments[0].body).toContain('new flake');

    expect(titles()).toHaveLength(3);
    expect(new Set(titles()).size).toBe(3);
    expect(posts('/acme/tensors/issues')).toHaveLength(3);
    // It searched before filing, and never filed the broken test.
    expect(fake.requests.some((r) => r.path === '/search/issues' && r.query.q.includes(SINGLES[0]))).toBe(
      true,
    );
    expect(titles().some((t) => t.includes(BROKEN))).toBe(false);
    store.close();
  });

  test('the issue: title, labels with the family, history, bounded excerpt, repro, dashboard link, re-enable rule', async () => {
    const store = newStore();
    seedHistory(store, [SINGLES[0]]);
    addRun(store, '2024-01-20T00:00:00.000Z', 'd'.repeat(40), [
      { id: SINGLES[0], status: 'flaky', message: `Error:\n\`\`\`\ninner fence\n${'x'.repeat(5000)}` },
    ]);
    await fileIssues(store, client(), { ...opts, dashboardUrl: 'https://dash.example/ci/' });
    const [issue] = fake.issues;
    expect(issue.title).toBe(`DISABLED ${SINGLES[0]}`);
    expect(issue.labels).toEqual(['skipped', 'module: flaky-tests', 'family: unary']);
    const b = issue.body;
    expect(b).toMatch(/First seen: 2024-01-0\dT.*Last seen: 2024-01-20T/);
    expect(b).toContain('`aaaaaaaaaaaa`');
    expect(b).toContain('`dddddddddddd`');
    expect(b).toContain(`npx opgate repro ${SINGLES[0]}`);
    expect(b).toContain(`https://dash.example/ci/#/search?q=${SINGLES[0]}`);
    expect(b).toContain(REENABLE_LINE);
    expect(b).toContain('more characters)');
    expect(b.length).toBeLessThan(EXCERPT_LIMIT + 3000);
    // The excerpt's fence is longer than any backtick run inside it, so the body's Markdown stays intact.
    expect(b).toContain('````text');
    // No `Platforms:` line: it disables the test everywhere.
    expect(b).not.toMatch(/^\s*platforms\s*:/im);
    store.close();
  });

  test('more than K flaky instances of one op -> one aggregate op-level issue; K or fewer -> one each', async () => {
    const store = newStore();
    seedHistory(store, [...ADD6, SINGLES[0]]);
    const r = await fileIssues(store, client(), { ...opts, k: 5 });
    const opKey = opKeyOf({ oracle: 'reference', op: 'add', device: 'cpu' });
    expect(opKey).toBe('test_reference_add_cpu');
    expect(titles().sort()).toEqual([`DISABLED ${opKey}`, `DISABLED ${SINGLES[0]}`].sort());
    const agg = fake.issues.find((i) => i.title === `DISABLED ${opKey}`);
    for (const x of ADD6) expect(agg?.body).toContain(`\`${x}\``);
    expect(agg?.body).toContain('6 instances of `test_reference_add_cpu` are flaky');
    expect(agg?.body).toContain('npx opgate run --op add --oracle reference --device cpu');
    expect(agg?.labels).toContain('family: binary');
    expect(r.filed.find((f) => f.key === opKey)?.ids.sort()).toEqual([...ADD6].sort());

    // K = 6: not above K, so six instance issues (in a fresh repository).
    const r6 = await fileIssues(store, client(), { ...opts, repo: { owner: 'acme', repo: 'other' }, k: 6 });
    expect(r6.filed.map((f) => f.key).sort()).toEqual([...ADD6, SINGLES[0]].sort());

    // A later flake of one member comments on the op-level issue rather than filing an instance issue.
    addRun(store, '2024-03-01T00:00:00.000Z', 'e'.repeat(40), [{ id: ADD6[0], status: 'flaky' }]);
    const again = await fileIssues(store, client(), { ...opts, k: 5 });
    expect(again.filed).toEqual([]);
    expect(again.commented.map((c) => c.issue)).toContain(agg?.number);
    store.close();
  });

  test('an issue a person opened without labels is found by search: commented and labelled, not duplicated', async () => {
    const store = newStore();
    seedHistory(store, [SINGLES[0]]);
    addRun(store, '2024-03-01T00:00:00.000Z', 'f'.repeat(40), [{ id: SINGLES[0], status: 'flaky' }]);
    const mine = fake.addIssue(R, { title: `DISABLED ${SINGLES[0]}`, body: 'seen it flake' });
    // A closed one and a PR with the same title are not "existing open issues".
    fake.addIssue(R, { title: `DISABLED ${SINGLES[0]}`, state: 'closed', labels: ['skipped'] });
    fake.addIssue(R, { title: `DISABLED ${SINGLES[0]}`, pullRequest: true });
    const r = await fileIssues(store, client(), opts);
    expect(r.filed).toEqual([]);
    expect(r.commented).toEqual([{ issue: mine.number, keys: [SINGLES[0]] }]);
    expect(mine.labels).toEqual(['skipped', 'module: flaky-tests']);
    expect(posts('/acme/tensors/issues')).toHaveLength(0);
    store.close();
  });

  test('at most M new issues per run, highest flip score first; the rest follow in later runs', async () => {
    const store = newStore();
    seedHistory(store, SINGLES);
    const ranked = flakeStats(store)
      .filter((s) => s.verdict === 'flaky')
      .map((s) => s.id);
    const gh = client();
    const r1 = await fileIssues(store, gh, { ...opts, maxIssues: 2 });
    expect(r1.filed.map((f) => f.key)).toEqual(ranked.slice(0, 2));
    expect(r1.skippedByCap).toEqual(ranked.slice(2));
    const r2 = await fileIssues(store, gh, { ...opts, maxIssues: 2 });
    expect(r2.filed.map((f) => f.key)).toEqual(ranked.slice(2, 4));
    const r3 = await fileIssues(store, gh, { ...opts, maxIssues: 2 });
    expect(r3.filed.map((f) => f.key)).toEqual(ranked.slice(4));
    expect(r3.skippedByCap).toEqual([]);
    expect(titles().sort()).toEqual(SINGLES.map((s) => `DISABLED ${s}`).sort());
    store.close();
  });

  test('--dry-run writes nothing (and needs no token) but reports every action', async () => {
    const store = newStore();
    seedHistory(store, [...ADD6, SINGLES[0]], [BROKEN]);
    const anon = githubClient({ baseUrl: fake.baseUrl, env: {}, log: (l) => logs.push(l) });
    expect(anon.authenticated).toBe(false);
    const r = await fileIssues(store, anon, { ...opts, dryRun: true });
    expect(r.dryRun).toBe(true);
    expect(r.actions.map((a) => (a.action === 'file' ? a.title : a.action)).sort()).toEqual(
      ['DISABLED test_reference_add_cpu', `DISABLED ${SINGLES[0]}`].sort(),
    );
    expect(r.broken).toEqual([BROKEN]);
    expect(fake.writes()).toEqual([]);
    expect(fake.requests.length).toBeGreaterThan(0);
    expect(fake.issues).toEqual([]);
    // Without a token a real run refuses before any request.
    const before = fake.requests.length;
    await expect(fileIssues(store, anon, opts)).rejects.toThrow(/GITHUB_TOKEN is not set/);
    expect(fake.requests.length).toBe(before);
    store.close();
  });
});

describe('recovery', () => {
  test('502s: reads are retried; a create that failed before or after the write files exactly one issue', async () => {
    const store = newStore();
    seedHistory(store, SINGLES.slice(0, 3));
    const isCreate = (m: string, p: string) => m === 'POST' && p === '/repos/acme/tensors/issues';
    fake.failNext(2, '502', (m, p) => m === 'GET' && p === '/repos/acme/tensors/issues');
    fake.failNext(1, '502', (_m, p) => p === '/search/issues');
    fake.failNext(1, '502', isCreate); // the first create: nothing written, 502
    fake.failNext(1, '502-after-write', isCreate); // the next: written, then 502
    const r = await fileIssues(store, client(), opts);
    expect(r.filed).toHaveLength(3);
    expect(titles().sort()).toEqual(
      SINGLES.slice(0, 3)
        .map((s) => `DISABLED ${s}`)
        .sort(),
    );
    // The issue created behind a 502 was adopted, not filed twice.
    expect(new Set(r.filed.map((f) => f.number)).size).toBe(3);
    expect(fake.requests.filter((x) => x.status === 502)).toHaveLength(5);
    expect(logs.some((l) => /checking whether "DISABLED .*" was filed anyway/.test(l))).toBe(true);
    // And a rerun still files nothing new.
    expect((await fileIssues(store, client(), opts)).filed).toEqual([]);
    expect(titles()).toHaveLength(3);
    store.close();
  });

  test('a create that keeps failing with 502 gives up (a redacted error) and the next run files it once', async () => {
    const store = newStore();
    seedHistory(store, [SINGLES[0]]);
    fake.failNext(4, '502', (m, p) => m === 'POST' && p === '/repos/acme/tensors/issues');
    const gh = client();
    const err = await fileIssues(store, gh, opts).then(
      () => null,
      (e) => e,
    );
    expect(gh.describe(err)).toMatch(/^GitHub 502 on POST .*\/repos\/acme\/tensors\/issues/);
    expect(fake.issues).toEqual([]);
    const r = await fileIssues(store, gh, opts);
    expect(r.filed).toHaveLength(1);
    expect(titles()).toEqual([`DISABLED ${SINGLES[0]}`]);
    store.close();
  });

  test('403 secondary rate limit: waits retry-after (1 s), then retries; primary rate limit likewise', async () => {
    const store = newStore();
    seedHistory(store, [SINGLES[0]]);
    fake.failNext(1, 'secondary-rate-limit', (m, p) => m === 'POST' && p === '/repos/acme/tensors/issues');
    fake.failNext(1, 'rate-limit', (_m, p) => p === '/search/issues', 0);
    const t0 = performance.now();
    const r = await fileIssues(store, client(), opts);
    const elapsed = performance.now() - t0;
    expect(r.filed).toHaveLength(1);
    expect(titles()).toEqual([`DISABLED ${SINGLES[0]}`]);
    expect(elapsed).toBeGreaterThanOrEqual(950);
    const creates = fake.requests.filter((x) => x.method === 'POST').map((x) => x.status);
    expect(creates).toEqual([403, 201]);
    expect(logs.some((l) => /secondary rate limit on POST .* retrying after 1 s/.test(l))).toBe(true);
    expect(logs.some((l) => /rate limit on GET .*search/.test(l))).toBe(true);
    store.close();
  });

  test('a rate limit that outlasts the retries fails the run without a duplicate; the next run recovers', async () => {
    const store = newStore();
    seedHistory(store, [SINGLES[0]]);
    fake.failNext(2, 'secondary-rate-limit', (m, p) => m === 'POST' && p === '/repos/acme/tensors/issues');
    const gh = client({ rateLimitRetries: 1, retryAfterBaseMs: 10 });
    await expect(fileIssues(store, gh, opts)).rejects.toThrow(/secondary rate limit/);
    expect(logs.some((l) => l.includes('giving up'))).toBe(true);
    expect(fake.issues).toEqual([]);
    expect((await fileIssues(store, gh, opts)).filed).toHaveLength(1);
    expect(titles()).toHaveLength(1);
    store.close();
  });
});

describe('sync', () => {
  test('round trip: filed issues disable; closing one on GitHub re-enables; opening one disables', async () => {
    const store = newStore();
    seedHistory(store, SINGLES.slice(0, 2));
    const gh = client();
    await fileIssues(store, gh, opts);
    const s1 = await syncDisabled(store, gh, opts);
    expect(s1.added.sort()).toEqual(SINGLES.slice(0, 2).sort());
    const inst0 = BY_ID.get(SINGLES[0]);
    if (!inst0) throw new Error('no instance');
    expect(disabledBy(listDisabled(store), inst0, 'linux')?.issueUrl).toMatch(/^https:\/\/github.test\//);

    // A person closes the first issue: the test is re-enabled.
    const issue0 = fake.issues.find((i) => i.title === `DISABLED ${SINGLES[0]}`);
    fake.setState(R, issue0?.number ?? 0, 'closed');
    const s2 = await syncDisabled(store, gh, opts);
    expect(s2.removed).toEqual([SINGLES[0]]);
    expect(disabledBy(listDisabled(store), inst0, 'linux')).toBeNull();

    // A person opens an (unlabelled) issue for another test, limited to mac; and two that name nothing real.
    const opened = fake.addIssue(R, {
      title: `DISABLED ${SINGLES[3]}`,
      body: 'Platforms: mac\nflaky on my laptop',
    });
    fake.addIssue(R, { title: 'DISABLED test_reference_nosuchop_cpu', labels: ['skipped'] });
    fake.addIssue(R, { title: 'DISABLED some words', labels: ['skipped'] });
    const s3 = await syncDisabled(store, gh, opts);
    expect(s3.added).toEqual([SINGLES[3]]);
    expect(s3.unknown).toEqual([{ key: 'test_reference_nosuchop_cpu', issue: expect.any(Number) }]);
    expect(s3.malformed.map((m) => m.title)).toEqual(['DISABLED some words']);
    const entry = listDisabled(store).find((e) => e.key === SINGLES[3]);
    expect(entry).toMatchObject({ issueNumber: opened.number, platforms: ['mac'] });
    const inst3 = BY_ID.get(SINGLES[3]);
    if (!inst3) throw new Error('no instance');
    expect(disabledBy(listDisabled(store), inst3, 'mac')).not.toBeNull();
    expect(disabledBy(listDisabled(store), inst3, 'linux')).toBeNull();

    // Reopening the first issue disables it again.
    fake.setState(R, issue0?.number ?? 0, 'open');
    expect((await syncDisabled(store, gh, opts)).added).toEqual([SINGLES[0]]);
    expect(fake.writes().filter((w) => w.path.includes('/issues/'))).toEqual([]);
    store.close();
  });

  test('pages through more than 100 open issues (Link rel="next"), retrying a 502 on page 2', async () => {
    const store = newStore();
    const ids = ALL.filter((i) => i.oracle === 'reference' && i.device === 'cpu')
      .slice(0, 130)
      .map((i) => i.id);
    for (const x of ids)
      fake.addIssue(R, { title: `DISABLED ${x}`, labels: ['skipped', 'module: flaky-tests'] });
    fake.failNext(
      1,
      '502',
      (m, p, q) => m === 'GET' && p === '/repos/acme/tensors/issues' && q.get('page') === '2',
    );
    const s = await syncDisabled(store, client(), opts);
    expect(s.entries.map((e) => e.key).sort()).toEqual([...ids].sort());
    expect(listDisabled(store)).toHaveLength(130);
    const pages = fake.requests
      .filter((r) => r.path === '/repos/acme/tensors/issues')
      .map((r) => r.query.page);
    expect(pages).toContain('2');
    store.close();
  });

  test('a listing that fails leaves the disabled list as it was (nothing re-enabled by accident)', async () => {
    const store = newStore();
    fake.addIssue(R, { title: `DISABLED ${SINGLES[0]}`, labels: ['skipped'] });
    await syncDisabled(store, client(), opts);
    fake.failNext(10, '502', (_m, p) => p === '/repos/acme/tensors/issues');
    await expect(syncDisabled(store, client({ retries: 1 }), opts)).rejects.toThrow();
    expect(listDisabled(store).map((e) => e.key)).toEqual([SINGLES[0]]);
    store.close();
  });
});

describe('close-fixed', () => {
  test('closes with evidence at >= 150 passes and 0 failures; keeps 149 and any failure; closes stale keys', async () => {
    const store = newStore();
    const [a, b, c] = SINGLES;
    const sinOp = 'test_reference_sin_cpu';
    const sinIds = [id('sin', 'float64'), id('sin', 'float32', 'transposed')];
    const issue = (title: string) => fake.addIssue(R, { title, labels: ['skipped', 'module: flaky-tests'] });
    const ia = issue(`DISABLED ${a}`);
    const ib = issue(`DISABLED ${b}`);
    const ic = issue(`DISABLED ${c}`);
    const iop = issue(`DISABLED ${sinOp}`);
    const stale = issue('DISABLED test_reference_add_cpu_float32_nosuchlayout_eager');
    await syncDisabled(store, client(), opts);
    expect(listDisabled(store).map((e) => e.key)).toEqual([a, b, c, sinOp].sort());

    const rerun = (p: number[], f: number[]) => ({ p, f });
    const plan: Record<string, { p: number[]; f: number[] }> = {
      [a]: rerun([50, 50, 50], [0, 0, 0]), // 150 / 0 -> re-enable
      [b]: rerun([50, 50, 49], [0, 0, 0]), // 149 / 0 -> keep
      [c]: rerun([70, 70, 69], [0, 0, 1]), // 209 / 1 -> keep
      [sinIds[0]]: rerun([40, 40, 20], [0, 0, 0]), // op-level key: 100 + 60 over its instances -> re-enable
      [sinIds[1]]: rerun([20, 20, 20], [0, 0, 0]),
    };
    for (let k = 0; k < 3; k++)
      addRun(
        store,
        `2024-01-1${k}T00:00:00.000Z`,
        'c'.repeat(40),
        Object.entries(plan).map(([x, e]) => ({
          id: x,
          status: e.f[k] ? 'fail' : 'pass',
          rerunPasses: e.p[k],
          rerunFailures: e.f[k],
        })),
        'rerun-disabled',
      );

    // Dry run first: nothing written.
    const dry = await closeFixed(store, client(), { ...opts, dryRun: true });
    expect(dry.closed.map((x) => x.key).sort()).toEqual([a, sinOp].sort());
    expect(fake.writes()).toEqual([]);

    const r = await closeFixed(store, client(), { ...opts, minPasses: 150 });
    expect(r.closed.map((x) => [x.key, x.passes, x.failures])).toEqual(
      expect.arrayContaining([
        [a, 150, 0],
        [sinOp, 160, 0],
      ]),
    );
    expect(r.keptOpen.map((x) => [x.key, x.passes, x.failures])).toEqual([
      [b, 149, 0],
      [c, 209, 1],
    ]);
    expect(r.stale).toEqual([
      { key: 'test_reference_add_cpu_float32_nosuchlayout_eager', issue: stale.number },
    ]);
    expect(ia.state).toBe('closed');
    expect(ia.stateReason).toBe('completed');
    expect(ia.comments[0].body).toContain('passed 150 time(s) and failed 0 time(s)');
    expect(ia.comments[0].body).toContain('at least 150 passes');
    expect(iop.state).toBe('closed');
    expect(iop.comments[0].body).toContain('across its');
    expect(ib.state).toBe('open');
    expect(ic.state).toBe('open');
    expect(ib.comments).toEqual([]);
    expect(stale.state).toBe('closed');
    expect(stale.stateReason).toBe('not_planned');
    expect(stale.comments[0].body).toContain('names no test in the current matrix');
    // The comment comes before the close.
    const writes = fake
      .writes()
      .filter((w) => w.path.endsWith(`/issues/${ia.number}`) || w.path.includes(`/issues/${ia.number}/`));
    expect(writes.map((w) => w.method)).toEqual(['POST', 'PATCH']);
    // Re-enabled locally at once, and sync agrees.
    expect(listDisabled(store).map((e) => e.key)).toEqual([b, c]);
    expect((await syncDisabled(store, client(), opts)).removed).toEqual([]);
    expect(listDisabled(store).map((e) => e.key)).toEqual([b, c]);

    // A 502 on the close is retried.
    addRun(
      store,
      '2024-01-20T00:00:00.000Z',
      'c'.repeat(40),
      [{ id: b, status: 'pass', rerunPasses: 50, rerunFailures: 0 }],
      'rerun-disabled',
    );
    fake.failNext(1, '502', (m) => m === 'PATCH');
    const r2 = await closeFixed(store, client(), opts);
    expect(r2.closed.map((x) => x.key)).toEqual([b]);
    expect(ib.state).toBe('closed');
    store.close();
  });
});

describe('token hygiene and the CLI', () => {
  test('client: token from GITHUB_TOKEN only, base URL from GITHUB_API_URL, repo from --repo or GITHUB_REPOSITORY', () => {
    const gh = githubClient({ env: { GITHUB_TOKEN: TOKEN, GITHUB_API_URL: `${fake.baseUrl}/` } });
    expect(gh.authenticated).toBe(true);
    expect(gh.baseUrl).toBe(fake.baseUrl);
    expect(JSON.stringify(gh)).not.toContain(TOKEN);
    expect(gh.describe(new Error(`failed with ${TOKEN} inside`))).toBe('failed with *** inside');
    expect(() => githubClient({ env: {}, requireToken: true })).toThrow(/GITHUB_TOKEN is not set/);
    expect(githubClient({ env: {} }).baseUrl).toBe('https://api.github.com');
    expect(parseRepo('a/b')).toEqual({ owner: 'a', repo: 'b' });
    expect(parseRepo(undefined, { GITHUB_REPOSITORY: 'o/r' })).toEqual({ owner: 'o', repo: 'r' });
    expect(() => parseRepo(undefined, {})).toThrow(/--repo/);
    expect(() => parseRepo('nope', {})).toThrow(/owner\/name/);
  });

  test('opgate flaky file-issues / sync / close-fixed / list end to end: the token is never printed or stored', async () => {
    const db = join(dir, 'cli.db');
    const store = new ResultsStore(db);
    seedHistory(store, [SINGLES[0], SINGLES[1]], [BROKEN]);
    store.close();
    const out: string[] = [];
    const capture = (...a: unknown[]) => out.push(a.map(String).join(' '));
    const spies = [
      vi.spyOn(console, 'log').mockImplementation(capture),
      vi.spyOn(console, 'error').mockImplementation(capture),
    ];
    const saved = { ...process.env };
    const exitCode = process.exitCode;
    process.env.GITHUB_TOKEN = TOKEN;
    process.env.GITHUB_API_URL = fake.baseUrl;
    process.env.GITHUB_REPOSITORY = R;
    const cli = async (...args: string[]) => {
      const program = new Command('opgate').exitOverride();
      registerFlakyCommands(program);
      await program.parseAsync(['flaky', ...args], { from: 'user' });
    };
    try {
      await cli('file-issues', '--db', db, '--dry-run');
      expect(out.join('\n')).toContain(`would file "DISABLED ${SINGLES[0]}"`);
      expect(fake.writes()).toEqual([]);
      await cli('file-issues', '--db', db, '--max-issues', '1');
      expect(out.join('\n')).toMatch(/cap of 1 new issue\(s\) reached; not filed: test_/);
      expect(out.join('\n')).toContain(`broken (always failing; not quarantined, fix them): ${BROKEN}`);
      await cli('file-issues', '--db', db, '--json');
      expect(titles()).toHaveLength(2);
      const exported = join(dir, 'disabled-tests.json');
      await cli('sync', '--db', db, '--export', exported);
      expect(Object.keys(JSON.parse(readFileSync(exported, 'utf8'))).sort()).toEqual(
        [SINGLES[0], SINGLES[1]].sort(),
      );
      await cli('close-fixed', '--db', db);
      expect(out.join('\n')).toContain('0 re-enabled, 0 stale, 2 still disabled');
      await cli('list', '--db', db);
      expect(out.join('\n')).toMatch(new RegExp(`broken .*${BROKEN}`));
      await cli('list', '--db', db, '--json');

      // Errors are reported (redacted), not thrown: GitHub asks for an hour's wait, which is not waited for.
      fake.failNext(100, 'secondary-rate-limit', () => true, 3600);
      const n = out.length;
      await cli('sync', '--db', db, '--repo', 'acme/tensors');
      expect(out.slice(n).join('\n')).toMatch(/^error: GitHub 403 on GET .*secondary rate limit/m);
      expect(process.exitCode).toBe(1);
      process.exitCode = exitCode;

      // No token: writing commands refuse.
      delete process.env.GITHUB_TOKEN;
      await cli('file-issues', '--db', db);
      expect(out.join('\n')).toContain('error: GITHUB_TOKEN is not set');
    } finally {
      process.env = saved;
      process.exitCode = exitCode;
      for (const s of spies) s.mockRestore();
    }
    expect(out.join('\n')).not.toContain(TOKEN);
    expect(fake.requests.filter((r) => r.method !== 'GET').every((r) => r.authorized)).toBe(true);
    for (const f of [db, `${db}-wal`, `${db}-shm`])
      if (existsSync(f)) expect(readFileSync(f).includes(Buffer.from(TOKEN))).toBe(false);
  }, 60_000);
});
