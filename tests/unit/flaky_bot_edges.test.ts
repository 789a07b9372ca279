/**
 * The bot's edges: DISABLED titles differing only in letter case name the same key (filing never duplicates
 * them, sync parses them the same way), and a GitHub that cannot be reached is reported as unreachable, not as
 * "GitHub 500".
 */
import { describe, expect, test } from 'vitest';
import { fileIssues, githubClient, keyOfTitle, syncDisabled } from '../../src/ci/flaky/index.ts';
import { addRun, client, fake, newStore, opts, posts, R, SINGLES, seedHistory } from './flaky_bot_helpers.ts';

describe('DISABLED titles match case-insensitively', () => {
  test('keyOfTitle: any case of the prefix and of the key gives the lower-case key', () => {
    const key = SINGLES[0];
    for (const t of [
      `DISABLED ${key}`,
      `Disabled ${key}`,
      `disabled ${key.toUpperCase()}`,
      `DISABLED  ${key} (cpu)`,
    ])
      expect(keyOfTitle(t), t).toBe(key);
    expect(keyOfTitle(`DISABLEDX ${key}`)).toBeNull();
    expect(keyOfTitle('DISABLED some words')).toBeNull();
  });

  test.each([
    ['a labelled one titled `Disabled <key>`', (k: string) => `Disabled ${k}`, ['skipped']],
    [
      'an unlabelled one titled `DISABLED <KEY>` (found by search)',
      (k: string) => `DISABLED ${k.toUpperCase()}`,
      [],
    ],
  ])(
    'an open issue differing only in case is commented, never filed twice: %s',
    async (_w, title, labels) => {
      const store = newStore();
      seedHistory(store, [SINGLES[0]]);
      addRun(store, '2024-03-01T00:00:00.000Z', 'f'.repeat(40), [{ id: SINGLES[0], status: 'flaky' }]);
      const mine = fake.addIssue(R, { title: title(SINGLES[0]), labels });
      const r = await fileIssues(store, client(), opts);
      expect(r.filed).toEqual([]);
      expect(r.commented).toEqual([{ issue: mine.number, keys: [SINGLES[0]] }]);
      expect(posts('/acme/tensors/issues')).toHaveLength(0);
      store.close();
    },
  );

  test('sync disables the instance of a `disabled TEST_...` issue', async () => {
    const store = newStore();
    fake.addIssue(R, { title: `disabled ${SINGLES[1].toUpperCase()}`, labels: ['skipped'] });
    const s = await syncDisabled(store, client(), opts);
    expect(s.added).toEqual([SINGLES[1]]);
    expect(s.malformed).toEqual([]);
    store.close();
  });
});

describe('an unreachable GitHub', () => {
  test.each([
    ['a refused connection', 'http://127.0.0.1:9'],
    ['a DNS failure', 'http://github.invalid'],
  ])('%s is reported as unreachable, not as GitHub 500', async (_w, baseUrl) => {
    const gh = githubClient({ baseUrl, token: 'x'.repeat(8), retries: 0, log: () => {} });
    const e = await gh.octokit.rest.issues
      .listForRepo({ owner: 'a', repo: 'b' })
      .catch((err: unknown) => err);
    const said = gh.describe(e);
    expect(said).toMatch(/^GitHub unreachable on GET http/);
    expect(said).not.toMatch(/GitHub 500/);
  });
});
