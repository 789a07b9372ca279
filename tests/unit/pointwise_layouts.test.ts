/**
 * Pointwise in-place and out= variants, strided inputs and output layouts. Expected values were verified with
 * PyTorch 1.13 unless they are self-consistency checks (strided vs contiguous).
 */
import { describe, expect, it } from 'vitest';
import * as T from '../../src/runtime/index.ts';
import { code, f32 } from './pointwise_helpers.ts';

const { tensor, zeros, empty, arange, getitem } = { ...T, ...T.torch };

describe('in-place variants', () => {
  it('return self, write through, bump the version', () => {
    const a = tensor([1.5, 2.5]);
    const v0 = a.version;
    expect(a.mul_(2)).toBe(a);
    expect(a.tolist()).toEqual([3, 5]);
    expect(a.version).toBe(v0 + 1);
    expect(a.neg_()).toBe(a);
    expect(a.tolist()).toEqual([-3, -5]);
  });

  it('keep self dtype, rounding like a store', () => {
    const h = tensor([1], { dtype: 'float16' });
    h.add_(tensor([2 ** -11], { dtype: 'float64' }));
    expect(h.tolist()).toEqual([1]);
    const i = tensor([7], { dtype: 'int8' });
    i.mul_(100);
    expect(i.tolist()).toEqual([-68]); // 700 wraps
    expect(() => tensor([1]).div_(2)).toThrow(code('E_RESULT_TYPE')); // true division gives float
    expect(tensor([7]).div_(2, { rounding_mode: 'floor' }).tolist()).toEqual([3n]);
  });

  it('work on non-contiguous self and broadcast other', () => {
    const base = zeros(3, 4);
    const v = base.t(); // [4, 3] strides (1, 4)
    v.add_(tensor([1, 2, 3]));
    expect(base.tolist()).toEqual([
      [1, 1, 1, 1],
      [2, 2, 2, 2],
      [3, 3, 3, 3],
    ]);
    const s = getitem(base, ':, 1::2');
    s.mul_(10);
    expect(base.tolist()).toEqual([
      [1, 10, 1, 10],
      [2, 20, 2, 20],
      [3, 30, 3, 30],
    ]);
  });
});

describe('out= variants', () => {
  it('returns out itself, writes values, bumps its version', () => {
    const out = zeros(2);
    const r = T.torch.add(tensor([1.5, 2.5]), 1, { out });
    expect(r).toBe(out);
    expect(out.tolist()).toEqual([2.5, 3.5]);
    expect(out.version).toBe(1);
  });

  it('an empty or mismatched out is resized (following the input layout, like PyTorch 1.13)', () => {
    const o = empty(0);
    T.torch.add(tensor([1.5, 2]), tensor([1.5, 1]), { out: o });
    expect(o.shape).toEqual([2]);
    expect(o.tolist()).toEqual([3, 3]);
    const x = arange(6, { dtype: 'float32' }).view(2, 3);
    const o5 = empty(5);
    T.torch.add(x.t(), 1, { out: o5 });
    expect(o5.shape).toEqual([3, 2]);
    expect(o5.stride()).toEqual([1, 3]);
    expect(o5.tolist()).toEqual([
      [1, 4],
      [2, 5],
      [3, 6],
    ]);
    // Storage big enough: resize_ keeps it.
    const o10 = empty(10);
    const storage = o10.storage;
    T.torch.mul(x, 2, { out: o10 });
    expect(o10.shape).toEqual([2, 3]);
    expect(o10.storage).toBe(storage);
  });

  it('an out of the right shape keeps its strides, even non-contiguous ones', () => {
    const x = arange(6, { dtype: 'float32' }).view(2, 3);
    const o = empty(3, 2);
    T.torch.add(x.t(), 1, { out: o });
    expect(o.stride()).toEqual([2, 1]);
    expect(o.tolist()).toEqual([
      [1, 4],
      [2, 5],
      [3, 6],
    ]);
    const base = zeros(2, 3);
    const ot = base.t();
    T.torch.mul(x.t(), 2, { out: ot });
    expect(ot.stride()).toEqual([1, 3]);
    expect(base.tolist()).toEqual([
      [0, 2, 4],
      [6, 8, 10],
    ]);
  });

  it('checks the out dtype (can_cast), converting where allowed', () => {
    expect(() => T.torch.add(tensor([1.5]), 1, { out: zeros(1, { dtype: 'int32' }) })).toThrow(
      code('E_RESULT_TYPE'),
    );
    const d = zeros(1, { dtype: 'float64' });
    T.torch.add(tensor([1]), 2, { out: d });
    expect(d.tolist()).toEqual([3]);
    const b = zeros(2, { dtype: 'float32' });
    T.torch.lt(tensor([1, 3]), 2, { out: b });
    expect(b.tolist()).toEqual([1, 0]);
    const i = zeros(2, { dtype: 'int8' });
    T.torch.add(tensor([100, 1], { dtype: 'int8' }), tensor([100, 1], { dtype: 'int8' }), { out: i });
    expect(i.tolist()).toEqual([-56, 2]);
  });

  it('unary ops have out= too', () => {
    const o = zeros(0);
    T.torch.exp(tensor([0, 1], { dtype: 'float32' }), { out: o });
    expect(o.tolist()).toEqual(f32([1, Math.E]));
  });
});

/** The same logical [3, 4] values held in different memory layouts. */
function layouts(values: number[][], dtype: T.DType): Record<string, T.Tensor> {
  const c = tensor(values, { dtype });
  const transposed = c.t().contiguous().t(); // strides (1, 3)
  const stepped = getitem(zeros(3, 8, { dtype }), ':, ::2'); // strides (8, 2)
  stepped.copy_(c);
  const offset = getitem(zeros(5, 6, { dtype }), '1:4, 2:6'); // offset 8, strides (6, 1)
  offset.copy_(c);
  const permuted = zeros(4, 3, { dtype }).t(); // strides (1, 3) in a fresh buffer
  permuted.copy_(c);
  return { contiguous: c, transposed, stepped, offset, permuted };
}

describe('non-contiguous inputs give the same values as contiguous ones', () => {
  const A = [
    [1, -2, 3.5, 4],
    [-5, 6, 7, -8.25],
    [9, 0, -11, 12],
  ];
  const B = [
    [2, 3, -1, 0.5],
    [1, -4, 2, 3],
    [-3, 5, 6, -7],
  ];

  it('layouts really are different', () => {
    const l = layouts(A, 'float32');
    expect(l.transposed.stride()).toEqual([1, 3]);
    expect(l.stepped.stride()).toEqual([8, 2]);
    expect(l.offset.storageOffset).toBe(8);
    for (const t of Object.values(l)) expect(t.tolist()).toEqual(A);
  });

  const binary: [string, (a: T.Tensor, b: T.Tensor) => T.Tensor][] = [
    ['add', (a, b) => T.torch.add(a, b, { alpha: 2 })],
    ['sub', (a, b) => T.torch.sub(a, b)],
    ['mul', (a, b) => T.torch.mul(a, b)],
    ['div', (a, b) => T.torch.div(a, b)],
    ['maximum', (a, b) => T.torch.maximum(a, b)],
    ['lt', (a, b) => T.torch.lt(a, b)],
    ['remainder', (a, b) => T.torch.remainder(a, b)],
  ];
  for (const dtype of ['float32', 'float64', 'float16', 'int32', 'int64', 'complex64'] as const) {
    it(`binary ops, ${dtype}`, () => {
      const isInt = dtype === 'int32' || dtype === 'int64';
      const a = A.map((r) => r.map((x) => (isInt ? Math.trunc(x) : x)));
      const b = B.map((r) => r.map((x) => (isInt ? Math.trunc(x) || 1 : x)));
      const la = layouts(a, dtype);
      const lb = layouts(b, dtype);
      for (const [name, op] of binary) {
        if (dtype === 'complex64' && (name === 'maximum' || name === 'lt' || name === 'remainder')) continue;
        const want = op(la.contiguous, lb.contiguous).tolist();
        for (const [ka, ta] of Object.entries(la)) {
          for (const [kb, tb] of Object.entries(lb)) {
            expect(op(ta, tb).tolist(), `${name} ${ka} x ${kb}`).toEqual(want);
          }
        }
      }
    });
  }

  it('unary ops and an expanded (stride-0) operand', () => {
    const la = layouts(A, 'float32');
    for (const [k, t] of Object.entries(la)) {
      expect(T.torch.neg(t).tolist(), k).toEqual(T.torch.neg(la.contiguous).tolist());
      expect(T.torch.exp(t).tolist(), k).toEqual(T.torch.exp(la.contiguous).tolist());
      expect(T.torch.abs(t).tolist(), k).toEqual(T.torch.abs(la.contiguous).tolist());
    }
    const col = tensor([[1.5], [-2], [3]]);
    const e = col.expand(3, 4);
    expect(e.stride()).toEqual([1, 0]);
    for (const [k, t] of Object.entries(la)) {
      expect(T.torch.mul(e, t).tolist(), k).toEqual(T.torch.mul(e.contiguous(), la.contiguous).tolist());
    }
  });

  it('in-place into every layout', () => {
    for (const [k, t] of Object.entries(layouts(A, 'float32'))) {
      t.add_(tensor(B));
      expect(t.tolist(), k).toEqual(T.torch.add(tensor(A), tensor(B)).tolist());
    }
  });
});

describe('pointwise output strides follow the input layout (verified with PyTorch 1.13)', () => {
  const a = () => arange(12, { dtype: 'float32' }).view(3, 4);
  const cases: [string, () => T.Tensor, number[]][] = [
    ['t + t', () => T.torch.add(a().t(), a().t()), [1, 4]],
    ['t + t.contiguous()', () => T.torch.add(a().t(), a().t().contiguous()), [1, 4]],
    ['t.contiguous() + t', () => T.torch.add(a().t().contiguous(), a().t()), [3, 1]],
    ['neg(t)', () => T.torch.neg(a().t()), [1, 4]],
    ['neg(a[:, ::2]) is dense', () => T.torch.neg(getitem(a(), ':, ::2')), [2, 1]],
    ['neg(t[::2])', () => T.torch.neg(getitem(a().t(), '::2')), [1, 2]],
    ['channels-last + 1', () => T.torch.add(zeros(2, 3, 4, 5).permute(0, 2, 3, 1), 1), [60, 5, 1, 20]],
    [
      'channels-last + contiguous',
      () => T.torch.add(zeros(2, 3, 4, 5).permute(0, 2, 3, 1), zeros(2, 4, 5, 3)),
      [60, 5, 1, 20],
    ],
    [
      'contiguous + channels-last',
      () => T.torch.add(zeros(2, 4, 5, 3), zeros(2, 3, 4, 5).permute(0, 2, 3, 1)),
      [60, 15, 3, 1],
    ],
    ['exp(permuted)', () => T.torch.exp(zeros(3, 4, 5).permute(2, 0, 1)), [1, 20, 5]],
    ['t + column', () => T.torch.add(a().t(), zeros(4, 1)), [1, 4]],
    ['column + t', () => T.torch.add(zeros(4, 1), a().t()), [1, 4]],
    ['t + row', () => T.torch.add(a().t(), zeros(3)), [1, 4]],
    ['eq(t, 1)', () => T.torch.eq(a().t(), 1), [1, 4]],
    ['abs(complex t)', () => T.torch.abs(zeros(4, 3, { dtype: 'complex64' }).t()), [1, 3]],
    [
      '3-d transposed + broadcast',
      () => T.torch.add(arange(24, { dtype: 'float32' }).view(2, 3, 4).transpose(0, 2), zeros(3, 1)),
      [1, 4, 12],
    ],
    [
      'expanded + contiguous',
      () => T.torch.add(T.torch.ones(3, 1, 4).expand(3, 5, 4), T.torch.ones(5, 4)),
      [20, 4, 1],
    ],
  ];
  for (const [name, run, strides] of cases) {
    it(name, () => {
      expect(run().stride()).toEqual(strides);
    });
  }

  it('values are right whatever the output layout', () => {
    const x = a();
    const doubled = (x.t().tolist() as number[][]).map((r) => r.map((v) => 2 * v));
    expect(T.torch.add(x.t(), x.t()).tolist()).toEqual(doubled);
  });
});
