/**
 * The DISABLED-issue bot against a local fake of GitHub's REST API (tests/unit/fake_github.ts), after filing:
 * sync round trips, close-fixed evidence, and the token never leaking (the client and the CLI end to end).
 * Filing is in flaky_bot.test.ts; the shared setup is in flaky_bot_helpers.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, test, vi } from 'vitest';
import { registerFlakyCommands } from '../../src/ci/cli/flaky.ts';
import {
  closeFixed,
  disabledBy,
  fileIssues,
  githubClient,
  listDisabled,
  parseRepo,
  syncDisabled,
} from '../../src/ci/flaky/index.ts';
import { ResultsStore } from '../../src/ci/store/store.ts';
import {
  ALL,
  addRun,
  BROKEN,
  BY_ID,
  client,
  dir,
  fake,
  id,
  newStore,
  opts,
  R,
  SINGLES,
  seedHistory,
  TOKEN,
  titles,
} from './flaky_bot_helpers.ts';

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
