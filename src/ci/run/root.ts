import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Whether this is the compiled package (`npm pack`'s dist/, installed in another project) rather than the
 * TypeScript sources of opgate's own repository.
 */
export const COMPILED = import.meta.url.endsWith('.js');

/**
 * Where opgate's files are: vitest's root for a run, where tests/templates/ live. In opgate's repository, its
 * root (bench/ and tools/ are there too); in the installed package, its dist/ folder.
 */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * The project under test, whose commit a run records: opgate's repository, or, for the installed package, the
 * project that runs `opgate` (its working directory).
 */
export const PROJECT_ROOT = COMPILED ? process.cwd() : PACKAGE_ROOT;

/** A git command's trimmed output in the project under test, or 'unknown' (no git, not a work tree). */
export function gitOutput(args: readonly string[]): string {
  try {
    return execFileSync('git', args, { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return 'unknown';
  }
}

/** The first line git printed on stderr for a failed command (for a one-line coded error). */
export function gitFailure(e: unknown): string {
  return String((e as { stderr?: unknown }).stderr ?? (e as Error).message)
    .trim()
    .split('\n')[0];
}

/** The commit a run tests: $GITHUB_SHA in Actions, else the checkout's HEAD. */
export const commitUnderTest = (): string => process.env.GITHUB_SHA ?? gitOutput(['rev-parse', 'HEAD']);
