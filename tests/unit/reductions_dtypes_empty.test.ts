/**
 * Reductions, scans, softmax and norms: result-dtype rules and refused dtypes, exact (wrapping) integer
 * arithmetic, and empty inputs / reductions over zero-size dims (values verified with PyTorch 1.13).
 */
import { describe, expect, it } from 'vitest';
import * as T from '../../src/runtime/index.ts';
import { A, B, C, call, code, flat, H, I, type Tensor, type Value } from './reductions_helpers.ts';

describe('dtype rules', () => {
  const dt = (t: Tensor | Tensor[]) => (Array.isArray(t) ? t.map((x) => x.dtype) : t.dtype);
  const rules: [string, () => Tensor | Tensor[], string | string[]][] = [
    ['sum bool -> int64', () => T.torch.sum(I.to('bool')), 'int64'],
    ['sum int8 dim -> int64', () => T.torch.sum(I.to('int8'), 0), 'int64'],
    ['sum int32 dtype=int32', () => T.torch.sum(I.to('int32'), { dtype: 'int32' }), 'int32'],
    ['sum float16 keeps float16', () => T.torch.sum(H), 'float16'],
    ['prod uint8 -> int64', () => T.torch.prod(I.to('uint8')), 'int64'],
    ['cumsum bool -> int64', () => T.torch.cumsum(I.to('bool'), 0), 'int64'],
    ['cumprod int16 -> int64', () => T.torch.cumprod(I.to('int16'), 1), 'int64'],
    ['amax keeps int32', () => T.torch.amax(I.to('int32'), 0), 'int32'],
    ['max.dim keeps bfloat16, indices int64', () => T.torch.max(B, 0), ['bfloat16', 'int64']],
    ['argmin -> int64', () => T.torch.argmin(H), 'int64'],
    ['all float -> bool', () => T.torch.all(A), 'bool'],
    ['all uint8 stays uint8', () => T.torch.all(I.to('uint8')), 'uint8'],
    ['any int64 -> bool', () => T.torch.any(I, 1), 'bool'],
    ['var complex64 -> float32', () => T.torch.var(C), 'float32'],
    ['std complex128 -> float64', () => T.torch.std(C.to('complex128'), 0), 'float64'],
    ['norm complex64 -> float32', () => T.torch.norm(C), 'float32'],
    ['vector_norm dtype=float64', () => call('linalg.vector_norm', [A], { dtype: 'float64' }), 'float64'],
    ['logsumexp int64 -> float32', () => T.torch.logsumexp(I, 0), 'float32'],
    ['logsumexp bool -> float32', () => T.torch.logsumexp(I.to('bool'), [0, 1]), 'float32'],
    ['mean dtype=float64 on int', () => T.torch.mean(I, { dtype: 'float64' }), 'float64'],
    ['softmax dtype=float64', () => T.torch.softmax(A, 0, 'float64'), 'float64'],
    ['log_softmax keeps bfloat16', () => T.torch.log_softmax(B, 1), 'bfloat16'],
  ];
  for (const [name, run, want] of rules) it(name, () => expect(dt(run())).toEqual(want));

  const refused: [string, () => unknown, RegExp][] = [
    [
      'mean of int64',
      () => T.torch.mean(I),
      /could not infer output dtype. Input dtype must be either a floating point/,
    ],
    [
      'mean dtype=int64',
      () => T.torch.mean(A, { dtype: 'int64' }),
      /Optional dtype must be either a floating point/,
    ],
    ['var of int64', () => T.torch.var(I, 0), /std and var only support floating point and complex dtypes/],
    ['std of bool', () => T.torch.std(I.to('bool')), /std and var only support/],
    [
      'norm of int64',
      () => T.torch.norm(I),
      /input dtype should be either floating point or complex. Got Long/,
    ],
    [
      'vector_norm of int32',
      () => call('linalg.vector_norm', [I.to('int32')]),
      /Expected a floating point or complex tensor/,
    ],
    [
      'vector_norm real dtype for complex',
      () => call('linalg.vector_norm', [C], { dtype: 'float64' }),
      /complex for complex/,
    ],
    ['softmax of int64', () => T.torch.softmax(I, 0), /"softmax_kernel_impl" not implemented for 'Long'/],
    ['softmax of float16', () => T.torch.softmax(H, 0), /not implemented for 'Half'/],
    ['log_softmax of complex', () => T.torch.log_softmax(C, 0), /not implemented for 'ComplexFloat'/],
    ['prod of bfloat16', () => T.torch.prod(B), /"prod_cpu" not implemented for 'BFloat16'/],
    ['cumsum of float16', () => T.torch.cumsum(H, 0), /"cumsum_out_cpu" not implemented for 'Half'/],
    ['cumprod dtype=bool', () => T.torch.cumprod(A, 0, { dtype: 'bool' }), /not implemented for 'Bool'/],
    ['amax of complex', () => T.torch.amax(C), /"max_values_cpu" not implemented for 'ComplexFloat'/],
    ['max() of complex', () => T.torch.max(C), /"max_all" not implemented/],
    ['max.dim of complex', () => T.torch.max(C, 0), /does not support complex input/],
    ['argmax of bool', () => T.torch.argmax(I.to('bool')), /"argmax_cpu" not implemented for 'Bool'/],
    ['logsumexp of complex', () => T.torch.logsumexp(C, 0), /Expected floating point type for result tensor/],
    ['logsumexp of float16', () => T.torch.logsumexp(H, 0), /not implemented for 'Half'/],
  ];
  for (const [name, run, msg] of refused) {
    it(`${name} raises E_DTYPE_UNSUPPORTED`, () => {
      expect(run).toThrow(code('E_DTYPE_UNSUPPORTED'));
      expect(run).toThrow(msg);
    });
  }
});

describe('exact integers (verified with PyTorch 1.13)', () => {
  const big = (t: Tensor) => flat(t) as bigint[];
  it('int64 sum wraps exactly beyond 2^63', () => {
    expect(big(T.torch.sum(T.tensor([2n ** 62n, 2n ** 62n, 2n ** 62n])))).toEqual([-4611686018427387904n]);
  });
  it('int64 prod wraps', () => {
    expect(big(T.torch.prod(T.tensor([2n ** 32n, 2n ** 32n + 1n])))).toEqual([4294967296n]);
    expect(big(T.torch.prod(T.tensor([[3n, 2n ** 40n, 2n ** 40n]]), 1))).toEqual([0n]);
  });
  it('int64 cumsum / cumprod wrap', () => {
    const s = T.torch.cumsum(T.tensor([2n ** 62n, 2n ** 62n, 2n ** 62n, 1n]), 0);
    expect(big(s)).toEqual([
      4611686018427387904n,
      -9223372036854775808n,
      -4611686018427387904n,
      -4611686018427387903n,
    ]);
    expect(big(T.torch.cumprod(T.tensor([3n, 2n ** 40n, 2n ** 40n]), 0))).toEqual([3n, 3298534883328n, 0n]);
  });
  it('int64 extremes and indices beyond 2^53', () => {
    expect(big(T.torch.amax(T.tensor([-(2n ** 63n) + 1n, 2n ** 62n, -5n])))).toEqual([4611686018427387904n]);
    expect(big(T.torch.amin(T.tensor([2n ** 62n + 3n, 2n ** 62n + 1n, 2n ** 62n + 2n])))).toEqual([
      4611686018427387905n,
    ]);
    expect(big(T.torch.argmax(T.tensor([2n ** 62n + 1n, 2n ** 62n + 2n, 2n ** 62n])))).toEqual([1n]);
    const [v, i] = T.torch.min(T.tensor([[2n ** 62n + 3n, 2n ** 62n + 1n, 2n ** 62n + 1n]]), 1);
    expect([...big(v), ...big(i)]).toEqual([4611686018427387905n, 1n]);
  });
  it('int32 sums above 2^53 stay exact (bigint path over an expanded input)', () => {
    const x = T.tensor([2 ** 31 - 1], { dtype: 'int32' });
    expect(big(T.torch.sum(x.expand([2 ** 22])))).toEqual([9007199250546688n]);
    expect(big(T.torch.sum(x.expand([2 ** 22 + 8])))).toEqual([9007216430415864n]);
    expect(
      flat(T.torch.sum(T.tensor([-(2 ** 31)], { dtype: 'int32' }).expand([2 ** 22 + 8]), { dtype: 'int32' })),
    ).toEqual([0]);
  });
  it('narrow integer results wrap; floats cast like PyTorch on x86 first', () => {
    expect(flat(T.torch.sum(T.tensor([200, 100], { dtype: 'uint8' }), { dtype: 'uint8' }))).toEqual([44]);
    expect(flat(T.torch.sum(T.tensor([0.7, 0.6, -1.5]), { dtype: 'int32' }))).toEqual([-1]);
    expect(flat(T.torch.sum(T.tensor([Number.NaN, 3e9, -3e9, 1e10, 2.5]), { dtype: 'int32' }))).toEqual([2]);
    expect(flat(T.torch.sum(T.tensor([Number.NaN, 3e9, 300]), { dtype: 'uint8' }))).toEqual([44]);
  });
});

describe('empty inputs and reductions over zero-size dims', () => {
  const E = T.torch.zeros([0, 3]);
  const values: [string, () => Tensor, Value[]][] = [
    ['sum is 0', () => T.torch.sum(E, 0), [0, 0, 0]],
    ['prod is 1', () => T.torch.prod(E, 0), [1, 1, 1]],
    ['mean is nan', () => T.torch.mean(E, 0), [Number.NaN, Number.NaN, Number.NaN]],
    ['var is nan', () => T.torch.var(E, 0), [Number.NaN, Number.NaN, Number.NaN]],
    ['logsumexp is -inf', () => T.torch.logsumexp(E, 0), [-Infinity, -Infinity, -Infinity]],
    ['all is true', () => T.torch.all(E, 0), [true, true, true]],
    ['any is false', () => T.torch.any(E, 0), [false, false, false]],
    ['vector_norm ord 0 is 0', () => call('linalg.vector_norm', [E, 0]), [0]],
    ['legacy norm inf is 0', () => T.torch.norm(E, Infinity), [0]],
    ['amax over the non-empty dim is empty', () => T.torch.amax(E, 1), []],
    ['argmax over the non-empty dim is empty', () => T.torch.argmax(E, 1), []],
    ['softmax keeps the shape', () => T.torch.softmax(E, 0), []],
    ['sum of all is 0', () => T.torch.sum(E), [0]],
  ];
  for (const [name, run, want] of values) {
    it(name, () =>
      expect(flat(run()).map((v) => (Number.isNaN(v) ? 'nan' : v))).toEqual(
        want.map((v) => (Number.isNaN(v) ? 'nan' : v)),
      ),
    );
  }
  const errors: [string, () => unknown, string, RegExp][] = [
    [
      'amax over dim 0',
      () => T.torch.amax(E, 0),
      'E_INDEX_OUT_OF_RANGE',
      /Expected reduction dim 0 to have non-zero size/,
    ],
    ['amax of everything', () => T.torch.amax(E), 'E_INDEX_OUT_OF_RANGE', /Specify the reduction dim/],
    ['max()', () => T.torch.max(E), 'E_INDEX_OUT_OF_RANGE', /input.numel\(\) == 0/],
    ['max.dim', () => T.torch.max(E, 0), 'E_INDEX_OUT_OF_RANGE', /reduction dim 0/],
    ['argmin (flattened)', () => T.torch.argmin(E), 'E_INDEX_OUT_OF_RANGE', /input.numel\(\) == 0/],
    [
      'vector_norm inf',
      () => call('linalg.vector_norm', [E, Infinity]),
      'E_INVALID_ARGUMENT',
      /inf norm on an empty tensor/,
    ],
    [
      'vector_norm -1 on dim 0',
      () => call('linalg.vector_norm', [E, -1, 0]),
      'E_INVALID_ARGUMENT',
      /on the dimension 0/,
    ],
  ];
  for (const [name, run, c, msg] of errors) {
    it(`${name} raises ${c}`, () => {
      expect(run).toThrow(code(c));
      expect(run).toThrow(msg);
    });
  }
  it('a dtype PyTorch lacks a kernel for is accepted on an empty input (no kernel runs)', () => {
    expect(T.torch.softmax(T.torch.zeros([0, 2], { dtype: 'int64' }), 1).dtype).toBe('int64');
  });
});
