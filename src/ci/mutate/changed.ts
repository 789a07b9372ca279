/** The lines a git range changed (`git diff -U0`), per file, in the new version: a PR gate mutates only these. */
import { execFileSync } from 'node:child_process';
import { CiError } from '../errors.ts';
import { gitFailure } from '../run/root.ts';

export function changedLines(range: string, root: string): Map<string, Set<number>> {
  let diff: string;
  try {
    diff = execFileSync('git', ['diff', '-U0', '--no-color', range, '--', '*.ts'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 256 << 20,
    });
  } catch (e) {
    const why = gitFailure(e);
    throw new CiError(
      'E_INVALID_ARGUMENT',
      `mutate --changed: got '${range}', expected a git range (git: ${why})`,
    );
  }
  const out = new Map<string, Set<number>>();
  let file: string | null = null;
  for (const line of diff.split('\n')) {
    const f = /^\+\+\+ (?:b\/(.+)|\/dev\/null)$/.exec(line);
    if (f) {
      file = f[1] ?? null;
      continue;
    }
    const h = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (h && file) {
      const start = Number(h[1]);
      const count = h[2] === undefined ? 1 : Number(h[2]);
      const set = out.get(file) ?? new Set<number>();
      for (let i = start; i < start + count; i++) set.add(i);
      out.set(file, set);
    }
  }
  return out;
}
