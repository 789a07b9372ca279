/**
 * A mutation workspace: a temporary copy of the repository's files (tracked and untracked, not ignored;
 * node_modules and the recorded goldens linked, not copied) where one mutant at a time is written and undone.
 * The work tree itself is never touched.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CiError } from '../errors.ts';

/** Linked into a workspace, not copied: large and never mutated. */
const LINKED = ['node_modules', 'op_db/goldens'];

/** Live workspaces, removed if the process is interrupted (a finally block does not run on SIGINT). */
const live = new Set<string>();
let hooked = false;
function removeLiveOnSignal(): void {
  if (hooked) return;
  hooked = true;
  for (const sig of ['SIGINT', 'SIGTERM'] as const)
    process.once(sig, () => {
      for (const d of live) rmSync(d, { recursive: true, force: true });
      process.exit(130);
    });
}

export class Workspace {
  readonly dir: string;
  private readonly root: string;

  constructor(root: string) {
    this.root = root;
    this.dir = mkdtempSync(join(tmpdir(), 'opgate-mutate-'));
    live.add(this.dir);
    removeLiveOnSignal();
    let files: string[];
    try {
      files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], {
        cwd: root,
        encoding: 'utf8',
      })
        .split('\0')
        .filter(Boolean);
    } catch (e) {
      throw new CiError(
        'E_INVALID_ARGUMENT',
        `mutate: ${root} is not a git work tree (${(e as Error).message})`,
      );
    }
    for (const f of files) {
      if (LINKED.some((l) => f === l || f.startsWith(`${l}/`))) continue;
      const to = join(this.dir, f);
      mkdirSync(dirname(to), { recursive: true });
      try {
        cpSync(join(root, f), to);
      } catch {
        // A file deleted but not yet staged: nothing to copy.
      }
    }
    for (const l of LINKED) {
      mkdirSync(dirname(join(this.dir, l)), { recursive: true });
      symlinkSync(join(root, l), join(this.dir, l));
    }
  }

  /** Writes `file` with line `line` (1-based) replaced by `text`; returns the undo. */
  apply(file: string, line: number, expected: string, text: string): () => void {
    const path = join(this.dir, file);
    const original = readFileSync(path, 'utf8');
    const lines = original.split('\n');
    if (lines[line - 1] !== expected)
      throw new CiError(
        'E_INVALID_ARGUMENT',
        `mutate: ${file}:${line} is no longer the line the mutant was made from (got '${lines[line - 1]?.trim()}', expected '${expected.trim()}')`,
      );
    lines[line - 1] = text;
    writeFileSync(path, lines.join('\n'));
    return () => writeFileSync(path, original);
  }

  dispose(): void {
    live.delete(this.dir);
    rmSync(this.dir, { recursive: true, force: true });
  }

  toString(): string {
    return `workspace of ${this.root} at ${this.dir}`;
  }
}
