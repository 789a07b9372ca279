/**
 * Out-of-tree ops in the matrix: `opgate run --config examples/myops/opgate.config.ts` registers a project's op
 * (myops::scale_shift) and its OpInfo, expands the same templates and oracles over it (all but the golden one:
 * PyTorch has no such op), and stores its results in the same database, which the dashboards' grid and search
 * show; a wrong kernel (tests/fixtures/myops's MYOPS_FAULT) fails the run; a config that is missing, not a config,
 * or takes a name op_db has is a coded error.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { launchChromium } from '../../dashboards/e2e/browser.ts';
import { serveDashboard } from '../../dashboards/index.ts';
import { ResultsStore } from '../../src/ci/store/store.ts';
import { opgateBatch } from './run_helpers.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/opgate.mjs');
/** The worked example, as its users write it (`import ... from 'opgate'`: in this repository, the sources). */
const EXAMPLE = 'examples/myops/opgate.config.ts';
/** The same op with a switchable fault (MYOPS_FAULT), for the oracles to catch. */
const CONFIG = 'tests/fixtures/myops/opgate.config.ts';
const opgate = (args: string[], env: Record<string, string> = {}) =>
  spawnSync('node', [BIN, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 240_000,
    env: { ...process.env, ...env },
  });
describe('opgate --config: a project outside the tree', () => {
  const dir = mkdtempSync(join(tmpdir(), 'opgate-config-'));
  const SELECT = ['--op', 'myops::scale_shift', '--device', 'cpu,meta', '--dtype', 'float32,float64'];

  test('list: the extension op expands through every oracle but the golden one', () => {
    const r = opgate(['list', '--config', CONFIG, '--op', 'myops::scale_shift']);
    expect(r.status).toBe(0);
    const ids = r.stdout.trim().split('\n');
    const oracles = new Set(ids.map((id) => id.split('_')[1]));
    expect([...oracles].sort()).toEqual([
      'backward',
      'compile',
      'crossbackend',
      'dtypes',
      'gradcheck',
      'gradgradcheck',
      'metadata',
      'property',
      'reference',
    ]);
    expect(ids).toContain('test_reference_myops_scale_shift_cpu_float64_transposed_eager');
  }, 120_000);

  test('run: its instances are stored in the same database, and they pass', () => {
    const db = join(dir, 'ok.db');
    const r = opgate(['run', '--config', EXAMPLE, ...SELECT, '--db', db]);
    expect(r.status, r.stderr).toBe(0);
    const store = new ResultsStore(db);
    try {
      const rows = store.results(store.lastRunId()!);
      expect(rows.length).toBeGreaterThan(10);
      expect(rows.every((x) => x.op === 'myops::scale_shift')).toBe(true);
      expect(rows.filter((x) => x.status !== 'pass' && x.status !== 'skip')).toEqual([]);
      expect(rows.filter((x) => x.status === 'pass').length).toBeGreaterThan(10);
    } finally {
      store.close();
    }
  }, 240_000);

  test('a wrong kernel (the shift dropped) fails the run: the reference oracle catches it (stored beside the passing run)', () => {
    const r = opgate(
      ['run', '--config', CONFIG, ...SELECT, '--oracle', 'reference', '--db', join(dir, 'ok.db')],
      {
        MYOPS_FAULT: 'drop-shift',
      },
    );
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/FAIL test_reference_myops_scale_shift_cpu_float(32|64)_/);
  }, 240_000);

  // CI installs Chromium and sets OPGATE_REQUIRE_BROWSER, so this never silently skips there.
  test.runIf(existsSync('/usr/bin/chromium') || process.env.OPGATE_REQUIRE_BROWSER === '1')(
    "the dashboards show the extension's instances: the grid's cell and failures, the test search (Chromium)",
    async () => {
      const dash = await serveDashboard({ db: join(dir, 'ok.db'), port: 0, repo: null });
      const context = await launchChromium();
      try {
        const page = await context.newPage();
        // The grid: this commit's job cell is red (the wrong kernel's run), and its failures by test id are
        // the extension op's instances.
        await page.goto(`${dash.url}#/grid`);
        await page.waitForSelector('.view[data-view="grid"][data-ready=""]', { timeout: 15_000 });
        const cells = await page
          .locator('table[data-testid="grid"] td .cell')
          .evaluateAll((cs) =>
            cs.map((c) => ({ status: c.getAttribute('data-status'), title: c.getAttribute('title') ?? '' })),
          );
        expect(cells.map((c) => c.status)).toContain('red');
        const failing = await page
          .locator('table.failures-by-id tbody tr td:first-child')
          .evaluateAll((tds) => tds.map((td) => td.textContent ?? ''));
        expect(failing.length).toBeGreaterThan(0);
        for (const id of failing) expect(id).toMatch(/^test_reference_myops_scale_shift_cpu_float(32|64)_/);
        // The search: the passing run's reference instances.
        await page.goto(
          `${dash.url}#/search?q=${encodeURIComponent('/^test_reference_myops_scale_shift_cpu_/')}`,
        );
        await page.waitForSelector('.view[data-view="search"][data-ready=""]', { timeout: 15_000 });
        const ids = await page
          .locator('table[data-testid="search-results"] tbody tr')
          .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id') ?? ''));
        expect(ids.length).toBeGreaterThan(3);
        for (const id of ids) expect(id).toMatch(/^test_reference_myops_scale_shift_cpu_float(32|64)_/);
      } finally {
        await context.close();
        await dash.close();
      }
    },
    60_000,
  );

  test('a missing file, a file that is no config, a name op_db has: coded errors, exit 2', async () => {
    const [missing, invalid, duplicate] = await opgateBatch(
      ['nope.config.ts', 'not_a_config.ts', 'duplicate.config.ts'].map((f) => ({
        args: ['list', '--config', `tests/fixtures/myops/${f}`],
        cwd: ROOT,
      })),
    );
    expect([missing.code, invalid.code, duplicate.code]).toEqual([2, 2, 2]);
    expect(missing.stderr).toMatch(/no such file.*\[E_FILE_NOT_FOUND\]/);
    expect(invalid.stderr).toMatch(/expected a default export.*got number.*\[E_FILE_INVALID\]/);
    expect(duplicate.stderr).toMatch(/op_db already has an OpInfo named 'add'.*\[E_DUPLICATE_OP\]/);
  }, 120_000);
});
