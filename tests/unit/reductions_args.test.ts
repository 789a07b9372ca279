/**
 * Reductions, scans, softmax and norms: dims, keepdim and argument errors, overloads and aliases, out= variants,
 * and the meta device (same shapes, dtypes and strides as on cpu).
 */
import { describe, expect, it } from 'vitest';
import * as T from '../../src/runtime/index.ts';
import { A, At, call, code, expectTensor, flat, I, slice, type Tensor } from './reductions_helpers.ts';

describe('dims, keepdim and argument errors', () => {
  it('negative dims, dim lists and keepdim', () => {
    expect(T.torch.sum(A, [-1, 0], true).shape).toEqual([1, 3, 1]);
    expect(T.torch.amax(A, -2).shape).toEqual([2, 4]);
    expect(T.torch.argmax(A, null, true).shape).toEqual([1, 1, 1]);
    expect(T.torch.mean(A, [], true).shape).toEqual([1, 1, 1]);
    expect(T.torch.sum(A, null).shape).toEqual([]);
  });
  it('0-dim inputs accept dim 0 and -1', () => {
    const s = T.tensor(3);
    expect(flat(T.torch.sum(s.to('float32'), 0))).toEqual([3]);
    const [v, i] = T.torch.max(s, -1);
    expect([v.shape, flat(v), flat(i)]).toEqual([[], [3n], [0n]]);
    expect(flat(T.torch.softmax(T.tensor(3.5), 0))).toEqual([1]);
    expect(flat(T.torch.cumsum(s, 0))).toEqual([3n]);
  });
  it('repeated dims raise like PyTorch', () => {
    expect(() => T.torch.sum(A, [0, -3])).toThrow(code('E_INVALID_ARGUMENT'));
    expect(() => T.torch.sum(A, [0, -3])).toThrow(/dim 0 appears multiple times in the list of dims/);
    expect(() => T.torch.sum(T.tensor(3.5), [0, -1])).toThrow(/appears multiple times/);
  });
  const bad: [string, () => unknown][] = [
    ['sum', () => T.torch.sum(A, 3)],
    ['amax', () => T.torch.amax(A, [-4])],
    ['argmax', () => T.torch.argmax(A, 3)],
    ['max.dim', () => T.torch.max(A, -4)],
    ['var', () => T.torch.var(A, [0, 3])],
    ['cumsum', () => T.torch.cumsum(A, 3)],
    ['softmax', () => T.torch.softmax(A, -4)],
    ['logsumexp', () => T.torch.logsumexp(A, 5)],
  ];
  for (const [name, run] of bad)
    it(`${name} with an out-of-range dim is E_DIM_OUT_OF_RANGE`, () =>
      expect(run).toThrow(code('E_DIM_OUT_OF_RANGE')));
});

describe('overloads (values verified with PyTorch 1.13)', () => {
  const X = T.tensor(
    [
      [1, 2],
      [3, 5],
    ],
    { dtype: 'float32' },
  );
  it('var / std: unbiased flag, dims, correction', () => {
    expect(flat(T.torch.var(X, true))[0]).toBeCloseTo(2.9166667461395264, 6);
    expect(flat(T.torch.var(X, false))).toEqual([2.1875]);
    expect(T.torch.var(X, 1, false, true).tolist()).toEqual([[0.25], [1]]);
    expect(flat(T.torch.std(X, 0, { correction: 2 }))).toEqual([Infinity, Infinity]);
    expect(flat(T.torch.var(X, null, { correction: 0 }))).toEqual([2.1875]);
  });
  it('norm with p=None and the aliases', () => {
    expect(flat(T.torch.norm(X, null, 0))).toEqual(flat(call('linalg.vector_norm', [X, 2, [0]])));
    expect(flat(call('nn.functional.softmax', [X, 1]))).toEqual(flat(T.torch.softmax(X, 1)));
    expect(flat(call('nn.functional.log_softmax', [X, 1]))).toEqual(flat(T.torch.log_softmax(X, 1)));
  });
  it('softmax / log_softmax stay finite for large logits', () => {
    const L = T.tensor([[1e4, 0, -1e4]], { dtype: 'float32' });
    expect(flat(T.torch.log_softmax(L, 1))).toEqual([0, -10000, -20000]);
    expect(flat(T.torch.softmax(L, 1))).toEqual([1, 0, 0]);
    expect(flat(T.torch.logsumexp(T.tensor([1e4, 1e4], { dtype: 'float32' }), 0))).toEqual([10000.693359375]);
  });
  it('all/any of complex look at both parts (deliberate deviation: PyTorch 1.13 reads the real part only)', () => {
    const z = T.tensor([T.complex(0, 1), T.complex(0, 0)]);
    expect(flat(T.torch.any(z))).toEqual([true]);
    expect(flat(T.torch.all(slice(z, 0, 0, 1)))).toEqual([true]);
  });
  it('a real mean into a complex out= has a zero imaginary part', () => {
    const out = T.torch.full([2], 7, { dtype: 'complex64' });
    expect(T.torch.mean(X, 1, { out }).tolist()).toEqual([
      [1.5, 0],
      [4, 0],
    ]);
  });
  it('methods reach the same ops', () => {
    expect(flat(A.sum({ dim: [0, 1], keepdim: true }))).toEqual(flat(T.torch.sum(A, [0, 1], true)));
    expect((A.max() as unknown as Tensor).dtype).toBe('float32');
    expect(A.max(1).length).toBe(2);
  });
});

describe('out= overloads', () => {
  const X = A.reshape([6, 4]);
  it('sum.IntList_out takes the out dtype as the computation dtype', () => {
    const out = T.torch.empty([4], { dtype: 'int64' });
    expect(T.torch.sum(I, 0, { out })).toBe(out);
    expect(flat(out)).toEqual(flat(T.torch.sum(I, 0)));
    const f = T.torch.empty([3], { dtype: 'float32' });
    expect(flat(T.torch.sum(I, 1, { out: f }))).toEqual(flat(T.torch.sum(I, 1, { dtype: 'float32' })));
    expect(() => T.torch.sum(I, 1, { dtype: 'float64', out: f })).toThrow(
      /Expected out tensor to have dtype double, but got float instead/,
    );
  });
  it('resizes a wrongly shaped out and writes through a strided out', () => {
    const out = T.torch.empty([7]);
    T.torch.mean(X, 1, { out });
    expect(out.shape).toEqual([6]);
    expect(flat(out)).toEqual(flat(T.torch.mean(X, 1)));
    const base = T.torch.zeros([4, 2]);
    const v0 = base.version;
    T.torch.amax(X, 0, { out: slice(base, 1, 0, 1).reshape([4]) });
    expect(flat(base)).toEqual(flat(T.torch.amax(X, 0)).flatMap((v) => [v, 0]));
    expect(base.version).toBeGreaterThan(v0);
  });
  it("checks the out dtype with each op's rule", () => {
    expect(() => T.torch.amax(X, 0, { out: T.torch.empty([4], { dtype: 'float64' }) })).toThrow(
      code('E_RESULT_TYPE'),
    );
    expect(() => T.torch.mean(X, 0, { out: T.torch.empty([4], { dtype: 'int64' }) })).toThrow(
      /can't be cast to the desired output type Long/,
    );
    expect(() => T.torch.softmax(X, 0, { out: T.torch.empty([6, 4], { dtype: 'float64' }) })).toThrow(
      /dtype float, but got double/,
    );
    expect(() => T.torch.argmax(X, 0, { out: T.torch.empty([4]) })).toThrow(/dtype long int, but got float/);
    expect(() => T.torch.all(X, 0, { out: T.torch.empty([4]) })).toThrow(
      /all only supports bool tensor for result, got: Float/,
    );
  });
  it('a wider out keeps its precision, like PyTorch (var/std/mean/norm compute into it)', () => {
    const v = T.torch.var(X, 0, { out: T.torch.empty([4], { dtype: 'float64' }) });
    expectTensor(v, {
      dtype: 'float64',
      shape: [4],
      values: [2.9, 2.075, 3.5416666666666665, 3.541666666666667],
    });
    expect(flat(T.torch.mean(X, 0, { out: T.torch.empty([4], { dtype: 'float64' }) }))).toEqual(
      flat(T.torch.mean(X.double(), 0)),
    );
    expect(flat(T.torch.all(X, 0, { out: T.torch.empty([4], { dtype: 'bool' }) }))).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });
});

describe('meta device', () => {
  const M = A.to('meta').permute([2, 0, 1]);
  const cases: [string, (x: Tensor) => Tensor | Tensor[]][] = [
    ['sum dims keepdim', (x) => T.torch.sum(x, [0, 2], true)],
    ['sum int dtype', (x) => T.torch.sum(x, { dtype: 'int32' })],
    ['mean', (x) => T.torch.mean(x, -1)],
    ['prod', (x) => T.torch.prod(x, 1)],
    ['amax', (x) => T.torch.amax(x, [1])],
    ['max.dim', (x) => T.torch.max(x, 0, true)],
    ['argmin', (x) => T.torch.argmin(x)],
    ['all', (x) => T.torch.all(x, 1)],
    ['var', (x) => T.torch.var(x, 0)],
    ['logsumexp', (x) => T.torch.logsumexp(x, [0, 1])],
    ['cumsum', (x) => T.torch.cumsum(x, 2, { dtype: 'float64' })],
    ['softmax', (x) => T.torch.softmax(x, 0)],
    ['vector_norm', (x) => call('linalg.vector_norm', [x, Infinity, [2], true])],
  ];
  for (const [name, run] of cases) {
    it(`${name}: same shape, dtype and strides as on cpu`, () => {
      const meta = [run(M)].flat();
      const cpu = [run(At)].flat();
      expect(meta.map((t) => [t.device, t.dtype, t.shape, t.stride()])).toEqual(
        cpu.map((t) => ['meta', t.dtype, t.shape, t.stride()]),
      );
    });
  }
  it('raises the same errors as on cpu', () => {
    expect(() => T.torch.mean(T.torch.zeros([2], { dtype: 'int64' }).to('meta'))).toThrow(
      code('E_DTYPE_UNSUPPORTED'),
    );
    expect(() => T.torch.amax(T.torch.zeros([0, 2]).to('meta'), 0)).toThrow(code('E_INDEX_OUT_OF_RANGE'));
    expect(() => T.torch.sum(M, [0, 0])).toThrow(code('E_INVALID_ARGUMENT'));
  });
});
