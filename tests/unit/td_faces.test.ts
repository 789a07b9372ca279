/**
 * Op family faces (src/runtime/ops/<family>/index.ts, op_db/ops/<family>/index.ts) only re-export: target
 * determination and the mutation selector see an import through one as an import of the file that defines the
 * imported name, and a change to a face as a change to the files it re-exports.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
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
});
