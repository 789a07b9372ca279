/**
 * The mutation catalogue and its bookkeeping: every operator makes mutants of today's runtime, each a one-line
 * edit with a stable id; the sites do what their operator says (checked on small texts); sampling covers every
 * operator; changed lines come from a real git repository; equivalents need a matching declaration; the score
 * counts timeouts as detected and leaves equivalents out.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  changedLines,
  EQUIVALENTS,
  equivalenceOf,
  generateMutants,
  type Mutant,
  mutantsOfText,
  OPERATORS,
  sampleMutants,
} from '../../src/ci/mutate/index.ts';
import { mutationScore } from '../../src/ci/store/mutation.ts';

const ROOT = join(import.meta.dirname, '../..');
const all = generateMutants(ROOT);

/** The mutated lines `operator` makes of `line` (in a kernel file). */
const edits = (operator: string, line: string, next = '', file = 'src/runtime/ops/x.ts') =>
  mutantsOfText(file, `${line}\n${next}`)
    .filter((m) => m.operator === operator && m.line === 1)
    .map((m) => m.mutated);

describe('the mutation catalogue', () => {
  test('every operator makes mutants of the runtime; each changes exactly its one line, and ids are stable and unique', () => {
    for (const op of OPERATORS)
      expect(
        all.some((m) => m.operator === op.id),
        op.id,
      ).toBe(true);
    expect(all.length).toBeGreaterThan(1000);
    for (const m of all) {
      expect(m.mutated).not.toBe(m.original);
      expect(m.mutated.includes('\n')).toBe(false);
    }
    expect(new Set(all.map((m) => m.id)).size).toBe(all.length);
    expect(generateMutants(ROOT).map((m) => m.id)).toEqual(all.map((m) => m.id));
  });

  test('comparisons in generated code are swapped, those in error messages (prose) are not', () => {
    // WGSL and JS row loops live in strings and templates: code.
    expect(edits('swap-comparison', "  wgsl: { f32: 'select(a, 0.0, a < 0.0)' },")).toEqual([
      "  wgsl: { f32: 'select(a, 0.0, a <= 0.0)' },",
    ]);
    // Source text holding `${...}` placeholders, written with @{ (a string with ${ in it reads as a typo).
    const src = (s: string) => s.replaceAll('@{', '${');
    expect(edits('swap-comparison', src('  `if (lid < @{s}u) { step }`,'))).toEqual([
      src('  `if (lid <= @{s}u) { step }`,'),
    ]);
    // An error's got / expected, a thrown message: prose; the code on the same line still mutates.
    expect(edits('swap-comparison', "  { op, arg: 'size', got: n, expected: 'sizes >= 0' },")).toEqual([]);
    expect(edits('swap-comparison', "  if (n < 0) throw invalid(op, 'size must be >= 0');")).toEqual([
      "  if (n <= 0) throw invalid(op, 'size must be >= 0');",
    ]);
    expect(edits('swap-comparison', src('  throw err(`got @{a > b ? a : b} but found x > y`);'))).toEqual([
      src('  throw err(`got @{a >= b ? a : b} but found x > y`);'),
    ]);
  });

  test('comments are never mutated', () => {
    expect(mutantsOfText('src/runtime/ops/x.ts', '// if (a > b) throw e;\n * x.storageOffset + i')).toEqual(
      [],
    );
  });

  test('each site makes the bug its operator names', () => {
    expect(edits('drop-offset', 'const at = x.storageOffset + i * s;')).toEqual(['const at = i * s;']);
    expect(edits('drop-stride-term', 'o[k] = base[k] + i0 * strides[k][0] + j * strides[k][1];')).toEqual([
      'o[k] = base[k] + j * strides[k][1];',
      'o[k] = base[k] + i0 * strides[k][0];',
    ]);
    expect(edits('swap-comparison', 'if (a > b && c <= d) x();')).toEqual([
      'if (a >= b && c <= d) x();',
      'if (a > b && c < d) x();',
    ]);
    expect(edits('swap-comparison', 'const f = (a: Array<number>) => a;')).toEqual([]);
    expect(edits('remove-correction', '  return [sumToSize(mul(g, y), a.shape), null];')).toEqual([
      '  return [mul(g, y), null];',
    ]);
    expect(edits('remove-correction', '    out.bumpVersion();')).toEqual(['    ']);
    expect(edits('negate-derivative', 'derivative: (c) => neg(div(c.grad, x)),')).toContain(
      'derivative: (c) => div(c.grad, x),',
    );
    expect(edits('drop-guard', '  if (n < 0)', '    throw new Error("negative");')).toEqual(['  if (false)']);
    expect(edits('drop-guard', '  if (n < 0)', '    return 1;')).toEqual([]);
    expect(edits('narrow-accumulator', 'const acc = new Float64Array(m);')).toEqual([
      'const acc = new Float32Array(m);',
    ]);
    expect(
      edits('scale-tolerance', '  float32: { rtol: 1.3e-6, atol: 1e-5 },', '', 'src/oracles/tolerances.ts'),
    ).toEqual(['  float32: { rtol: 0.000013, atol: 1e-5 },', '  float32: { rtol: 1.3e-6, atol: 0.0001 },']);
  });

  test('a sample takes every operator before any operator twice, and the seed fixes it', () => {
    const s = sampleMutants(all, OPERATORS.length, 7);
    expect(new Set(s.map((m) => m.operator)).size).toBe(OPERATORS.length);
    expect(sampleMutants(all, 50, 7).map((m) => m.id)).toEqual(sampleMutants(all, 50, 7).map((m) => m.id));
    expect(sampleMutants(all, 50, 8).map((m) => m.id)).not.toEqual(
      sampleMutants(all, 50, 7).map((m) => m.id),
    );
  });

  test('changed lines of a git range, per file, in the new version', () => {
    const dir = mkdtempSync(join(tmpdir(), 'opgate-mut-git-'));
    const git = (...a: string[]) =>
      execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...a], {
        cwd: dir,
        encoding: 'utf8',
      });
    git('init', '-q');
    writeFileSync(join(dir, 'a.ts'), 'one\ntwo\nthree\nfour\n');
    git('add', '.');
    git('commit', '-qm', 'base');
    writeFileSync(join(dir, 'a.ts'), 'one\nTWO\nthree\nfour\nfive\nsix\n');
    writeFileSync(join(dir, 'b.ts'), 'new\n');
    git('add', '.');
    git('commit', '-qm', 'change');
    const lines = changedLines('HEAD~1..HEAD', dir);
    expect([...(lines.get('a.ts') ?? [])].sort()).toEqual([2, 5, 6]);
    expect([...(lines.get('b.ts') ?? [])]).toEqual([1]);
    expect(() => changedLines('nope..HEAD', dir)).toThrow(/E_INVALID_ARGUMENT|expected a git range/);
  });

  test('an equivalent needs a declaration matching file, operator and both lines', () => {
    const m: Mutant = {
      id: 'x',
      file: 'src/runtime/ops/x.ts',
      line: 3,
      operator: 'swap-comparison',
      original: 'if (a > b) m = a;',
      mutated: 'if (a >= b) m = a;',
    };
    const decl = {
      file: m.file,
      operator: m.operator,
      original: 'a > b',
      mutated: 'a >= b',
      reason: 'a == b assigns the same value',
    };
    expect(equivalenceOf(m, [decl])).toBe(decl.reason);
    expect(equivalenceOf(m, [{ ...decl, operator: 'drop-guard' }])).toBeNull();
    expect(equivalenceOf(m, [{ ...decl, mutated: 'a < b' }])).toBeNull();
  });

  test("every declared equivalent matches a mutant of today's tree (a declaration whose line changed is stale)", () => {
    const stale = EQUIVALENTS.filter((e) => !all.some((m) => equivalenceOf(m, [e]) !== null)).map(
      (e) => `${e.file}: ${e.original}`,
    );
    expect(stale).toEqual([]);
  });

  test('the score: timeouts count as detected, equivalents and errors are left out', () => {
    const s = mutationScore(['killed', 'killed', 'timeout', 'survived', 'equivalent', 'error']);
    expect(s).toMatchObject({ mutants: 6, killed: 2, timeout: 1, survived: 1, equivalent: 1, error: 1 });
    expect(s.score).toBe(3 / 4);
    expect(mutationScore(['equivalent']).score).toBe(1);
  });
});
