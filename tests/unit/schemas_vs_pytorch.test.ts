/** Every overload in the operator table exists in PyTorch 1.13 under the same qualified name (aten schemas). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { listOps } from '../../src/runtime/index.ts';

const atenNames = new Set(
  readFileSync(join(import.meta.dirname, '../../op_db/torch_aten_schemas.txt'), 'utf8')
    .split('\n')
    .map((l) => /^aten::([\w.]+)\(/.exec(l)?.[1])
    .filter((x): x is string => x !== undefined),
);

const qualified = (o: { name: string; overload: string }) =>
  o.overload ? `${o.name}.${o.overload}` : o.name;

test('overload names match PyTorch (add.Tensor, add_.Tensor, add.out, where.self_out, ...)', () => {
  const ours = listOps().filter((o) => !o.pythonOnly);
  expect(ours.length).toBeGreaterThan(300);
  expect(ours.map(qualified).filter((q) => !atenNames.has(q))).toEqual([]);
});

test('the Python-only functions (nn.functional.softsign) are exactly the ones aten has no schema for', () => {
  const python = listOps().filter((o) => o.pythonOnly);
  expect(python.map(qualified)).toEqual(
    expect.arrayContaining(['softsign', 'tanhshrink', 'softmin', 'normalize']),
  );
  expect(python.map(qualified).filter((q) => atenNames.has(q))).toEqual([]);
});
