/**
 * Op family faces (src/runtime/ops/<family>/index.ts, op_db/ops/<family>/index.ts) only re-export: target
 * determination and the mutation selector see an import through one as an import of the file that defines the
 * imported name, and a change to a face as a change to the files it re-exports.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { opDb } from '../../op_db/index.ts';
import { affectedBy, relativeImports } from '../../src/ci/td/index.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const importsOf = (f: string) => relativeImports(ROOT, f, readFileSync(resolve(ROOT, f), 'utf8'));

describe('imports through an op family face', () => {
  test('name the defining file, not the face', () => {
    const got = importsOf('src/runtime/ops/nn/pool/unpool.ts');
    expect(got).toContain('src/runtime/ops/nn/embedding/embedding.ts');
    expect(got).not.toContain('src/runtime/ops/nn/embedding/index.ts');
    // Only the file that defines the imported name: not embedding_bag.ts or one_hot.ts beside it.
    expect(got).not.toContain('src/runtime/ops/nn/embedding/embedding_bag.ts');
  });

  test('faces outside the op families are still imported as themselves', () => {
    expect(importsOf('src/runtime/ops/nn/pool/unpool.ts')).toContain('src/runtime/dispatch/index.ts');
  });

  test("a changed runtime face selects its files' ops, not everything", () => {
    const a = affectedBy(['src/runtime/ops/nn/pool/index.ts'], ROOT);
    expect(a.all).toBe(false);
    expect([...a.ops.keys()]).toContain('nn.functional.max_pool2d');
    expect([...a.ops.keys()]).toContain('nn.functional.adaptive_avg_pool2d');
    expect(a.ops.has('nn.functional.conv2d')).toBe(false);
  });

  test('a changed op_db face selects the OpInfos of the files it re-exports', () => {
    const a = affectedBy(['op_db/ops/nn/pool/index.ts'], ROOT);
    expect(a.all).toBe(false);
    expect([...a.ops.keys()]).toContain('nn.functional.fractional_max_pool2d');
    expect(a.ops.has('nn.functional.conv2d')).toBe(false);
  });

  test('a pointwise sub-family face (pointwise/trig/) reaches its rows, not the whole pointwise family', () => {
    const a = affectedBy(['src/runtime/ops/pointwise/trig/trig.ts'], ROOT);
    expect(a.all).toBe(false);
    expect([...a.ops.keys()]).toEqual(expect.arrayContaining(['sin', 'atan2', 'deg2rad']));
    // Not the other sub-families' rows (derivative formulas' own ops, such as square, are served too).
    for (const other of ['exp', 'floor', 'eq', 'bitwise_and', 'erf']) expect(a.ops.has(other)).toBe(false);
  });

  test('every OpInfo knows the op_db/ops file that declared it, however deep its family folder', () => {
    // Target determination maps an op_db change to exactly these OpInfos (affected.ts).
    const missing = opDb.filter((o) => !o.declaredIn).map((o) => o.name);
    expect(missing).toEqual([]);
    const where = (name: string) => opDb.find((o) => o.name === name)?.declaredIn;
    expect(where('sin')).toBe('op_db/ops/pointwise/trig/trig.ts');
    expect(where('nn.functional.relu')).toBe('op_db/ops/nn/activation/rectifiers.ts');
    const a = affectedBy(['op_db/ops/pointwise/trig/trig.ts'], ROOT);
    expect([...a.ops.keys()].sort()).toEqual(
      opDb
        .filter((o) => o.declaredIn === 'op_db/ops/pointwise/trig/trig.ts')
        .map((o) => o.name)
        .sort(),
    );
  });
});
