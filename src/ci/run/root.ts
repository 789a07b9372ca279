import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root: vitest's root for a run, git's working directory, where bench/ and tests/ live. */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** A git command's trimmed output in the repository, or 'unknown' (no git, not a work tree). */
export function gitOutput(args: readonly string[]): string {
  try {
    return execFileSync('git', args, { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'ignore'] })
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
