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

test('overload names match PyTorch (add.Tensor, add_.Tensor, add.out, where.self_out, ...)', () => {
  const ours = listOps().map((o) => (o.overload ? `${o.name}.${o.overload}` : o.name));
  expect(ours.length).toBeGreaterThan(300);
  expect(ours.filter((q) => !atenNames.has(q))).toEqual([]);
});
