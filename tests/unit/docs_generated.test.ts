/**
 * The generated documentation pages (src/ci/docs): docs/deviations.md (from op_db) and docs/cli.md (from the CLI's
 * commander help) must be what the generator renders now, on any machine and terminal; `opgate docs --check` says
 * which page is stale and `opgate docs` rewrites only the stale ones.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { registerDashboardCommands } from '../../dashboards/index.ts';
import { opDb } from '../../op_db/index.ts';
import { buildCli } from '../../src/ci/cli/main.ts';
import {
  GENERATED_PATHS,
  prose,
  renderPages,
  stalePages,
  walkCommands,
  writePages,
} from '../../src/ci/docs/index.ts';
import { PACKAGE_ROOT } from '../../src/ci/run/root.ts';
import { opgateBatch } from './run_helpers.ts';

/** The program as bin/main.mjs composes it: ci's commands, then the dashboards'. */
function program() {
  const p = buildCli();
  registerDashboardCommands(p);
  return p;
}

const pages = renderPages(program(), opDb, PACKAGE_ROOT);

/** A table row of the deviations page whose first cell is `op`. */
const rowOf = (op: string) => new RegExp(`^\\| \`${op.replace(/[.]/g, '\\.')}\` +\\|`, 'm');

describe('generated docs pages', () => {
  test.each(pages.map((p) => [p.path, p] as const))('%s is up to date', (path, page) => {
    const committed = readFileSync(join(PACKAGE_ROOT, path), 'utf8');
    expect(committed === page.text, `${path} is stale: run \`npx opgate docs\` and commit it`).toBe(true);
  });

  test('the pages are the same on every machine and terminal', () => {
    const columns = process.stdout.columns;
    try {
      process.stdout.columns = 37;
      expect(renderPages(program(), opDb, PACKAGE_ROOT)).toEqual(pages);
    } finally {
      process.stdout.columns = columns;
    }
    for (const p of pages) expect(p.text, p.path).not.toContain(PACKAGE_ROOT);
  });

  test.each(pages.map((p) => [p.path, p] as const))(
    '%s is as biome formats it (npm run lint)',
    (path, page) => {
      const biome = join(PACKAGE_ROOT, 'node_modules/.bin/biome');
      const r = spawnSync(biome, ['format', `--stdin-file-path=${path}`], {
        input: page.text,
        encoding: 'utf8',
      });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout === page.text, `biome would reformat ${path}: fix the generator (src/ci/docs)`).toBe(
        true,
      );
    },
  );

  test('the CLI reference has every command and subcommand, with its options', () => {
    const cli = pages.find((p) => p.path === GENERATED_PATHS.cli)!.text;
    const commands = walkCommands(program());
    expect(commands.length).toBeGreaterThan(30);
    for (const c of commands.slice(1)) {
      const path = [];
      for (let x: typeof c | null = c; x?.parent; x = x.parent) path.unshift(x.name());
      expect(cli).toContain(`Usage: opgate ${path.join(' ')} `);
      for (const o of c.options) expect(cli).toContain(o.flags);
    }
  });

  test('the deviations page names every declared deviation, loosened tolerance and golden rule of op_db', () => {
    const page = pages.find((p) => p.path === GENERATED_PATHS.deviations)!.text;
    for (const o of opDb) {
      for (const d of o.goldenDeviations) expect(page, o.name).toContain(`**Why.** ${prose(d.reason)}`);
      for (const t of Object.values(o.goldenTolerances))
        expect(page, o.name).toContain(`**Why.** ${prose(t!.reason)}`);
      const named = o.goldenDeviations.length || Object.keys(o.goldenTolerances).length;
      if (named || o.skips.some((r) => r.oracle === 'golden')) expect(page, o.name).toMatch(rowOf(o.name));
    }
  });

  test('stalePages names a missing or changed page; writePages rewrites only those', () => {
    const root = mkdtempSync(join(tmpdir(), 'opgate-docs-'));
    mkdirSync(join(root, 'docs'));
    expect(stalePages(root, pages).map((p) => p.path)).toEqual(pages.map((p) => p.path));
    expect(writePages(root, pages)).toHaveLength(pages.length);
    expect(stalePages(root, pages)).toEqual([]);
    writeFileSync(join(root, GENERATED_PATHS.cli), 'edited by hand\n');
    expect(stalePages(root, pages).map((p) => p.path)).toEqual([GENERATED_PATHS.cli]);
    expect(writePages(root, pages).map((p) => p.path)).toEqual([GENERATED_PATHS.cli]);
    const cli = pages.find((p) => p.path === GENERATED_PATHS.cli)!;
    expect(readFileSync(join(root, GENERATED_PATHS.cli), 'utf8')).toBe(cli.text);
  });

  test('`opgate docs --check` (the CLI as bin/opgate.mjs composes it) passes on this tree', async () => {
    const [r] = await opgateBatch([{ args: ['docs', '--check'], cwd: PACKAGE_ROOT }]);
    expect(r.stdout + r.stderr).toContain('generated pages up to date');
    expect(r.code).toBe(0);
  }, 120_000);
});
