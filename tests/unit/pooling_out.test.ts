/**
 * The out= overloads of max pooling with indices and of the adaptive and fractional poolings, which op_db's OpInfos (F's Python signatures) do
 * not reach: each equals its functional call, resizes an empty out (channels_last kept for a channels_last
 * 4-d input), checks out's dtype before writing, and runs on meta; and F.fractional_max_pool2d's refusal of a
 * differentiable random_samples (op_db's gradient samples draw theirs).
 */
import { describe, expect, it } from 'vitest';
import { callOp, type Tensor, tensor } from '../../src/runtime/index.ts';

const x4 = () =>
  callOp('reshape', [
    tensor(
      Array.from({ length: 2 * 3 * 5 * 6 }, (_, i) => Math.sin(i * 1.7) * 4),
      { dtype: 'float32' },
    ),
    [2, 3, 5, 6],
  ]) as Tensor;
const x5 = () => callOp('unsqueeze', [x4(), 2]) as Tensor;
const empty = (dtype = 'float32', device = 'cpu') => callOp('empty', [[0]], { dtype, device }) as Tensor;
const list = (t: Tensor) => t.tolist();

const samples = (n: number, c: number, k: number) =>
  tensor(
    Array.from({ length: n * c * k }, (_, i) => ((i * 0.37) % 1) * 0.9),
    { dtype: 'float32' },
  ).reshape([n, c, k]);

describe('pooling out= overloads', () => {
  it.each([
    ['adaptive_avg_pool2d', x4, [3, 4]],
    ['_adaptive_avg_pool2d', x4, [2, 5]],
    ['adaptive_avg_pool3d', x5, [1, 3, 4]],
    ['_adaptive_avg_pool3d', x5, [1, 2, 2]],
  ] as const)('%s.out equals the functional call', (op, make, size) => {
    const expected = callOp(op, [make(), [...size]]) as Tensor;
    const out = empty();
    const r = callOp(op, [make(), [...size]], { out }) as Tensor;
    expect(r).toBe(out);
    expect(out.shape).toEqual(expected.shape);
    expect(list(out)).toEqual(list(expected));
  });

  it.each([
    ['adaptive_max_pool2d', x4, [3, 4]],
    ['adaptive_max_pool3d', x5, [1, 3, 2]],
  ] as const)('%s.out writes values and indices', (op, make, size) => {
    const [v, i] = callOp(op, [make(), [...size]]) as Tensor[];
    const out = empty();
    const indices = empty('int64');
    callOp(op, [make(), [...size]], { out, indices });
    expect(list(out)).toEqual(list(v));
    expect(list(indices)).toEqual(list(i));
  });

  it.each([
    ['max_pool2d_with_indices', x4, [2, 3]],
    ['max_pool3d_with_indices', x5, [1, 2, 2]],
  ] as const)('%s.out writes values and indices, and checks both dtypes before writing', (op, make, k) => {
    const [v, i] = callOp(op, [make(), [...k], [], [0], [1], true]) as Tensor[];
    const out = empty();
    const indices = empty('int64');
    const r = callOp(op, [make(), [...k], [], [0], [1], true], { out, indices }) as Tensor[];
    expect(r[0]).toBe(out);
    expect(r[1]).toBe(indices);
    expect(list(out)).toEqual(list(v));
    expect(list(indices)).toEqual(list(i));
    // PyTorch's words for each wrong out (probed with 1.13); neither out is resized or written.
    const wrongIdx = empty('int32');
    expect(() => callOp(op, [make(), [...k]], { out: empty(), indices: wrongIdx })).toThrow(
      /Expected out tensor to have dtype long int, but got int instead/,
    );
    const wrongOut = empty('float64');
    expect(() => callOp(op, [make(), [...k]], { out: wrongOut, indices: empty('int64') })).toThrow(
      /Expected out tensor to have dtype float, but got double instead/,
    );
    expect([wrongIdx.shape, wrongOut.shape]).toEqual([[0], [0]]);
  });

  it.each([
    ['fractional_max_pool2d', x4, [2, 2], [3, 4], [2, 3, 2]],
    ['fractional_max_pool3d', () => x4().reshape([1, 2, 3, 5, 6]), [1, 2, 2], [1, 3, 4], [1, 2, 3]],
  ] as const)('%s.output writes values and indices', (op, make, kernel, size, shape) => {
    const u = samples(shape[0], shape[1], shape[2]);
    const [v, i] = callOp(op, [make(), [...kernel], [...size], u]) as Tensor[];
    const output = empty();
    const indices = empty('int64');
    callOp(op, [make(), [...kernel], [...size], u], { output, indices });
    expect(list(output)).toEqual(list(v));
    expect(list(indices)).toEqual(list(i));
  });

  it('keeps a channels_last input channels_last and checks the dtype before writing', () => {
    const cl = callOp('contiguous', [x4()], { memory_format: 'channels_last' }) as Tensor;
    const out = empty();
    callOp('adaptive_avg_pool2d', [cl, [2, 3]], { out });
    expect(out.strides).toEqual([18, 1, 9, 3]);
    const wrong = callOp('zeros', [[2, 3, 2, 3]], { dtype: 'float64' }) as Tensor;
    expect(() => callOp('adaptive_avg_pool2d', [x4(), [2, 3]], { out: wrong })).toThrow(
      /expected dtype float for `output` but got dtype double/,
    );
    expect(JSON.stringify(list(wrong))).not.toMatch(/[1-9]/);
    const indices = callOp('zeros', [[2, 3, 2, 3]], { dtype: 'int32' }) as Tensor;
    expect(() => callOp('adaptive_max_pool2d', [x4(), [2, 3]], { out: empty(), indices })).toThrow(
      /Expected out tensor to have dtype long int, but got int instead/,
    );
  });

  it("refuses a random_samples that requires grad, as PyTorch's autograd does", () => {
    const u = samples(2, 3, 2).requiresGrad_(true);
    expect(() =>
      callOp('nn.functional.fractional_max_pool2d', [x4(), 2], { output_size: 2, _random_samples: u }),
    ).toThrow(/not differentiable with respect to argument 'random_samples'/);
  });

  it('runs on meta', () => {
    const x = callOp('empty', [[2, 3, 5, 6]], { device: 'meta' }) as Tensor;
    const out = empty('float32', 'meta');
    const indices = empty('int64', 'meta');
    callOp('adaptive_max_pool2d', [x, [2, 3]], { out, indices });
    expect([out.shape, indices.shape]).toEqual([
      [2, 3, 2, 3],
      [2, 3, 2, 3],
    ]);
  });
});
