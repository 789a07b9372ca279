/**
 * The runtime's and op_db's import graph as target determination and the mutation selector read it: which
 * repository files a file imports. An op family's face (`src/runtime/ops/nn/pool/index.ts`,
 * `op_db/ops/nn/pool/index.ts`) only re-exports its files, so an import through it counts as an import of the
 * files that define the names imported: unpool.ts importing `indexValues` from nn/embedding's face imports
 * embedding.ts, not the whole embedding family (else every helper of a family would seem used by every file
 * that imports anything of it).
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** An op family's face: an index.ts below src/runtime/ops/ or op_db/ops/ (not ops/index.ts itself). */
export const FAMILY_FACE = /^(?:src\/runtime\/ops|op_db\/ops)\/.+\/index\.ts$/;

const IMPORT = /^(?:import|export)\s([^;]*?from\s+)?'(\.[^']+)'/gms;
const REEXPORT = /^export\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'(\.[^']+)'/gms;

function repoPath(root: string, from: string, spec: string): string {
  return relative(root, resolve(root, dirname(from), spec))
    .split('\\')
    .join('/');
}

/** `{ a, type B, c as d }` -> [a, B, c]; null for a namespace or default import (it names no export). */
function namesOf(clause: string): string[] | null {
  const braces = /\{([^}]*)\}/.exec(clause);
  if (!braces || /^\s*(?:type\s+)?[\w$]+\s*,|\*/.test(clause)) return null;
  return braces[1]
    .split(',')
    .map(
      (n) =>
        n
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0],
    )
    .filter(Boolean);
}

const faces = new Map<string, Map<string, string>>();

/** Which file each name a face re-exports comes from (through nested family faces). */
function faceExports(root: string, face: string): Map<string, string> {
  const key = `${root}\0${face}`;
  let map = faces.get(key);
  if (map) return map;
  map = new Map();
  faces.set(key, map);
  const text = readFileSync(join(root, face), 'utf8');
  for (const m of text.matchAll(REEXPORT)) {
    const source = repoPath(root, face, m[2]);
    const names = namesOf(`{${m[1]}}`) ?? [];
    const nested = FAMILY_FACE.test(source) ? faceExports(root, source) : null;
    for (const n of names) map.set(n, nested?.get(n) ?? source);
  }
  return map;
}

/** Every file an op family's face re-exports from. */
export function faceSources(root: string, face: string): string[] {
  return [...new Set(faceExports(root, face).values())];
}

/** The repository paths `file`'s relative imports and re-exports name (through op family faces, by name). */
export function relativeImports(root: string, file: string, text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const target = repoPath(root, file, m[2]);
    const names = m[1] && FAMILY_FACE.test(target) ? namesOf(m[1]) : null;
    if (!names) {
      out.push(target);
      continue;
    }
    const exported = faceExports(root, target);
    for (const n of names) out.push(exported.get(n) ?? target);
  }
  return [...new Set(out)];
}
