/**
 * max_unpool2d.out / max_unpool3d.out, which no op_db sample reaches (F.max_unpoolNd has no out=): the out= kernel
 * writes what the functional op returns (zeros, then each value at its flat index, through out's strides), checks
 * the indices before writing, and refuses an out of another dtype with PyTorch 1.13's message.
 */
import { describe, expect, it } from 'vitest';
import { callOp, type Tensor, tensor } from '../../src/runtime/index.ts';

const x = () =>
  tensor([
    [
      [
        [1.5, 2],
        [3, 4],
      ],
      [
        [5, 6],
        [7, 8],
      ],
    ],
  ]);
const at = (v: number[][][][]) => tensor(v, { dtype: 'int64' });
const idx = () =>
  at([
    [
      [
        [0, 3],
        [9, 14],
      ],
      [
        [1, 6],
        [8, 15],
      ],
    ],
  ]);
const list = (t: Tensor) => JSON.stringify(t.tolist());

describe('max_unpool out=', () => {
  it('2-d: an out of another shape is resized; one of the right shape keeps its strides', () => {
    const want = callOp('max_unpool2d', [x(), idx(), [4, 4]]) as Tensor;
    const out = tensor([0.5]);
    expect(callOp('max_unpool2d', [x(), idx(), [4, 4]], { out })).toBe(out);
    expect(out.shape).toEqual([1, 2, 4, 4]);
    expect(list(out)).toBe(list(want));
    const transposed = tensor(new Array(32).fill(9.5)).reshape([1, 2, 4, 4]).transpose(2, 3);
    callOp('max_unpool2d', [x(), idx(), [4, 4]], { out: transposed });
    expect(transposed.strides).toEqual([32, 16, 1, 4]);
    expect(list(transposed)).toBe(list(want));
  });

  it('3-d matches the functional op', () => {
    const x3 = tensor([
      [
        [
          [
            [1.5, 2],
            [3, 4],
          ],
          [
            [5, 6],
            [7, 8],
          ],
        ],
      ],
    ]);
    const i3 = tensor(
      [
        [
          [
            [
              [0, 3],
              [9, 14],
            ],
            [
              [21, 42],
              [50, 63],
            ],
          ],
        ],
      ],
      { dtype: 'int64' },
    );
    const args = [x3, i3, [4, 4, 4], [2, 2, 2], [0, 0, 0]];
    const out = tensor([0.5]);
    callOp('max_unpool3d', args, { out });
    expect(list(out)).toBe(list(callOp('max_unpool3d', args) as Tensor));
  });

  it('an invalid index or an out of another dtype raises before anything is written', () => {
    const out = tensor([0.5, 0.25]);
    const bad = at([
      [
        [
          [0, 3],
          [9, 99],
        ],
        [
          [1, 6],
          [8, 15],
        ],
      ],
    ]);
    expect(() => callOp('max_unpool2d', [x(), bad, [4, 4]], { out })).toThrow(
      /Found an invalid max index: 99 \(output volumes are of size 4x4/,
    );
    expect(out.tolist()).toEqual([0.5, 0.25]);
    expect(() => callOp('max_unpool2d', [x(), idx(), [4, 4]], { out: tensor([1, 2]) })).toThrow(
      /expected scalar type Float but found Long/,
    );
  });
});
