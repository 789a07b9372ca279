/**
 * Mutants from the catalogue: every site match on every (non-comment) line of the files an operator covers,
 * each a one-line edit with a stable id (file, operator, the line's text and the edit: line numbers may move).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rng } from '../../../op_db/index.ts';
import { sourceFiles } from '../td/index.ts';
import { type MutationOperator, OPERATORS, type Site } from './catalogue.ts';

export interface Mutant {
  readonly id: string;
  /** Repository path. */
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  readonly operator: string;
  readonly original: string;
  readonly mutated: string;
  /** A named mutant's name (the gaps); absent for generated ones. */
  readonly name?: string;
  /** Unit test files that also run for it, beyond those importing the file. */
  readonly tests?: readonly string[];
  /** Exactly these matrix instances (a named mutant's), instead of target determination's selection. */
  readonly instances?: readonly string[];
}

/** Where mutation applies by default: the runtime, plus where tolerances live (the oracles and op_db). */
export const MUTATED_ROOTS = ['src/runtime', 'src/oracles', 'op_db'] as const;

export function mutantId(
  file: string,
  operator: string,
  original: string,
  mutated: string,
  nth: number,
): string {
  return createHash('sha1')
    .update([file, operator, original.trim(), mutated.trim(), nth].join('\n'))
    .digest('hex')
    .slice(0, 12);
}

const COMMENT = /^\s*(\/\/|\/\*|\*)/;

/** A message line: an error's got/expected, a throw, or PyTorch's "Expected ... but found ..." wording. */
const MESSAGE = /\b(got|expected|reason): |\bExpected\b|\bbut (found|got)\b|\bthrow\b/;

/**
 * Whether `at` in `line` is prose: inside a string or template literal on a message line (elsewhere a literal is
 * generated code: WGSL, a JS row loop). Tracks quotes and `${}` nesting on one line.
 */
export function inProse(line: string, at: number): boolean {
  const stack: string[] = [];
  for (let i = 0; i < at; i++) {
    const c = line[i];
    const top = stack[stack.length - 1];
    if (top === "'" || top === '"') {
      if (c === '\\') i++;
      else if (c === top) stack.pop();
    } else if (top === '`') {
      if (c === '\\') i++;
      else if (c === '`') stack.pop();
      else if (c === '$' && line[i + 1] === '{') {
        stack.push('{');
        i++;
      }
    } else if (c === "'" || c === '"' || c === '`') stack.push(c);
    else if (c === '{') stack.push('{');
    else if (c === '}' && top === '{') stack.pop();
  }
  const top = stack[stack.length - 1];
  return (top === "'" || top === '"' || top === '`') && MESSAGE.test(line);
}

/** The new lines one site makes of `line` (one per match). */
function applySite(site: Site, line: string, next: string | undefined): string[] {
  if (site.line && !site.line.test(line)) return [];
  if (site.next && !(next !== undefined && site.next.test(next))) return [];
  const re = new RegExp(
    site.find.source,
    site.find.flags.includes('g') ? site.find.flags : `${site.find.flags}g`,
  );
  const out: string[] = [];
  for (let m = re.exec(line); m; m = re.exec(line)) {
    if (m[0].length === 0) re.lastIndex++;
    if (site.codeOnly && inProse(line, m.index)) continue;
    const r = site.replace;
    const mutated =
      typeof r === 'string'
        ? line.slice(0, m.index) +
          m[0].replace(new RegExp(site.find.source, site.find.flags), r) +
          line.slice(m.index + m[0].length)
        : r(m, line);
    if (mutated !== null && mutated !== line) out.push(mutated);
  }
  return out;
}

/** Every mutant the operators make of one file's text. */
export function mutantsOfText(
  file: string,
  text: string,
  operators: readonly MutationOperator[] = OPERATORS,
): Mutant[] {
  const lines = text.split('\n');
  const out: Mutant[] = [];
  const seen = new Map<string, number>();
  for (const op of operators) {
    if (!op.files.test(file)) continue;
    lines.forEach((line, i) => {
      if (COMMENT.test(line)) return;
      for (const site of op.sites)
        for (const mutated of applySite(site, line, lines[i + 1])) {
          const key = `${op.id}\n${line.trim()}\n${mutated.trim()}`;
          const nth = seen.get(key) ?? 0;
          seen.set(key, nth + 1);
          out.push({
            id: mutantId(file, op.id, line, mutated, nth),
            file,
            line: i + 1,
            operator: op.id,
            original: line,
            mutated,
          });
        }
    });
  }
  return out;
}

/** Every mutant of the files under `roots`. */
export function generateMutants(root: string, roots: readonly string[] = MUTATED_ROOTS): Mutant[] {
  return roots.flatMap((dir) =>
    sourceFiles(root, dir).flatMap((f) => mutantsOfText(f, readFileSync(join(root, f), 'utf8'))),
  );
}

export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const r = rng(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * `n` mutants stratified by operator: operators take turns (each its own seeded shuffle, one file at a time
 * before any repeats), so a small sample still covers every operator and spreads over files.
 */
export function sampleMutants(mutants: readonly Mutant[], n: number, seed: number): Mutant[] {
  const byOp = new Map<string, Mutant[]>();
  for (const m of mutants) byOp.set(m.operator, [...(byOp.get(m.operator) ?? []), m]);
  const queues = [...byOp.keys()].sort().map((op) => spreadOverFiles(shuffled(byOp.get(op)!, seed)));
  const out: Mutant[] = [];
  while (out.length < n && queues.some((q) => q.length))
    for (const q of queues) if (q.length && out.length < n) out.push(q.shift()!);
  return out;
}

/** Round-robin over files in first-seen order, keeping each file's order. */
function spreadOverFiles(ms: readonly Mutant[]): Mutant[] {
  const byFile = new Map<string, Mutant[]>();
  for (const m of ms) byFile.set(m.file, [...(byFile.get(m.file) ?? []), m]);
  const lists = [...byFile.values()];
  const out: Mutant[] = [];
  for (let i = 0; out.length < ms.length; i++) for (const l of lists) if (i < l.length) out.push(l[i]);
  return out;
}
