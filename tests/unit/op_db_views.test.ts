/**
 * The view / copy / factory OpInfos: their references on hand-checked cases, and every pull-tier instance of
 * these ops passing (xfails failing, as declared).
 */
import { describe, expect, test } from 'vitest';
import { opDb, type RefTensor, refTensor } from '../../op_db/index.ts';
import * as R from '../../op_db/refs/views.ts';
import { expandMatrix, staleRules } from '../../src/ci/index.ts';
import { runOracle } from '../../src/oracles/index.ts';

const OPS = [
  ...[
    'view',
    'reshape',
    'permute',
    'transpose',
    't',
    'expand',
    'expand_as',
    'squeeze',
    'unsqueeze',
    'flatten',
  ],
  ...['narrow', 'select', 'slice', 'as_strided', 'unfold', 'diagonal', 'split', 'split_with_sizes', 'chunk'],
  ...['unbind', 'movedim', 'contiguous', 'clone', 'to', 'copy_', 'resize_', 'fill_', 'zero_'],
  ...['empty', 'zeros', 'ones', 'full', 'arange', 'linspace', 'eye'],
  ...['empty_like', 'zeros_like', 'ones_like', 'full_like'],
];
const arange = (shape: number[]): RefTensor =>
  refTensor(
    shape,
    'float64',
    Array.from({ length: shape.reduce((a, b) => a * b, 1) }, (_, i) => i),
  );
const vals = (t: RefTensor) => [...t.re];

describe('view references', () => {
  test('permute / transpose / movedim gather the right elements', () => {
    const x = arange([2, 3]);
    expect(vals(R.permuteRef(x, [1, 0]))).toEqual([0, 3, 1, 4, 2, 5]);
    expect(vals(R.transposeRef(x, -1, 0))).toEqual([0, 3, 1, 4, 2, 5]);
    expect(R.movedimRef(arange([2, 3, 4]), 0, -1).shape).toEqual([3, 4, 2]);
    expect(vals(R.transposeRef(arange([]), 0, -1))).toEqual([0]);
  });

  test('diagonal, unfold, slice and as_strided', () => {
    const x = arange([3, 4]);
    expect(vals(R.diagonalRef(x, 1))).toEqual([1, 6, 11]);
    expect(vals(R.diagonalRef(x, -1))).toEqual([4, 9]);
    expect(R.diagonalRef(x, -5).shape).toEqual([0]);
    expect(vals(R.unfoldRef(arange([5]), 0, 2, 2))).toEqual([0, 1, 2, 3]);
    expect(vals(R.sliceRef(x, 0, -100, 100, 2))).toEqual([0, 1, 2, 3, 8, 9, 10, 11]);
    expect(vals(R.asStridedRef(x, [2, 2], [1, 2], 1))).toEqual([1, 3, 2, 4]);
  });

  test('split / chunk / unbind piece sizes follow PyTorch', () => {
    const x = arange([5, 2]);
    expect(R.splitRef(x, 2).map((t) => t.shape[0])).toEqual([2, 2, 1]);
    expect(R.chunkRef(x, 3).map((t) => t.shape[0])).toEqual([2, 2, 1]);
    expect(R.chunkRef(arange([0, 2]), 3).map((t) => t.shape)).toEqual([
      [0, 2],
      [0, 2],
      [0, 2],
    ]);
    expect(R.unbindRef(arange([0, 2]))).toEqual([]);
  });

  test('conversions: complex to bool tests both parts, complex to real keeps the real part', () => {
    const z = refTensor([2], 'complex64', [0, 0], [0, 2]);
    expect(vals(R.convertRef(z, 'bool'))).toEqual([0, 1]);
    expect(R.convertRef(z, 'float32').im).toBeNull();
  });
});

describe('view / copy / factory OpInfos', () => {
  test('every op has an OpInfo', () => {
    const covered = new Set(opDb.map((o) => o.op));
    expect(OPS.filter((n) => !covered.has(n))).toEqual([]);
  });

  test('pull-tier instances pass; xfails fail; no stale rules', async () => {
    const problems: string[] = [];
    for (const inst of expandMatrix('pull', { op: OPS })) {
      if (inst.rule?.kind === 'skip') continue;
      let error: unknown = null;
      try {
        await runOracle(inst);
      } catch (e) {
        error = e;
      }
      if (inst.rule?.kind === 'xfail' && !error) problems.push(`unexpected success: ${inst.id}`);
      if (!inst.rule && error) problems.push((error as Error).message.split('\n')[0]);
    }
    expect(problems).toEqual([]);
    const mine = new Set(OPS);
    expect(staleRules().filter((r) => mine.has(r.op))).toEqual([]);
  }, 120_000);
});
