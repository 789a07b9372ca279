/**
 * The DISABLED-issue bot against a local fake of GitHub's REST API (tests/unit/fake_github.ts), filing issues:
 * idempotent filing (search before filing, comments instead of duplicates), aggregation above K, the per-run
 * cap, dry runs, and recovery after 502s and rate-limit replies. Sync, close-fixed and the CLI are in
 * flaky_bot_sync.test.ts; the shared setup is in flaky_bot_helpers.ts.
 */
import { describe, expect, test } from 'vitest';
import {
  EXCERPT_LIMIT,
  fileIssues,
  flakeStats,
  githubClient,
  opKeyOf,
  REENABLE_LINE,
} from '../../src/ci/flaky/index.ts';
import {
  ADD6,
  addRun,
  BROKEN,
  client,
  fake,
  logs,
  newStore,
  opts,
  posts,
  R,
  SINGLES,
  seedHistory,
  titles,
} from './flaky_bot_helpers.ts';

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
