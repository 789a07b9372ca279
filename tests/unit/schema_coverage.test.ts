import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
/**
 * Schema coverage (`opgate coverage`): every PyTorch 1.13 aten overload of an op_db op is implemented and called
 * by an op_db sample, or declared unsupported with a reason; arguments are exercised by samples. The gate bites:
 * dropping an op's samples turns its overloads uncovered, and an undeclared, unimplemented overload is uncovered.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { opDb } from '../../op_db/index.ts';
import {
  atenOverloadsOf,
  type BoundCall,
  isTorchScriptOnly,
  type SchemaCoverage,
  sampleCalls,
  schemaCoverage,
} from '../../src/ci/coverage/index.ts';
import { parseSchema } from '../../src/runtime/index.ts';
import { opgate } from './run_helpers.ts';

/**
 * No known gaps. The last ones: masked_fill.Tensor_out / masked_fill_.Tensor (until the binder's exact first pass
 * made a 0-dim tensor value bind masked_fill.Tensor, as PyTorch's parser does) and to.device (until the oracles
 * named their own device for a sample's `device='cpu'` keyword, so `x.to(device='cpu', ...)` runs on each).
 */
let calls: BoundCall[];
let real: SchemaCoverage;
beforeAll(() => {
  calls = sampleCalls(opDb);
  real = schemaCoverage(opDb, { calls });
});

const uncovered = (c: SchemaCoverage) =>
  c.ops.flatMap((o) => o.overloads.filter((x) => x.status === 'uncovered').map((x) => x.name));

describe('schema coverage of op_db', () => {
  test('nothing uncovered but the known gaps; no stale unsupportedOverloads entry', () => {
    expect(uncovered(real)).toEqual([]);
    expect(real.overloads.uncovered).toBe(0);
    expect(real.staleDeclarations).toEqual([]);
    const o = real.overloads;
    expect(o.implemented + o.unsupported + o.uncovered).toBe(o.total);
  });

  test('at least 95% of the arguments of implemented overloads are exercised', () => {
    expect(real.arguments.exercised / real.arguments.total).toBeGreaterThanOrEqual(0.95);
  });

  test('an implemented overload whose samples are dropped shows up uncovered (the gate can fail)', () => {
    const withoutSort = calls.filter((c) => c.info !== 'sort');
    const c = schemaCoverage(opDb, { calls: withoutSort });
    expect(uncovered(c)).toEqual(expect.arrayContaining(['sort', 'sort.stable']));
    expect(c.overloads.uncovered).toBeGreaterThan(real.overloads.uncovered);
    const sort = c.ops.find((o) => o.base === 'sort')!.overloads.find((x) => x.name === 'sort')!;
    expect(sort.reason).toMatch(/no op_db sample calls it/);
    expect(sort.args.every((a) => !a.exercised)).toBe(true);
  });

  test('an argument no sample passes is unexercised (keepdim dropped from every sum call)', () => {
    const noKeepdim = calls.map((c) =>
      c.info === 'sum' ? { ...c, given: c.given.filter((g) => g !== 'keepdim') } : c,
    );
    const c = schemaCoverage(opDb, { calls: noKeepdim });
    const dim = c.ops.find((o) => o.base === 'sum')!.overloads.find((x) => x.name === 'sum.dim_IntList')!;
    expect(dim.args.find((a) => a.name === 'keepdim')?.exercised).toBe(false);
    expect(c.arguments.exercised).toBeLessThan(real.arguments.exercised);
  });

  test('an unimplemented overload without a declared reason is uncovered; a declaration naming nothing is stale', () => {
    const sum = opDb.find((i) => i.name === 'sum')!;
    const { 'sum.dim_DimnameList': _, ...rest } = sum.unsupportedOverloads;
    const stale = { ...rest, 'sum.no_such': 'x', 'sum.dim_IntList': 'y' };
    const c = schemaCoverage([{ ...sum, unsupportedOverloads: stale }], { calls });
    expect(uncovered(c)).toEqual(['sum.dim_DimnameList']);
    expect(c.staleDeclarations).toEqual([
      'sum: sum.no_such is not a listed aten overload of sum',
      'sum: sum.dim_IntList is implemented, yet declared unsupported',
    ]);
  });

  test('samples bind the overloads PyTorch would: value= reaches scatter.value, out= the out overloads', () => {
    const names = new Set(calls.map((c) => c.overload));
    for (const n of ['scatter.value', 'scatter.value_reduce_out', 'scatter_.value', 'add.out', 'add_.Tensor'])
      expect(names).toContain(n);
    const sum = calls.filter((c) => c.overload === 'sum.dim_IntList');
    expect(sum.some((c) => c.given.includes('keepdim'))).toBe(true);
  });

  test('TorchScript-only schemas (no Tensor anywhere) are left out and counted', () => {
    expect(isTorchScriptOnly(parseSchema('aten::add.int(int a, int b) -> int'))).toBe(true);
    expect(isTorchScriptOnly(parseSchema('aten::add.t(t[] a, t[] b) -> t[]'))).toBe(true);
    expect(
      isTorchScriptOnly(parseSchema('aten::arange(Scalar end, *, ScalarType? dtype=None) -> Tensor')),
    ).toBe(false);
    const add = atenOverloadsOf('add');
    expect(add.torchScriptOnly.map((s) => s.qualifiedName)).toEqual(
      expect.arrayContaining(['add.int', 'add.str', 'add.t']),
    );
    expect(add.listed.map((s) => s.qualifiedName)).toContain('add_.Scalar');
    expect(real.torchScriptOnlyExcluded).toBeGreaterThan(200);
  });
});

test('opgate coverage --json prints the totals, aten and Python', async () => {
  const o = await opgate(['coverage', '--json', '--op', 'add,sum']);
  expect(o.code).toBe(0);
  const j = JSON.parse(o.stdout);
  expect(Object.keys(j.overloads)).toEqual(['total', 'implemented', 'unsupported', 'uncovered']);
  expect(j.overloads.uncovered).toBe(0);
  expect(j.arguments.exercised).toBeLessThanOrEqual(j.arguments.total);
  expect(j.ops.map((x: { base: string }) => x.base)).toEqual(['add', 'sum']);
  for (const k of ['signatures', 'keywords'])
    expect(Object.keys(j.python[k])).toEqual(['total', 'covered', 'unsupported', 'uncovered']);
  expect(j.python.signatures.uncovered).toBe(0);
  expect(j.python.keywords.uncovered).toBe(0);
  expect(j.python.spellings.map((x: { name: string }) => x.name)).toEqual([
    'torch.add',
    'Tensor.add',
    'Tensor.add_',
    'torch.sum',
    'Tensor.sum',
  ]);
  // A gap fails the command: an aten overload of add that the runtime neither implements nor declares
  // unsupported (a Python gap fails it the same way: tests/unit/python_coverage.test.ts removes an op's samples
  // and sees the gate fail).
  const schemas = join(mkdtempSync(join(tmpdir(), 'opgate-cov-')), 'schemas.txt');
  writeFileSync(
    schemas,
    `${readFileSync(new URL('../../op_db/torch_aten_schemas.txt', import.meta.url), 'utf8')}` +
      'aten::add.Unsampled(Tensor self, int[2] pad) -> Tensor\n',
  );
  const gap = await opgate(['coverage', '--op', 'add', '--schemas', schemas]);
  expect(gap.code).toBe(1);
  expect(gap.stdout).toMatch(/add\.Unsampled +UNCOVERED/);
});
