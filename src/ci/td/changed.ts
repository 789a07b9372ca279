/** The changed files of `--changed`: a comma-separated list of paths, or a git revision range (`main...HEAD`). */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

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
  const out = execFileSync('git', ['diff', '--name-only', spec], { cwd: root, encoding: 'utf8' });
  return out.split('\n').filter(Boolean);
}
