/**
 * Foreign runtimes judged by op_db and PyTorch's goldens (src/targets): each adapter's smoke selection (npm test's
 * share; the whole pull tier of each target is `opgate run --target <name>`, nightly and on demand), the oracle
 * catching a wrong op row, the matrix's rules as data (a dtype the target has no tensors of, an op with no row, a
 * documented departure), and the CLI: a target run stores its departures as findings (exit 0), kept apart from the
 * project's own runs, and `opgate report` classifies them.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium } from '../../dashboards/e2e/browser.ts';
import { serveDashboard } from '../../dashboards/index.ts';
import { expandMatrix } from '../../src/ci/index.ts';
import { ResultsStore } from '../../src/ci/store/store.ts';
import { OracleFailure, runOracle } from '../../src/oracles/index.ts';
import { registerTarget, TargetError, targetNames, targetOf } from '../../src/targets/index.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const TARGETS = ['tfjs-cpu', 'tfjs-wasm', 'ort-wasm', 'jax-js'];

let saved: string | undefined;
beforeAll(() => {
  saved = process.env.OPGATE_TARGETS;
});
afterAll(() => {
  if (saved === undefined) delete process.env.OPGATE_TARGETS;
  else process.env.OPGATE_TARGETS = saved;
});

/** The target's instance of (op, dtype): the matrix expands targets only while they are selected. */
function instance(target: string, op: string, dtype = 'float32') {
  process.env.OPGATE_TARGETS = target;
  const [inst] = expandMatrix('pull', { op: [op], device: [target], dtype: [dtype] });
  return inst;
}

describe('targets', () => {
  test('the four runtimes are registered, each with op rows', () => {
    expect(targetNames()).toEqual(TARGETS);
    for (const t of TARGETS) expect(Object.keys(targetOf(t).ops).length).toBeGreaterThan(80);
  });

  // The smoke selection: each adapter loads its runtime, takes op_db's samples and agrees with PyTorch on them.
  test.each(TARGETS)(
    '%s agrees with PyTorch on neg, abs and relu (float32)',
    async (t) => {
      for (const op of ['neg', 'abs', 'nn.functional.relu']) {
        const r = await runOracle(instance(t, op));
        expect(r.checks, `${t} ${op}`).toBeGreaterThan(3);
        expect(r.unsupported).toBeUndefined();
      }
    },
    60_000,
  );

  test('a wrong op row (neg mapped to tf.abs) is caught: a [values] departure', async () => {
    const base = targetOf('tfjs-cpu');
    registerTarget({
      ...base,
      adapter: { ...base.adapter, name: 'tfjs-wrong' },
      ops: { ...base.ops, neg: base.ops.abs },
    });
    const err = await runOracle(instance('tfjs-wrong', 'neg')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OracleFailure);
    expect((err as Error).message).toMatch(
      /\[values\] output 0 \(float32\): .* tfjs-wrong gives .*, PyTorch /,
    );
    expect(() => registerTarget({ ...base })).toThrow(TargetError);
  });

  test('the rules are data: a dtype it has no tensors of, an op with no counterpart, a documented departure', () => {
    expect(instance('tfjs-cpu', 'add', 'float64').rule).toMatchObject({
      kind: 'skip',
      reason: 'unsupported on tfjs-cpu: it has no float64 tensors',
    });
    expect(instance('tfjs-cpu', 'exp2').rule).toMatchObject({
      kind: 'skip',
      reason: /^unmapped on tfjs-cpu: /,
    });
    expect(instance('tfjs-cpu', 'div', 'int32').rule).toMatchObject({
      kind: 'xfail',
      reason: /^documented departure of tfjs-cpu: .*integer division/,
    });
    // Without --target, no target instance exists.
    delete process.env.OPGATE_TARGETS;
    expect(expandMatrix('pull', { op: ['neg'] }).some((i) => i.device.startsWith('tfjs'))).toBe(false);
  });

  test("a known bug is a departure, not a stuck run: tfjs-wasm's cumsum of a 0-dim tensor never returns", async () => {
    const err = await runOracle(instance('tfjs-wasm', 'cumsum')).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(
      /\[known-bug\] tfjs-wasm is not called: tf\.cumsum of a rank-0 tensor never returns on the wasm backend/,
    );
  });
});

describe('opgate run --target / report', () => {
  const db = join(mkdtempSync(join(tmpdir(), 'opgate-targets-')), 'targets.db');
  // The CLI's targets are its --target's, not the ones this process selected for its own expansions.
  const opgate = (args: string[]) =>
    spawnSync('node', [join(ROOT, 'bin/opgate.mjs'), ...args], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, OPGATE_TARGETS: '' },
    });

  test('departures are findings: the run passes, is kept apart from the project history, and is reported', () => {
    const r = opgate(['run', '--target', 'tfjs-cpu', '--op', 'neg,div,cumsum,exp2', '--db', db]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\d+ departure\(s\) from PyTorch found \(findings, not failures\)/);
    const store = new ResultsStore(db);
    try {
      const run = store.runs().at(-1)!;
      expect([run.kind, run.status]).toEqual(['target', 'passed']);
      const rows = store.results(run.runId);
      expect(rows.every((x) => x.device === 'tfjs-cpu')).toBe(true);
      expect(rows.find((x) => x.id === 'test_golden_neg_tfjs-cpu_float32_contiguous_eager')?.status).toBe(
        'pass',
      );
      expect(rows.find((x) => x.id === 'test_golden_cumsum_tfjs-cpu_float32_contiguous_eager')?.status).toBe(
        'fail',
      );
    } finally {
      store.close();
    }
    const rep = opgate(['report', '--target', 'tfjs-cpu', '--db', db]);
    expect(rep.status, rep.stderr).toBe(0);
    expect(rep.stdout).toMatch(
      /^tfjs-cpu \(@tensorflow\/tfjs-core@4\.22\.0, @tensorflow\/tfjs-backend-cpu@4\.22\.0\): run \d+/,
    );
    expect(rep.stdout).toMatch(/^neg\s+2\s+0\s+0\s+0\s+0\s+\d+\s+0$/m);
    expect(rep.stdout).toMatch(/^values|^differ\s+test_golden_cumsum_tfjs-cpu_float32/m);
  }, 120_000);

  // CI installs Chromium and sets OPGATE_REQUIRE_BROWSER, so this never silently skips there.
  test.runIf(existsSync('/usr/bin/chromium') || process.env.OPGATE_REQUIRE_BROWSER === '1')(
    "the target's page shows each departure: PyTorch's value and the target's side by side, and the repro (Chromium)",
    async () => {
      const dash = await serveDashboard({ db, port: 0, repo: null });
      const context = await launchChromium();
      try {
        const page = await context.newPage();
        await page.goto(`${dash.url}#/targets/tfjs-cpu`);
        await page.waitForSelector('.view[data-view="targets"][data-ready=""]', { timeout: 15_000 });
        expect(await page.locator('[data-testid="target-summary"]').textContent()).toMatch(
          /@tensorflow\/tfjs-core@4\.22\.0.*\d+ ops mapped.*% agree/,
        );
        const row = page.locator(
          'table[data-testid="departures"] tr[data-id="test_golden_cumsum_tfjs-cpu_float32_contiguous_eager"]',
        );
        const cells = await row.locator('td').allTextContents();
        // op, dtype, class, sample, PyTorch, tfjs-cpu, repro: tf.cumsum of a 0-dim tensor gives 0 (the bug).
        expect(cells.slice(0, 3)).toEqual(['cumsum', 'float32', 'differ (values)']);
        expect(Number(cells[4])).toBeCloseTo(-7.854255, 5);
        expect(cells[5]).toBe('0');
        expect(cells[6]).toBe(
          'npx opgate repro test_golden_cumsum_tfjs-cpu_float32_contiguous_eager --sample 0 --target tfjs-cpu',
        );
      } finally {
        await context.close();
        await dash.close();
      }
    },
    60_000,
  );

  test('bad input is a coded error, exit 2: an unknown target, a report without --target or without a run', () => {
    const unknown = opgate(['run', '--target', 'tfjs-gpu', '--db', db]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(
      /--target: unknown target 'tfjs-gpu'; expected one of tfjs-cpu, tfjs-wasm, ort-wasm, jax-js/,
    );
    const bare = opgate(['report', '--db', db]);
    expect(bare.status).toBe(2);
    expect(bare.stderr).toMatch(/report: name the runtime with --target/);
    const none = opgate(['report', '--target', 'jax-js', '--db', db]);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/no run of jax-js in .*\[E_NOTHING_TO_REPORT\]/);
  }, 60_000);
});
