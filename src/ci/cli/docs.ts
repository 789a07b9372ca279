/**
 * `opgate docs [--check]`: writes the generated pages (docs/deviations.md from op_db, docs/cli.md from this
 * program's help, src/ci/docs); with --check writes nothing and exits 1 naming each page that is stale.
 */
import type { Command } from 'commander';
import { opDb } from '../../../op_db/index.ts';
import { renderPages, stalePages, writePages } from '../docs/index.ts';
import { CiError } from '../errors.ts';
import { PACKAGE_ROOT } from '../run/root.ts';

/** The root of the program `cmd` belongs to: every command registered by then, the dashboards' included. */
const rootOf = (cmd: Command): Command => (cmd.parent ? rootOf(cmd.parent) : cmd);

export function registerDocsCommand(program: Command): void {
  program
    .command('docs')
    .description(
      'write the generated documentation pages: docs/deviations.md (from op_db) and docs/cli.md (from this ' +
        "CLI's help); --check writes nothing and exits 1 when a committed page is stale",
    )
    .option('--check', 'compare the committed pages with what would be written; exit 1 naming each stale one')
    .action((o: { check?: boolean }, cmd: Command) => {
      const pages = renderPages(rootOf(cmd), opDb, PACKAGE_ROOT);
      if (o.check) {
        const stale = stalePages(PACKAGE_ROOT, pages);
        for (const p of stale) console.log(`stale: ${p.path} (run \`npx opgate docs\` and commit it)`);
        if (stale.length === 0) console.log(`${pages.length} generated pages up to date`);
        process.exitCode = stale.length ? 1 : 0;
        return;
      }
      let written: readonly { path: string }[];
      try {
        written = writePages(PACKAGE_ROOT, pages);
      } catch (e) {
        throw new CiError('E_WRITE_FAILED', `docs: ${e instanceof Error ? e.message : String(e)}`);
      }
      for (const p of pages) console.log(`${written.includes(p) ? 'wrote' : 'unchanged'}: ${p.path}`);
    });
}
