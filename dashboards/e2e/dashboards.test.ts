/// <reference lib="dom" />
/**
 * The dashboards in a real browser: headless Debian Chromium via playwright-core against `opgate dashboard`
 * serving a seeded database. Each view loads; a red grid cell leads to the failure and its repro command; the
 * coverage matrix shows a skip's reason and the schema coverage its overloads; the perf chart marks the injected
 * regression; the numerics view lists the injected max-ulp drift first, flagged; the mutation view shows the
 * seeded kill matrix, survivors' diffs and equivalents' reasons; and failure messages, mutated source lines,
 * test ids and issue titles carrying markup stay text (no dialog, no injected element, no script ran).
 * Screenshots of every view land in artifacts/dashboards/.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { NAMED } from '../../op_db/index.ts';
import { schemaData } from '../data/schema.ts';
import { buildDashboard, type RunningDashboard, serveDashboard } from '../index.ts';
import { type SeedFacts, seedDemoDb, XSS } from '../seed.ts';
import { cellHref } from '../shared.ts';
import { ARTIFACTS, chromiumAvailable, launchChromium, serveStatic } from './browser.ts';

// CI installs Chromium and sets OPGATE_REQUIRE_BROWSER, so these never silently skip there.
const run = chromiumAvailable() || process.env.OPGATE_REQUIRE_BROWSER === '1';

export const OPS = ['add', 'exp', 'sum', 'where', 'sort', 'masked_fill', 'as_strided'];

describe.runIf(run)('dashboards in Chromium', () => {
  let facts: SeedFacts;
  let dash: RunningDashboard;
  let context: BrowserContext;
  let page: Page;
  const dialogs: string[] = [];
  const pageErrors: string[] = [];
  /** Console errors: a CSP violation by the client itself (an inline style, say) would show here. */
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opgate-dash-'));
    facts = seedDemoDb(join(dir, 'seeded.db'), { commits: 12, shards: 4, ops: OPS });
    dash = await serveDashboard({ db: join(dir, 'seeded.db'), port: 0, repo: 'opgate/opgate' });
    context = await launchChromium();
    page = await context.newPage();
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await dash?.close();
  });

  async function open(hash: string, view: string): Promise<void> {
    await page.goto(`${dash.url}${hash}`);
    await page.waitForSelector(`.view[data-view="${view}"][data-ready=""]`, { timeout: 15_000 });
    await shot(view);
  }

  /**
   * One screenshot per view, its first 4,000 px: the coverage view's full page (every op × device × dtype
   * and every aten overload) is ~1,600 rows, and a full-page capture of it costs 4 s on an idle 2-core machine
   * and 10 s or more under the suite's load, once per visit; the artifact shows the view, not every row.
   */
  const shot = async (name: string): Promise<void> => {
    if (shots.has(name)) return;
    shots.add(name);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.screenshot({
      path: join(ARTIFACTS, `${name}.png`),
      fullPage: true,
      clip: { x: 0, y: 0, width: 1400, height: Math.min(height, 4000) },
    });
  };
  const shots = new Set<string>();

  /** Nothing from the seeded markup became live: no dialog, no element, no script effect. */
  async function expectInert(): Promise<void> {
    expect(dialogs).toEqual([]);
    expect(await page.locator('main img, main script').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  }

  test('grid: commits × jobs, a red cell reaches the failure with its repro command', async () => {
    await open('#/grid', 'grid');
    expect(await page.locator('table.grid tbody tr').count()).toBe(facts.shas.length);
    expect(await page.locator('table.grid thead th.job').count()).toBe(facts.jobs.length);
    // The newest commit has a shard still running; the failing test is red in its job.
    expect(await page.locator(`tr[data-sha="${facts.shas.at(-1)}"] .cell.running`).count()).toBeGreaterThan(
      0,
    );
    expect(await page.locator('.cell.flaky').count()).toBeGreaterThan(0);
    const red = page.locator(
      `tr[data-sha="${facts.failing.sha}"] a.cell.red[href="${cellHref(facts.failing.sha, facts.failing.job)}"]`,
    );
    await red.click();
    await page.waitForSelector('.view[data-view="cell"][data-ready=""]');
    await shot('failure');
    const failure = page.locator(`article.failure[data-id="${facts.failing.id}"]`);
    expect(await failure.locator('code.repro').textContent()).toBe(
      `npx opgate repro ${facts.failing.id} --sample 2`,
    );
    expect(await failure.locator('pre.message').textContent()).toBe(facts.failing.message);
    expect(await failure.locator('dd').allTextContents()).toEqual(['2', '1234', '1']);
    await expectInert();
  });

  test('grid groups failures by test id', async () => {
    await open('#/grid', 'grid');
    const row = page.locator('table.failures-by-id tbody tr', { hasText: facts.failing.id });
    expect(await row.locator('td').nth(1).textContent()).toBe('3');
  });

  test('coverage: the matrix shows a skip reason, and each device a conformance score', async () => {
    await open('#/coverage', 'coverage');
    expect(await page.locator('table.scores tbody tr').count()).toBe(3);
    const skip = facts.skipped!;
    const cell = page.locator(`tr[data-op="${skip.op}"] td[data-cell="${skip.device} ${skip.dtype}"]`);
    // The rule skips some of the cell's instances: the cell says so on hover and in its details.
    expect(await cell.getAttribute('title')).toContain(`skip: ${skip.reason}`);
    expect(await cell.getAttribute('data-skips')).toMatch(/^[1-9]/);
    await cell.click();
    expect(await page.locator('#cov-detail .reason-text').allTextContents()).toContain(
      `skip: ${skip.reason}`,
    );
    // The failing instance is red at the newest commit; the conformance trend is charted per device.
    const failing = `tr[data-op="${facts.failing.op}"] td[data-cell="${facts.failing.cell}"]`;
    expect(await page.locator(failing).getAttribute('class')).toContain('s-fail');
    await page.locator('.chart[data-label="cpu"][data-drawn]').waitFor();
    // Any recent commit can be picked; the oldest one predates the failure.
    await page.selectOption('[data-testid="commit-picker"]', facts.shas[0]);
    await page.waitForSelector(
      `.view[data-view="coverage"][data-ready=""] h1 code[title="${facts.shas[0]}"]`,
    );
    expect(await page.locator(failing).getAttribute('class')).not.toContain('s-fail');
    // webgpu claims fewer dtypes than cpu: those cells are unsupported, with their reason.
    await open('#/coverage', 'coverage');
    const unsupported = page.locator('tr[data-op="exp"] td.s-unsupported[data-cell^="webgpu"]').first();
    await unsupported.click();
    expect(await page.locator('#cov-detail .reason-text').first().textContent()).toMatch(/^unsupported: /);
  });

  test('coverage: schema coverage totals and per-op overloads with status and reason', async () => {
    await open('#/coverage', 'coverage');
    const want = schemaData();
    const totals = await page.locator('[data-testid="schema-totals"]').textContent();
    expect(totals).toContain(`${want.overloads.total} overloads: ${want.overloads.implemented} implemented`);
    expect(totals).toContain(`${want.overloads.uncovered} uncovered`);
    expect(totals).toContain(`arguments exercised ${want.arguments.exercised} / ${want.arguments.total}`);
    const rows = page.locator('[data-testid="schema-overloads"] tbody tr');
    expect(await rows.count()).toBe(want.overloads.total);
    const named = page.locator('tr[data-overload="sum.dim_DimnameList"]');
    expect(await named.getAttribute('data-status')).toBe('unsupported');
    expect(await named.locator('td').last().textContent()).toBe(NAMED);
    const add = page.locator('tr[data-overload="add.Tensor"]');
    expect(await add.getAttribute('data-status')).toBe('implemented');
    expect(await add.locator('td').nth(3).textContent()).toBe('3 / 3');
    // The filter narrows the table to matching overloads.
    await page.fill('input[aria-label="filter overloads"]', 'scatter.value_reduce');
    expect(await page.locator('[data-testid="schema-overloads"] tbody tr:not([hidden])').count()).toBe(2);
    // The Python surface: its totals and one row per signature, a declared one with its reason.
    const py = want.python;
    const pyTotals = await page.locator('[data-testid="python-totals"]').textContent();
    expect(pyTotals).toContain(`${py.signatures.total} signatures: ${py.signatures.covered} covered`);
    expect(pyTotals).toContain(`${py.keywords.uncovered} uncovered`);
    const pyRows = page.locator('[data-testid="python-signatures"] tbody tr');
    expect(await pyRows.count()).toBe(py.rows.length);
    await page.fill(
      'input[aria-label="filter Python signatures"]',
      'torch.sum(input: Tensor, dim: Sequence[Union[str',
    );
    const shown = page.locator('[data-testid="python-signatures"] tbody tr:not([hidden])');
    expect(await shown.count()).toBe(1);
    expect(await shown.getAttribute('data-status')).toBe('unsupported');
    expect(await shown.locator('td').last().textContent()).toMatch(/^named tensors/);
  });

  test('flaky & disabled: ranked flaky tests, DISABLED issues with links, inert titles', async () => {
    await open('#/flaky', 'flaky');
    const ids = await page
      .locator('table[data-testid="flaky"] tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')));
    expect(new Set(ids)).toEqual(new Set(facts.flaky));
    expect(await page.locator(`tr[data-key="${facts.disabled.id}"] a`).getAttribute('href')).toBe(
      'https://github.com/opgate/opgate/issues/77',
    );
    // The issue whose title carries markup and whose URL is javascript: renders as text without a link.
    const evil = page.locator('table[data-testid="disabled"] tr', { hasText: '#78' });
    expect(await evil.locator('.issue-title').textContent()).toBe(`DISABLED test_reference_${XSS}_cpu`);
    expect(await evil.locator('a').count()).toBe(0);
    expect(await page.locator('.chart canvas').count()).toBeGreaterThan(0);
    await expectInert();
  });

  test('perf: the chart marks the injected regression, with before → after', async () => {
    await open('#/perf', 'perf');
    const series = page.locator('section.series[data-scenario="add_1elem"][data-metric="instructions"]');
    await series.locator('.chart[data-drawn]').waitFor();
    const marker = series.locator('.marker[data-state="regression"]');
    expect(await marker.count()).toBe(1);
    expect(await marker.getAttribute('data-sha')).toBe(facts.regression.sha);
    // ... and it stands at that commit on the x axis (commits are evenly spaced, oldest at the left edge).
    const box = (await marker.evaluate((m) => [
      (m as HTMLElement).offsetLeft,
      (m.parentElement as HTMLElement).clientWidth,
    ])) as [number, number];
    const at = facts.shas.indexOf(facts.regression.sha) / (facts.shas.length - 1);
    expect(Math.abs(box[0] / box[1] - at)).toBeLessThan(0.02);
    expect(await series.locator('li.change').textContent()).toBe(
      `regression at ${facts.regression.sha.slice(0, 7)}: 12,000 → 13,100 (+9.17%)`,
    );
    // The flat series has no marker.
    expect(await page.locator('section.series[data-scenario="sum_1elem"] .marker').count()).toBe(0);
  });

  test('shards & time: per-shard durations, time to signal, slowest instances', async () => {
    await open('#/shards', 'shards');
    expect(await page.locator('.bar-row').count()).toBe(facts.jobs.length);
    expect(await page.locator('p.summary').textContent()).toContain('time to signal running');
    expect(await page.locator('table.list tbody tr').count()).toBe(25);
  });

  test('numerics: the drifted op × device × dtype comes first, flagged, with its max ulp now and before', async () => {
    const drift = facts.drift!;
    await open('#/numerics', 'numerics');
    const rows = page.locator('table[data-testid="numerics"] tbody tr');
    const first = rows.first();
    expect(await first.getAttribute('data-cell')).toBe(`${drift.op} ${drift.device} ${drift.dtype}`);
    expect(await first.getAttribute('data-change')).toBe('drift');
    expect(await first.locator('td[data-col="now"]').textContent()).toBe(String(drift.now));
    expect(await first.locator('td[data-col="before"]').textContent()).toBe(String(drift.before));
    const badge = first.locator('[data-flag="drift"]');
    expect(await badge.isVisible()).toBe(true);
    expect(await badge.textContent()).toBe('drift');
    // The badge is the red one (the stylesheet applied, the flag is not just text).
    expect(await badge.evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgb(207, 34, 46)');
    // The seed injects exactly one drift; every other measured cell kept its max ulp.
    expect(await page.locator('[data-flag="drift"]').count()).toBe(1);
    expect(await page.locator('[data-testid="numerics-summary"]').textContent()).toMatch(
      /^1 drift\(s\) in \d+ /,
    );
    expect(await page.locator('[data-testid="numerics-summary"] code').getAttribute('title')).toBe(
      facts.shas.at(-2),
    );
    // At an older commit nothing had drifted yet.
    await page.selectOption('[data-testid="commit-picker"]', facts.shas.at(-2)!);
    await page.waitForSelector(
      `.view[data-view="numerics"][data-ready=""] h1 code[title="${facts.shas.at(-2)}"]`,
    );
    expect(await page.locator('[data-flag="drift"]').count()).toBe(0);
  });

  test("mutation: the newest run's score, the seeded kill matrix, survivors' diffs as text, equivalents' reasons", async () => {
    const mut = facts.mutation;
    await open('#/mutation', 'mutation');
    expect(await page.locator('h1 code').getAttribute('title')).toBe(mut.sha);
    const score = page.locator('[data-testid="mutation-score"]');
    for (const k of ['mutants', 'killed', 'survived', 'timeout', 'equivalent'] as const)
      expect(await score.locator(`dd[data-key="${k}"]`).textContent(), k).toBe(String(mut.score[k]));
    expect(await score.locator('dd[data-key="score"]').getAttribute('title')).toBe(String(mut.score.score));
    await page.locator('.chart[data-label="score %"][data-drawn]').waitFor();
    // Every seeded (killer, operator) cell, and each killer's "only" count; the unit tests are the last row.
    const matrix = page.locator('table[data-testid="kill-matrix"]');
    const killers = await matrix
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-killer')));
    expect(new Set(killers)).toEqual(new Set(Object.keys(mut.kills)));
    expect(killers.at(-1)).toBe('unit');
    for (const [killer, ops] of Object.entries(mut.kills)) {
      const row = matrix.locator(`tr[data-killer="${killer}"]`);
      for (const [operator, n] of Object.entries(ops))
        expect(
          await row.locator(`td[data-operator="${operator}"]`).textContent(),
          `${killer} ${operator}`,
        ).toBe(String(n));
      expect(await row.locator('td[data-col="only"]').textContent(), killer).toBe(String(mut.only[killer]));
    }
    expect(mut.only.golden).toBeGreaterThan(0);
    expect(mut.multiKilled.killers.length).toBeGreaterThan(1);
    // The survivor whose source line carries markup: file:line, operator and its diff, all text.
    const survivor = page.locator(`article.survivor[data-id="${mut.survivor.mutantId}"]`);
    expect(await survivor.locator('code.where').textContent()).toBe(
      `${mut.survivor.file}:${mut.survivor.line}`,
    );
    expect(await survivor.locator('pre.diff').isVisible()).toBe(true);
    expect(await survivor.locator('pre.diff .del').textContent()).toBe(`- ${mut.survivor.original}`);
    expect(await survivor.locator('pre.diff .ins').textContent()).toBe(`+ ${mut.survivor.mutated}`);
    expect(mut.survivor.original).toContain(XSS);
    const equivalent = page.locator(`article.equivalent[data-id="${mut.equivalent.mutantId}"]`);
    expect(await equivalent.locator('.reason-text').textContent()).toBe(mut.equivalent.reason);
    await expectInert();
    // The oldest run, from the picker: the gap only 'golden' closes later was still a survivor then.
    expect(await page.locator(`article.survivor[data-id="${mut.onlyGolden}"]`).count()).toBe(0);
    await page.selectOption('[data-testid="mutation-run-picker"]', { index: mut.runs - 1 });
    await page.waitForSelector(
      `.view[data-view="mutation"][data-ready=""] h1 code[title="${facts.shas[0]}"]`,
    );
    expect(await page.locator(`article.survivor[data-id="${mut.onlyGolden}"]`).count()).toBe(1);
  });

  test('test search: by id pattern, with history across runs', async () => {
    await open(`#/search?q=${encodeURIComponent(facts.failing.id)}`, 'search');
    const row = page.locator(`tr[data-id="${facts.failing.id}"]`);
    expect(await row.locator('.strip .h-F').count()).toBe(3);
    // One match: its outcome per commit, newest first.
    const outcomes = await page.locator('[data-testid="test-history"] tbody td:last-child').allTextContents();
    expect(outcomes).toHaveLength(facts.shas.length);
    expect(outcomes.filter((o) => o === 'fail')).toHaveLength(3);
    const pattern = '/^test_reference_exp_cpu_.*_eager$/';
    await page.fill('input[type="search"]', pattern);
    // The view puts the pattern it searched for into the address once the results are on the page.
    await page.waitForFunction((q) => location.hash.endsWith(encodeURIComponent(q)), pattern);
    const shown = await page
      .locator('table[data-testid="search-results"] tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id') ?? ''));
    expect(shown.length).toBeGreaterThan(3);
    for (const id of shown) expect(id).toMatch(/^test_reference_exp_cpu_.*_eager$/);
    await page.fill('input[type="search"]', '/(/');
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="search-status"]')?.textContent?.startsWith('invalid pattern'),
    );
  });

  test('the inertness checks can fail: markup inserted as HTML is caught, and the CSP blocks its handlers', async () => {
    await open('#/grid', 'grid');
    const violations = page.evaluate(
      () =>
        new Promise<string>((resolve) =>
          document.addEventListener('securitypolicyviolation', (e) => resolve(e.violatedDirective), {
            once: true,
          }),
        ),
    );
    await page.evaluate((x) => {
      const div = document.createElement('div');
      div.innerHTML = x; // what the client must never do
      document.querySelector('main')?.appendChild(div);
    }, XSS);
    expect(await page.locator('main img').count()).toBe(1);
    expect(await violations).toMatch(/^script-src/);
    // Without the dashboards' CSP the same markup runs: the dialog and script checks see it.
    const bare = await context.newPage();
    const seen: string[] = [];
    bare.on('dialog', (d) => {
      seen.push(d.message());
      void d.dismiss();
    });
    await bare.setContent(`<main>${XSS}</main>`);
    await bare.waitForFunction(() => (window as unknown as { __xss?: number }).__xss !== undefined);
    expect(seen.length).toBeGreaterThan(0);
    await bare.close();
    // The violation (and the broken image) logged errors on purpose; later tests start clean.
    expect(consoleErrors.length).toBeGreaterThan(0);
    consoleErrors.length = 0;
  });

  test('the static build (GitHub Pages / artifact) serves the same views from JSON files', async () => {
    const out = mkdtempSync(join(tmpdir(), 'opgate-site-'));
    await buildDashboard({ db: dash.db, out, repo: 'opgate/opgate' });
    const site = await serveStatic(out);
    try {
      await page.goto(`${site.url}#/grid`);
      await page.waitForSelector('.view[data-view="grid"][data-ready=""]');
      await page.locator(`a.cell.red[href="${cellHref(facts.failing.sha, facts.failing.job)}"]`).click();
      await page.waitForSelector('.view[data-view="cell"][data-ready=""]');
      expect(
        await page.locator(`article.failure[data-id="${facts.failing.id}"] code.repro`).textContent(),
      ).toBe(`npx opgate repro ${facts.failing.id} --sample 2`);
      // Per-commit views: the static site carries the newest 10 commits.
      await page.goto(`${site.url}#/shards`);
      await page.waitForSelector('.view[data-view="shards"][data-ready=""]');
      expect(await page.locator('[data-testid="commit-picker"] option').count()).toBe(10);
      const older = facts.shas[facts.shas.length - 5];
      await page.selectOption('[data-testid="commit-picker"]', older);
      await page.waitForSelector(`.view[data-view="shards"][data-ready=""] h1 code[title="${older}"]`);
      expect(await page.locator('.bar-row').count()).toBe(facts.jobs.length);
      for (const view of ['coverage', 'flaky', 'perf', 'shards', 'search', 'mutation', 'numerics']) {
        await page.goto(`${site.url}#/${view}`);
        await page.waitForSelector(`.view[data-view="${view}"][data-ready=""]`);
      }
      expect(
        await page.locator('table[data-testid="numerics"] tbody tr').first().getAttribute('data-change'),
      ).toBe('drift');
      // Search on the static site filters the whole window's document in the page (no server to ask).
      await page.goto(`${site.url}#/search?q=${encodeURIComponent(facts.failing.id)}`);
      await page.waitForSelector('.view[data-view="search"][data-ready=""]');
      expect(await page.locator(`tr[data-id="${facts.failing.id}"] .strip .h-F`).count()).toBe(3);
      // A mutation run other than the newest: its own document.
      await page.goto(`${site.url}#/mutation`);
      await page.waitForSelector('.view[data-view="mutation"][data-ready=""]');
      await page.selectOption('[data-testid="mutation-run-picker"]', { index: facts.mutation.runs - 1 });
      await page.waitForSelector(
        `.view[data-view="mutation"][data-ready=""] h1 code[title="${facts.shas[0]}"]`,
      );
      await expectInert();
    } finally {
      await site.close();
    }
  });

  test('no script errors, CSP violations or failed loads on any view', () => {
    expect(pageErrors).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
