/** Broadcasting: broadcastShapes, ops on broadcast inputs, expand (stride 0). Verified with PyTorch 1.13. */
import { describe, expect, it } from 'vitest';
import * as T from '../../src/runtime/index.ts';

const { tensor, zeros, ones } = { ...T, ...T.torch };
const code = (c: string) => expect.objectContaining({ code: c });

describe('broadcastShapes', () => {
  const ok: [number[], number[], number[]][] = [
    [
      [2, 3],
      [2, 3],
      [2, 3],
    ],
    [[], [3], [3]],
    [[3], [], [3]],
    [[], [], []],
    [
      [2, 1, 4],
      [3, 1],
      [2, 3, 4],
    ],
    [
      [5, 1],
      [1, 6],
      [5, 6],
    ],
    [[1], [7], [7]],
    [
      [4, 1, 1],
      [1, 2, 1],
      [4, 2, 1],
    ],
    // Zero-size dims broadcast like any size: against 1 they win, against anything else they must match.
    [
      [0, 1],
      [1, 5],
      [0, 5],
    ],
    [
      [1, 0],
      [3, 1],
      [3, 0],
    ],
    [[0], [1], [0]],
    [[0], [0], [0]],
    [
      [2, 1, 0],
      [3, 1],
      [2, 3, 0],
    ],
  ];
  for (const [a, b, want] of ok) {
    it(`[${a}] with [${b}] -> [${want}]`, () => {
      expect(T.broadcastShapes(a, b)).toEqual(want);
      expect(T.broadcastShapes(b, a)).toEqual(want);
    });
  }

  const bad: [number[], number[]][] = [
    [[0], [2]],
    [
      [2, 3],
      [3, 2],
    ],
    [[3], [4]],
    [
      [2, 0],
      [2, 3],
    ],
  ];
  for (const [a, b] of bad) {
    it(`[${a}] with [${b}] is E_SHAPE_MISMATCH`, () => {
      expect(() => T.broadcastShapes(a, b)).toThrow(code('E_SHAPE_MISMATCH'));
    });
  }

  it('the error names the sizes, the dimension and the op', () => {
    try {
      T.torch.add(zeros(2, 3), zeros(4, 3));
      expect.unreachable();
    } catch (e) {
      const err = e as T.OpgateError;
      expect(err.code).toBe('E_SHAPE_MISMATCH');
      expect(err.op).toBe('add');
      expect(err.message).toContain(
        'The size of tensor a (2) must match the size of tensor b (4) at non-singleton dimension 0',
      );
      expect(err.message).toMatch(/got \[2, 3\]/);
    }
  });

  it('core.broadcastAll folds any number of shapes', () => {
    expect(
      T.broadcastAll([
        [3, 1],
        [1, 4],
        [2, 1, 1],
      ]),
    ).toEqual([2, 3, 4]);
    expect(T.broadcastAll([])).toEqual([]);
    expect(() =>
      T.broadcastAll([
        [3, 1],
        [1, 4],
        [2, 2, 1],
      ]),
    ).toThrow(code('E_SHAPE_MISMATCH'));
  });
});

describe('ops on broadcast inputs', () => {
  it('column + row', () => {
    const r = T.torch.add(tensor([[1], [2]]), tensor([10, 20, 30]));
    expect(r.shape).toEqual([2, 3]);
    expect(r.tolist()).toEqual([
      [11n, 21n, 31n],
      [12n, 22n, 32n],
    ]);
  });

  it('scalar tensor and Python scalar broadcast to any shape', () => {
    expect(
      T.torch
        .mul(
          tensor([
            [1, 2],
            [3, 4],
          ]),
          tensor(3),
        )
        .tolist(),
    ).toEqual([
      [3n, 6n],
      [9n, 12n],
    ]);
    expect(T.torch.sub(tensor([1.5, 2.5]), 1).tolist()).toEqual([0.5, 1.5]);
  });

  it('0-d with 0-d stays 0-d', () => {
    const r = T.torch.add(tensor(3), tensor(4));
    expect(r.shape).toEqual([]);
    expect(r.item()).toBe(7n);
  });

  it('zero-size results', () => {
    expect(T.torch.add(zeros(0, 3), zeros(1, 3)).shape).toEqual([0, 3]);
    expect(T.torch.add(zeros(2, 1, 0), zeros(3, 1)).shape).toEqual([2, 3, 0]);
    expect(T.torch.add(zeros(0, 3), zeros(1, 3)).tolist()).toEqual([]);
  });

  it('three-way broadcast through a comparison', () => {
    const r = T.torch.lt(T.torch.arange(3).view(3, 1), T.torch.arange(4));
    expect(r.tolist()).toEqual([
      [false, true, true, true],
      [false, false, true, true],
      [false, false, false, true],
    ]);
  });

  it('an expanded (stride-0) input gives the same values as a materialised one', () => {
    const base = tensor([[1.5], [2.5], [3.5]]);
    const e = base.expand(3, 4);
    const other = T.torch.arange(12, { dtype: 'float32' }).view(3, 4);
    expect(T.torch.mul(e, other).tolist()).toEqual(T.torch.mul(e.contiguous(), other).tolist());
    // PyTorch gives the output of an expanded input contiguous strides (verified with PyTorch 1.13).
    expect(T.torch.add(ones(3, 1, 4).expand(3, 5, 4), ones(5, 4)).stride()).toEqual([20, 4, 1]);
  });

  it('in-place ops do not broadcast self', () => {
    expect(() => zeros(2).add_(zeros(2, 2))).toThrow(code('E_INPLACE_BROADCAST'));
    const a = zeros(2, 3);
    a.add_(tensor([1, 2, 3]));
    expect(a.tolist()).toEqual([
      [1, 2, 3],
      [1, 2, 3],
    ]);
  });
});

describe('expand', () => {
  it('new and size-1 dims get stride 0 (verified with PyTorch 1.13)', () => {
    const e = tensor([1, 2, 3]).expand(2, 3);
    expect(e.shape).toEqual([2, 3]);
    expect(e.stride()).toEqual([0, 1]);
    expect(
      tensor([[1], [2]])
        .expand(-1, 3)
        .stride(),
    ).toEqual([1, 0]);
    expect(zeros(3, 1, 2).expand(2, 3, 4, 2).stride()).toEqual([0, 2, 0, 1]);
    expect(
      zeros(2, 3)
        .expand_as(zeros(4, 2, 3))
        .stride(),
    ).toEqual([0, 3, 1]);
  });

  it('is a view: shares storage and sees writes', () => {
    const base = tensor([1, 2, 3]);
    const e = base.expand(2, 3);
    expect(e.storage).toBe(base.storage);
    base.mul_(10);
    expect(e.tolist()).toEqual([
      [10n, 20n, 30n],
      [10n, 20n, 30n],
    ]);
    expect(e.isContiguous()).toBe(false);
  });

  it('errors', () => {
    expect(() => zeros(3).expand(2)).toThrow(code('E_SHAPE_MISMATCH'));
    expect(() => zeros(3, 1).expand(3)).toThrow(code('E_SHAPE_MISMATCH'));
    expect(() => zeros(1).expand(-1, 3)).toThrow(code('E_INVALID_ARGUMENT'));
  });

  it('core.expandStrides', () => {
    expect(T.expandStrides([3, 1], [1, 1], [2, 3, 4])).toEqual([0, 1, 0]);
    expect(T.expandStrides([], [], [2, 2])).toEqual([0, 0]);
  });
});
