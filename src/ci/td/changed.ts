/** The changed files of `--changed`: a comma-separated list of paths, or a git revision range (`main...HEAD`). */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CiError } from '../errors.ts';
import { gitFailure } from '../run/root.ts';

export function changedFiles(spec: string, root: string): string[] {
  const parts = spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const looksLikeFiles =
    parts.length > 1 ||
    parts.some((p) => p.includes('/') && !p.includes('..')) ||
    parts.some((p) => existsSync(join(root, p)));
  if (looksLikeFiles) return parts;
  let out: string;
  try {
    out = execFileSync('git', ['diff', '--name-only', spec], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (e) {
    const why = gitFailure(e);
    throw new CiError(
      'E_INVALID_ARGUMENT',
      `changed files: got '${spec}', expected existing files (comma-separated) or a git range (git: ${why})`,
    );
  }
  return out.split('\n').filter(Boolean);
}
