/**
 * The mutation selector: which matrix instances a mutant runs under the cap. A mutant in shared code (core/,
 * the cpu iterator, a pointwise helper) selects thousands of instances and runs 400, so those must be the ones
 * the mutated code serves: its dtype / layout / oracle (PREFERRED), the ops defined where a helper function is
 * used, and a helper's family when no op file imports it by name.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { MatrixInstance } from '../../src/ci/matrix.ts';
import { enclosingFunction, Selector, splitPreferred } from '../../src/ci/mutate/select.ts';

const ROOT = join(import.meta.dirname, '../..');

const inst = (oracle: string, dtype: string, layout = 'contiguous', exactRounding = true, name = 'mul') =>
  ({
    id: `${oracle}-${dtype}-${layout}${name === 'mul' ? '' : `-${name}`}`,
    oracle,
    dtype,
    layout,
    device: 'cpu',
    info: { name, flags: { exactRounding } },
  }) as unknown as MatrixInstance;

describe('splitPreferred', () => {
  const list = [
    inst('reference', 'float32'),
    inst('golden', 'bfloat16'),
    inst('gradcheck', 'float64'),
    inst('reference', 'float16', 'offset'),
    inst('reference', 'float16', 'contiguous', false),
    inst('errors', 'float32'),
  ];
  const ids = (l: MatrixInstance[]) => l.map((i) => i.id);

  test('a rounding bug: 16-bit floats of exactRounding ops in value oracles first, order kept', () => {
    const [first, rest] = splitPreferred(list, 'round-toward-zero', 'const rounding = 0x7fff;');
    expect(ids(first)).toEqual(['golden-bfloat16-contiguous', 'reference-float16-offset']);
    expect(first.length + rest.length).toBe(list.length);
  });

  test('a derivative line: gradient oracles; a dropped offset: the offset layout; a dropped guard: errors', () => {
    expect(ids(splitPreferred(list, 'negate-derivative', '(c): Grads => [c.grad]')[0])).toEqual([
      'gradcheck-float64-contiguous',
    ]);
    expect(ids(splitPreferred(list, 'drop-offset', 'x.storageOffset + i')[0])).toEqual([
      'reference-float16-offset',
    ]);
    expect(ids(splitPreferred(list, 'drop-guard', 'if (bad) throw e;')[0])).toEqual([
      'errors-float32-contiguous',
    ]);
  });

  test("a line of TensorIterator's dim order (by file): golden add on cpu, whatever the line says", () => {
    const withAdd = [...list, inst('golden', 'float64', 'contiguous', true, 'add')];
    expect(
      ids(
        splitPreferred(withAdd, 'swap-comparison', 'if (s0 > s1) return 1;', 'src/runtime/core/layout.ts')[0],
      ),
    ).toEqual(['golden-float64-contiguous-add']);
    expect(
      splitPreferred(withAdd, 'swap-comparison', 'if (s0 > s1) return 1;', 'src/runtime/core/shape.ts')[0],
    ).toEqual([]);
  });

  test('no rule applies: nothing is preferred, nothing dropped', () => {
    const [first, rest] = splitPreferred(list, 'promotion-entry', "int8: 'int16',");
    expect(first).toEqual([]);
    expect(rest).toEqual(list);
  });
});

test('enclosingFunction names the top-level function holding a line', () => {
  const text = ['export function f(a: number) {', '  return a + 1;', '}', 'const x = 1;', ''].join('\n');
  expect(enclosingFunction(text, 2)).toBe('f');
  expect(enclosingFunction(text, 4)).toBe('x');
});

describe('Selector', () => {
  const s = new Selector(ROOT, 'pull', 400);

  test('half.ts rounding: every one of the 400 runs a 16-bit float through an exactRounding op', () => {
    const sel = s.select({
      file: 'src/runtime/core/half.ts',
      id: 'a4c739389996',
      line: 17,
      operator: 'round-toward-zero',
    });
    expect(sel.ids).toHaveLength(400);
    for (const id of sel.ids) expect(id).toMatch(/_(float16|bfloat16)_/);
  });

  test("a helper's line runs the ops defined where its function is used first (floorDivFloat: div)", () => {
    const sel = s.select({
      file: 'src/runtime/ops/pointwise/arith/scalar_math.ts',
      id: '0e6026923331',
      line: 52,
      operator: 'remove-correction',
    });
    expect(sel.ops[0]).toBe('div');
  });

  test('a pointwise helper no op file imports by name reaches its family (define.ts: neg, not only add)', () => {
    const sel = s.select({
      file: 'src/runtime/ops/pointwise/define.ts',
      id: '7b0ed98c2b1f',
      line: 64,
      operator: 'drop-guard',
    });
    expect(sel.selected).toBeGreaterThan(1000);
    expect(sel.ids).toContain('test_dtypes_neg_cpu_bool_contiguous_eager');
  });
}, 120_000);
