/**
 * Shared setup for the DISABLED-issue bot tests (flaky_bot*.test.ts; not a test file itself): a seeded results
 * store over the full matrix, and a local fake of GitHub's REST API (tests/unit/fake_github.ts) started before
 * and stopped after each test of any file that imports this module, checking that the token never reached a log.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { githubClient } from '../../src/ci/flaky/index.ts';
import { expandMatrix, resultAxes } from '../../src/ci/matrix.ts';
import { type ResultStatus, ResultsStore } from '../../src/ci/store/store.ts';
import { FakeGitHub } from './fake_github.ts';

export const ALL = expandMatrix('full');
export const BY_ID = new Map(ALL.map((i) => [i.id, i]));
export const TOKEN = 'ghp_fakeSECRETtoken0123456789abcdef';
export const REPO = { owner: 'acme', repo: 'tensors' };
export const R = 'acme/tensors';
/** The fake server's clock: after the seeded history (January 2024), before the "new" runs (March 2024). */
const CLOCK = Date.parse('2024-02-01T00:00:00Z');

export const id = (
  op: string,
  dtype = 'float32',
  layout = 'contiguous',
  oracle = 'reference',
  device = 'cpu',
) => {
  const s = `test_${oracle}_${op.replace(/\./g, '_')}_${device}_${dtype}_${layout}_eager`;
  if (!BY_ID.has(s)) throw new Error(`not in the matrix: ${s}`);
  return s;
};
/** Six instances of one op-level key (test_reference_add_cpu). */
export const ADD6 = ['float32', 'float64', 'int32', 'int64']
  .map((d) => id('add', d))
  .concat(['transposed', 'strided'].map((l) => id('add', 'float32', l)));
export const SINGLES = ['neg', 'abs', 'exp', 'sin', 'sqrt'].map((op) => id(op));
export const BROKEN = id('log');

interface Seed {
  readonly id: string;
  readonly status: ResultStatus;
  readonly message?: string;
  readonly rerunPasses?: number;
  readonly rerunFailures?: number;
}

export function addRun(store: ResultsStore, at: string, commit: string, rows: Seed[], kind = 'normal'): void {
  const run = store.startRun({ commitSha: commit, branch: 'main', platform: 'linux', tier: 'full', kind });
  store.patchRun(run, { startedAt: at });
  store.addResults(
    run,
    rows.map((r) => {
      const i = BY_ID.get(r.id);
      if (!i) throw new Error(`unknown id ${r.id}`);
      return {
        ...resultAxes(i),
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
export function seedHistory(
  store: ResultsStore,
  flaky: string[],
  broken: string[] = [],
  healthy: string[] = [],
) {
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

export let fake: FakeGitHub;
export let logs: string[];
export let dir: string;

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

export const client = (extra: Parameters<typeof githubClient>[0] = {}) =>
  githubClient({ baseUrl: fake.baseUrl, token: TOKEN, retryBaseMs: 5, log: (l) => logs.push(l), ...extra });
export const opts = { repo: REPO, instances: ALL, log: (l: string) => logs.push(l) };
export const titles = () => fake.issues.filter((i) => i.repo === R).map((i) => i.title);
export const posts = (suffix: string) =>
  fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith(suffix) && r.status < 300);
export const newStore = () => new ResultsStore(join(dir, 'r.db'));
