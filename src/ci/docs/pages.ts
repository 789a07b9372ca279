/**
 * The generated documentation pages: what `opgate docs` writes and `opgate docs --check` (and
 * tests/unit/docs_generated.test.ts) compares with the committed files.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { OpInfo } from '../../../op_db/index.ts';
import { renderCliReference } from './cli_reference.ts';
import { renderDeviations } from './deviations.ts';

/** A page: its path from the repository root and the text the generator renders for it. */
export interface GeneratedPage {
  readonly path: string;
  readonly text: string;
}

/** The paths of the generated pages, from the repository root. */
export const GENERATED_PATHS = { deviations: 'docs/deviations.md', cli: 'docs/cli.md' } as const;

/**
 * Renders every generated page: the deviations from op_db `db`, the CLI reference from `program`'s help (with the
 * defaults under the repository `root` shown relative to it).
 */
export function renderPages(program: Command, db: readonly OpInfo[], root: string): GeneratedPage[] {
  return [
    { path: GENERATED_PATHS.deviations, text: renderDeviations(db) },
    { path: GENERATED_PATHS.cli, text: renderCliReference(program, root) },
  ];
}

/** The pages whose file under `root` is missing or differs from the rendered text. */
export function stalePages(root: string, pages: readonly GeneratedPage[]): GeneratedPage[] {
  return pages.filter((p) => {
    const file = join(root, p.path);
    return !existsSync(file) || readFileSync(file, 'utf8') !== p.text;
  });
}

/** Writes the stale pages under `root`; returns them. */
export function writePages(root: string, pages: readonly GeneratedPage[]): GeneratedPage[] {
  const stale = stalePages(root, pages);
  for (const p of stale) writeFileSync(join(root, p.path), p.text);
  return stale;
}
