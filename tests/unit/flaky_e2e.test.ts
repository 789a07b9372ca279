/**
 * A real flaky instance end to end, through the CLI as CI runs it, against the fake GitHub server: an instance
 * failing on a seeded fraction of attempts (a test fixture, not a runtime bug) is detected as flaky, gets a
 * DISABLED issue, is skipped by the next run with the issue's link, passes rerun-disabled and is re-enabled
 * when close-fixed closes the issue; an always-failing instance is reported broken and never gets an issue.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { listDisabled } from '../../src/ci/index.ts';
import { ResultsStore } from '../../src/ci/store/store.ts';
import { FakeGitHub } from './fake_github.ts';
import { opgateBatch } from './run_helpers.ts';

const bin = resolve(import.meta.dirname, '../../bin/opgate.mjs');
const FLAKY = 'test_reference_tanh_cpu_float32_contiguous_eager';
const BROKEN = 'test_reference_tanh_cpu_float32_transposed_eager';
const REPO = 'opgate/runtime';
const TOKEN = 'ghp_e2e_secret_token_value';
const gh = new FakeGitHub();
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  env = { ...process.env, GITHUB_API_URL: await gh.start(), GITHUB_TOKEN: TOKEN };
});
afterAll(() => gh.stop());

/** The CLI as a child process; async, because the fake GitHub server answers from this process's event loop. */
async function opgate(args: string[], extra: NodeJS.ProcessEnv = {}) {
  const child = spawn('node', [bin, ...args], { env: { ...env, ...extra } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    stdout += d;
  });
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const status = await new Promise<number | null>((r) => child.on('close', r));
  expect(`${stdout}${stderr}`).not.toContain(TOKEN);
  return { status, stdout, stderr };
}

/**
 * Consecutive bot commands (no `opgate run` among them) in one child process, in order: what they report and do
 * to the fake GitHub is the same as one process each, for one start-up.
 */
async function bot(commands: string[][]) {
  const out = await opgateBatch(
    commands.map((args) => ({ args, cwd: process.cwd() })),
    { env },
  );
  for (const o of out) expect(`${o.stdout}${o.stderr}`).not.toContain(TOKEN);
  return out.map((o) => ({ status: o.code, stdout: o.stdout, stderr: o.stderr }));
}

function statusOf(
  db: string,
  id: string,
): { status: string; message: string | null; attempts: number; rerunPasses?: number | null } {
  const s = new ResultsStore(db);
  const row = s.latestResult(id);
  s.close();
  if (!row) throw new Error(`no result for ${id}`);
  return row;
}

test('flaky -> DISABLED issue -> skipped -> rerun-disabled passes -> closed -> re-enabled; broken never filed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'opgate-flaky-'));
  const db = join(dir, 'results.db');
  const run = async (extra: string[] = [], fixtures: NodeJS.ProcessEnv = {}) =>
    opgate(
      [
        'run',
        '--op',
        'tanh',
        '--oracle',
        'reference',
        '--device',
        'cpu',
        '--dtype',
        'float32',
        '--db',
        db,
        ...extra,
      ],
      fixtures,
    );

  // 1. Detection: failed on attempt 1, passed on the retry -> flaky; the broken one fails all 3 attempts.
  await run(['--retries', '2'], { OPGATE_FLAKY_FIXTURE: `${FLAKY}=0.5`, OPGATE_BROKEN_FIXTURE: BROKEN });
  expect(statusOf(db, FLAKY)).toMatchObject({ status: 'flaky', attempts: 2 });
  expect(statusOf(db, FLAKY).message).toMatch(/injected flaky failure .* on attempt 1/);
  expect(statusOf(db, BROKEN)).toMatchObject({ status: 'fail', attempts: 3 });
  // 2. The bot files one DISABLED issue for the flaky instance, none for the broken one; 3. sync then reads the
  // open issue back into the disabled list (and disabled-tests.json).
  const exported = join(dir, 'disabled-tests.json');
  const [listed, filed, synced] = await bot([
    ['flaky', 'list', '--db', db, '--json'],
    ['flaky', 'file-issues', '--db', db, '--repo', REPO],
    ['flaky', 'sync', '--db', db, '--repo', REPO, '--export', exported],
  ]);
  expect(JSON.stringify(JSON.parse(listed.stdout))).toContain(FLAKY);
  expect(filed.status, filed.stderr).toBe(0);
  const titles = gh.issues.map((i) => i.title);
  expect(titles).toEqual([`DISABLED ${FLAKY}`]);
  expect(titles.join()).not.toContain(BROKEN);
  expect(`${filed.stdout}`).toMatch(/broken/i);
  expect(synced.status, synced.stderr).toBe(0);
  expect(Object.keys(JSON.parse(readFileSync(exported, 'utf8')))).toEqual([FLAKY]);

  // 4. The next normal run skips it, with the issue's link (the fixture is gone: the "fix" landed).
  await run();
  expect(statusOf(db, FLAKY).status).toBe('skip');
  expect(statusOf(db, FLAKY).message).toMatch(/disabled by issue #1 /);

  // 5. rerun-disabled runs only it, 150 times: all pass.
  await opgate(['run', '--rerun-disabled', '--reruns', '150', '--db', db]);
  expect(statusOf(db, FLAKY)).toMatchObject({ status: 'pass', rerunPasses: 150 });

  // 6. close-fixed closes the issue with the evidence; sync then re-enables the test.
  const [closed, resynced] = await bot([
    ['flaky', 'close-fixed', '--db', db, '--repo', REPO],
    ['flaky', 'sync', '--db', db, '--repo', REPO],
  ]);
  expect(closed.status, closed.stderr).toBe(0);
  expect(resynced.status, resynced.stderr).toBe(0);
  const issue = gh.issue(REPO, 1)!;
  expect(issue.state).toBe('closed');
  expect(issue.comments.at(-1)?.body).toMatch(/150/);
  const s = new ResultsStore(db);
  expect(listDisabled(s)).toEqual([]);
  s.close();
  await run();
  expect(statusOf(db, FLAKY).status).toBe('pass');
}, 300_000);
