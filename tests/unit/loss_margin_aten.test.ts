/**
 * The loss overloads op_db's nn.functional samples do not reach (F never passes out= or a callable the golden
 * recorder could replay): the aten out= forms, the .Tensor overloads of _ctc_loss, and
 * triplet_margin_with_distance_loss's distance_function. Expected values were printed by PyTorch 1.13.
 */
import { describe, expect, it } from 'vitest';
import { callOp, type Tensor, tensor } from '../../src/runtime/index.ts';

const f64 = (v: number[][]) => tensor(v, { dtype: 'float64' });
const x = () =>
  f64([
    [0.3, -1.2, 0.5, 0.9],
    [1.1, 0.2, -0.4, 0.0],
    [0.1, 0.1, 0.2, -0.3],
  ]);
const values = (t: Tensor) => Array.from((t.contiguous().storage.data as Float64Array).slice(0, t.numel));
const empty = () => callOp('empty', [[0]], { dtype: 'float64' }) as Tensor;
const close = (got: number[], want: number[]) => {
  expect(got.length).toBe(want.length);
  for (let i = 0; i < got.length; i++) expect(got[i]).toBeCloseTo(want[i], 12);
};

describe('margin losses: aten out= overloads', () => {
  it('soft_margin_loss.out writes the unreduced and the reduced loss', () => {
    const target = f64([
      [1, -1, 1, -1],
      [1, -1, 1, -1],
      [1, -1, 1, -1],
    ]);
    const out = empty();
    expect(callOp('soft_margin_loss', [x(), target, 0], { out })).toBe(out);
    expect(out.shape).toEqual([3, 4]);
    close(
      values(out).slice(0, 4),
      [0.554355244468527, 0.2632824673380313, 0.4740769841801067, 1.2411538747320878],
    );
    const mean = empty();
    callOp('soft_margin_loss', [x(), target, 1], { out: mean });
    expect(mean.shape).toEqual([]);
    close(values(mean), [0.6471493860144112]);
  });

  it('multi_margin_loss.out and multilabel_margin_loss(.out, _forward.output)', () => {
    const out = empty();
    callOp('multi_margin_loss', [x(), tensor([0, 3, 1]), 2, 0.5, null, 0], { out });
    close(values(out), [0.425, 0.765, 0.155]);
    const labels = tensor([
      [3, 0, -1, 1],
      [0, 1, 2, 3],
      [-1, 0, 0, 0],
    ]);
    const sum = empty();
    callOp('multilabel_margin_loss', [x(), labels, 2], { out: sum });
    close(values(sum), [0.45]);
    const [output, isTarget] = [empty(), empty()];
    callOp('multilabel_margin_loss_forward', [x(), labels, 0], { output, is_target: isTarget });
    close(values(output), [0.45, 0, 0]);
    expect(values(isTarget)).toEqual([1, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0]);
  });

  it('multi_margin_loss.out refuses an out of another dtype', () => {
    const out = callOp('empty', [[0]], { dtype: 'float32' });
    expect(() => callOp('multi_margin_loss', [x(), tensor([0, 3, 1])], { out })).toThrow(/dtype/);
  });
});

describe('triplet_margin_with_distance_loss', () => {
  it('calls a runtime function as distance_function', () => {
    // 1 - cosine similarity.
    const distance = (a: Tensor, b: Tensor) =>
      callOp('neg', [callOp('sub', [callOp('cosine_similarity', [a, b]), 1])]) as Tensor;
    const a = x();
    const r = callOp(
      'nn.functional.triplet_margin_with_distance_loss',
      [a, callOp('flip', [a, [0]]), callOp('mul', [a, 2])],
      {
        distance_function: distance,
        margin: 0.5,
        reduction: 'none',
      },
    ) as Tensor;
    close(values(r), [1.917136157630304, 0.5, 1.917136157630304]);
  });
});

describe('ctc_loss: Tensor-length overloads', () => {
  const logProbs = () =>
    callOp('log_softmax', [
      tensor(
        [
          [
            [-1.2, -0.9, -1.6, -2.1],
            [-0.5, -1.9, -1.3, -2.6],
          ],
          [
            [-1.0, -1.1, -1.9, -1.7],
            [-1.4, -0.8, -1.2, -2.4],
          ],
          [
            [-2.0, -0.7, -1.0, -2.2],
            [-1.1, -1.5, -0.9, -1.6],
          ],
        ],
        { dtype: 'float64' },
      ),
      2,
    ]) as Tensor;
  const targets = () =>
    tensor([
      [1, 2],
      [3, 3],
    ]);

  it('_ctc_loss.Tensor and ctc_loss.Tensor match PyTorch', () => {
    const [nll] = callOp('_ctc_loss', [logProbs(), targets(), tensor([3, 3]), tensor([2, 1])]) as Tensor[];
    close(values(nll), [1.9275380140845946, 3.003396396244435]);
    const sum = callOp('ctc_loss', [
      logProbs(),
      targets(),
      tensor([3, 3]),
      tensor([2, 1]),
      0,
      2,
      false,
    ]) as Tensor;
    close(values(sum), [4.93093441032903]);
  });
});
