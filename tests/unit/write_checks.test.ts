/**
 * at::assert_no_partial_overlap at its boundaries: an out= tensor that starts exactly where an input ends (or ends
 * where it starts) in the same storage shares no element with it, so PyTorch 1.13 accepts the call; one shared
 * element is a partial overlap and is refused before anything is written.
 */
import { describe, expect, test } from 'vitest';
import { callOp, type Tensor, tensor } from '../../src/runtime/index.ts';
import { assertNoPartialOverlap } from '../../src/runtime/ops/write_checks.ts';

const base = () => tensor([0, 1, 2, 3, 4, 5, 6, 7], { dtype: 'float32' });
const part = (t: Tensor, start: number, end: number) => callOp('slice', [t, 0, start, end]) as Tensor;

describe('partial overlap of an out= tensor with an input', () => {
  test('out right after the input: accepted, and written', () => {
    const x = base();
    const r = callOp('add', [part(x, 0, 4), 10], { out: part(x, 4, 8) }) as Tensor;
    expect(r.tolist()).toEqual([10, 11, 12, 13]);
    expect(x.tolist()).toEqual([0, 1, 2, 3, 10, 11, 12, 13]);
  });

  test('out right before the input: accepted, and written', () => {
    const x = base();
    callOp('add', [part(x, 4, 8), 10], { out: part(x, 0, 4) });
    expect(x.tolist()).toEqual([14, 15, 16, 17, 4, 5, 6, 7]);
  });

  test('one shared element either way: refused, nothing written', () => {
    for (const [inp, out] of [
      [
        [1, 5],
        [4, 8],
      ],
      [
        [3, 7],
        [0, 4],
      ],
    ]) {
      const x = base();
      const outT = part(x, out[0], out[1]);
      expect(() => callOp('add', [part(x, inp[0], inp[1]), 10], { out: outT })).toThrow(
        expect.objectContaining({ code: 'E_INTERNAL_OVERLAP' }),
      );
      expect(x.tolist()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    }
  });

  test('the check itself: adjacent ranges pass, touching by one element throws', () => {
    const x = base();
    expect(() => assertNoPartialOverlap(part(x, 4, 8), part(x, 0, 4), 'add')).not.toThrow();
    expect(() => assertNoPartialOverlap(part(x, 0, 4), part(x, 4, 8), 'add')).not.toThrow();
    expect(() => assertNoPartialOverlap(part(x, 3, 7), part(x, 0, 4), 'add')).toThrow(/some elements/);
  });
});
