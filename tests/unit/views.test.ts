/**
 * Strides, storage offsets and view semantics. Every (shape, strides, offset) triple below was verified with
 * PyTorch 1.13 (`(tuple(x.shape), x.stride(), x.storage_offset())`).
 */
import { describe, expect, it } from 'vitest';
import * as core from '../../src/runtime/core/index.ts';
import * as T from '../../src/runtime/index.ts';

const { tensor, zeros, arange, getitem } = { ...T, ...T.torch };
const code = (c: string) => expect.objectContaining({ code: c });
const info = (x: T.Tensor) => [[...x.shape], [...x.stride()], x.storageOffset];
const a34 = () => arange(12).view(3, 4);

describe('the issue examples', () => {
  it('contiguous [3, 4, 5] has strides (20, 5, 1)', () => {
    const x = zeros(3, 4, 5);
    expect(x.stride()).toEqual([20, 5, 1]);
    expect(x.storageOffset).toBe(0);
    expect(x.isContiguous()).toBe(true);
  });

  it('permute(2, 0, 1) gives shape [5, 3, 4], strides (1, 20, 5), non-contiguous', () => {
    const x = zeros(3, 4, 5);
    const p = x.permute(2, 0, 1);
    expect(p.shape).toEqual([5, 3, 4]);
    expect(p.stride()).toEqual([1, 20, 5]);
    expect(p.isContiguous()).toBe(false);
    expect(p.storage).toBe(x.storage);
  });

  it('view(-1) on the permuted tensor is E_INVALID_VIEW; reshape(-1) copies in logical order', () => {
    const x = arange(60).view(3, 4, 5);
    const p = x.permute(2, 0, 1);
    expect(() => p.view(-1)).toThrow(code('E_INVALID_VIEW'));
    const r = p.reshape(-1);
    expect(r.shape).toEqual([60]);
    expect(r.stride()).toEqual([1]);
    expect(r.storage).not.toBe(x.storage);
    const logical: bigint[] = [];
    for (let k = 0; k < 5; k++)
      for (let i = 0; i < 3; i++) for (let j = 0; j < 4; j++) logical.push(BigInt(i * 20 + j * 5 + k));
    expect(r.tolist()).toEqual(logical);
  });

  it('zeros(4, 6)[1:3, ::2] has shape [2, 3], strides (6, 2), storage offset 6 and shares storage', () => {
    const z = zeros(4, 6);
    for (const v of [getitem(z, '1:3, ::2'), getitem(z, T.slice(1, 3), T.slice(null, null, 2))]) {
      expect(v.shape).toEqual([2, 3]);
      expect(v.stride()).toEqual([6, 2]);
      expect(v.storageOffset).toBe(6);
      expect(v.storage).toBe(z.storage);
      expect(v.base).toBe(z);
    }
  });
});

describe('view ops: shape, strides, offset (verified with PyTorch 1.13)', () => {
  const cases: [string, () => T.Tensor, unknown[]][] = [
    ['t', () => a34().t(), [[4, 3], [1, 4], 0]],
    ['transpose(0, 2)', () => zeros(2, 3, 4).transpose(0, 2), [[4, 3, 2], [1, 4, 12], 0]],
    ['transpose(-1, 0)', () => zeros(2, 3, 4).transpose(-1, 0), [[4, 3, 2], [1, 4, 12], 0]],
    ['squeeze()', () => zeros(1, 3, 1).squeeze(), [[3], [1], 0]],
    ['squeeze(0)', () => zeros(1, 3, 1).squeeze(0), [[3, 1], [1, 1], 0]],
    ['squeeze(1) of a non-1 dim is a no-op view', () => zeros(1, 3, 1).squeeze(1), [[1, 3, 1], [3, 1, 1], 0]],
    ['unsqueeze(0)', () => a34().unsqueeze(0), [[1, 3, 4], [12, 4, 1], 0]],
    ['unsqueeze(1)', () => a34().unsqueeze(1), [[3, 1, 4], [4, 4, 1], 0]],
    ['unsqueeze(-1)', () => a34().unsqueeze(-1), [[3, 4, 1], [4, 1, 1], 0]],
    ['t().unsqueeze(1)', () => a34().t().unsqueeze(1), [[4, 1, 3], [1, 12, 4], 0]],
    ['flatten(1)', () => zeros(2, 3, 4).flatten(1), [[2, 12], [12, 1], 0]],
    ['flatten()', () => zeros(2, 3, 4).flatten(), [[24], [1], 0]],
    ['flatten(0, 1)', () => zeros(2, 3, 4).flatten(0, 1), [[6, 4], [4, 1], 0]],
    ['flatten() of 0-d', () => tensor(5).flatten(), [[1], [1], 0]],
    ['narrow(1, 1, 2)', () => a34().narrow(1, 1, 2), [[3, 2], [4, 1], 1]],
    ['narrow(0, -2, 2)', () => a34().narrow(0, -2, 2), [[2, 4], [4, 1], 4]],
    ['select(1, -1)', () => a34().select(1, -1), [[3], [4], 3]],
    ['select(0, 2)', () => a34().select(0, 2), [[4], [1], 8]],
    ['[:, 1::2]', () => getitem(a34(), ':, 1::2'), [[3, 2], [4, 2], 1]],
    ['[1:, ::3]', () => getitem(a34(), '1:, ::3'), [[2, 2], [4, 3], 4]],
    ['[5:7] (empty)', () => getitem(a34(), '5:7'), [[0, 4], [4, 1], 12]],
    ['[-100:100] (clamped)', () => getitem(a34(), '-100:100'), [[3, 4], [4, 1], 0]],
    ['slice op', () => T.callOp('slice', [a34(), 1, 1, null, 2]) as T.Tensor, [[3, 2], [4, 2], 1]],
    ['as_strided', () => a34().as_strided([2, 2], [1, 4], 1), [[2, 2], [1, 4], 1]],
    ['unfold(0, 3, 2)', () => arange(7).unfold(0, 3, 2), [[3, 3], [2, 1], 0]],
    ['unfold(1, 2, 1)', () => a34().unfold(1, 2, 1), [[3, 3, 2], [4, 1, 1], 0]],
    ['diagonal()', () => a34().diagonal(), [[3], [5], 0]],
    ['diagonal(1)', () => a34().diagonal(1), [[3], [5], 1]],
    ['diagonal(-1)', () => a34().diagonal(-1), [[2], [5], 4]],
    ['diagonal(5) (empty)', () => a34().diagonal(5), [[0], [5], 0]],
    ['diagonal(0, 0, 2) of 3-d', () => zeros(2, 3, 4).diagonal(0, 0, 2), [[3, 2], [4, 13], 0]],
    ['movedim(0, 2)', () => zeros(2, 3, 4).movedim(0, 2), [[3, 4, 2], [4, 1, 12], 0]],
    [
      'view splitting a permuted dim',
      () => arange(24).view(2, 3, 4).transpose(0, 1).view(3, 2, 2, 2),
      [[3, 2, 2, 2], [4, 12, 2, 1], 0],
    ],
  ];
  for (const [name, make, want] of cases) {
    it(name, () => {
      const v = make();
      expect(info(v)).toEqual(want);
      expect(v.base).not.toBeNull();
    });
  }

  it('values through the views', () => {
    expect(a34().as_strided([2, 2], [1, 4], 1).tolist()).toEqual([
      [1n, 5n],
      [2n, 6n],
    ]);
    expect(arange(7).unfold(0, 3, 2).tolist()).toEqual([
      [0n, 1n, 2n],
      [2n, 3n, 4n],
      [4n, 5n, 6n],
    ]);
    expect(a34().diagonal(-1).tolist()).toEqual([4n, 9n]);
    expect(getitem(a34(), null, 1).tolist()).toEqual([[4n, 5n, 6n, 7n]]);
    expect(getitem(zeros(2, 3, 4), '...', 1).shape).toEqual([2, 3]);
    expect(getitem(a34(), '-1').tolist()).toEqual([8n, 9n, 10n, 11n]);
  });

  it('split / chunk / unbind', () => {
    const a = a34();
    expect(a.split(3, 1).map(info)).toEqual([
      [[3, 3], [4, 1], 0],
      [[3, 1], [4, 1], 3],
    ]);
    expect(a.split([1, 3], 1).map(info)).toEqual([
      [[3, 1], [4, 1], 0],
      [[3, 3], [4, 1], 1],
    ]);
    expect(
      arange(5)
        .chunk(3)
        .map((x) => x.tolist()),
    ).toEqual([[0n, 1n], [2n, 3n], [4n]]);
    expect(
      arange(6)
        .chunk(4)
        .map((x) => x.tolist()),
    ).toEqual([
      [0n, 1n],
      [2n, 3n],
      [4n, 5n],
    ]);
    expect(a.unbind(1).map(info)).toEqual([
      [[3], [4], 0],
      [[3], [4], 1],
      [[3], [4], 2],
      [[3], [4], 3],
    ]);
    for (const part of [...a.split(2), ...a.chunk(2, 1), ...a.unbind()]) expect(part.storage).toBe(a.storage);
    expect(() => a.split([1, 2], 1)).toThrow(code('E_SHAPE_MISMATCH'));
  });
});

describe('views share storage and see writes', () => {
  it('writes through an in-place op on a view land in the base', () => {
    const b = zeros(2, 3);
    b.select(0, 1).add_(5);
    expect(b.tolist()).toEqual([
      [0, 0, 0],
      [5, 5, 5],
    ]);
    b.t().select(0, 2).fill_(7);
    expect(b.tolist()).toEqual([
      [0, 0, 7],
      [5, 5, 7],
    ]);
    getitem(b, ':, ::2').mul_(2);
    expect(b.tolist()).toEqual([
      [0, 0, 14],
      [10, 5, 14],
    ]);
  });

  it('writes to the base are seen by every view', () => {
    const base = arange(6, { dtype: 'float32' });
    const views = [
      base.view(2, 3),
      base.view(3, 2).t(),
      getitem(base, '1:'),
      base.unsqueeze(0),
      base.as_strided([2], [3], 1),
    ];
    base.fill_(1);
    for (const v of views) {
      expect(v.storage).toBe(base.storage);
      expect(new Set(v.tolist().toString().split(','))).toEqual(new Set(['1']));
    }
  });

  it('the version counter is shared by views and bumped by in-place ops', () => {
    const b = zeros(2, 3);
    const v = b.view(6);
    const s = b.select(0, 0);
    expect([b.version, v.version, s.version]).toEqual([0, 0, 0]);
    b.add_(1);
    expect([b.version, v.version, s.version]).toEqual([1, 1, 1]);
    s.mul_(2);
    expect(b.version).toBe(2);
    T.torch.add(b, 1, { out: zeros(2, 3) });
    expect(b.version).toBe(2); // reading does not bump
    const out = zeros(2, 3);
    T.torch.add(b, 1, { out });
    expect(out.version).toBe(1);
    b.copy_(zeros(2, 3));
    b.zero_();
    expect(v.version).toBe(4);
    expect(b.clone().version).toBe(0);
  });

  it('the base of a view of a view is the original tensor', () => {
    const b = zeros(4, 4);
    const v = b.t().select(0, 1).unsqueeze(0);
    expect(v.base).toBe(b);
    expect(b.base).toBeNull();
  });
});

describe('copies', () => {
  it('contiguous() on a contiguous tensor returns self; otherwise a contiguous copy', () => {
    const a = a34();
    expect(a.contiguous()).toBe(a);
    const c = a.t().contiguous();
    expect(info(c)).toEqual([[4, 3], [3, 1], 0]);
    expect(c.storage).not.toBe(a.storage);
    expect(c.tolist()).toEqual(a.t().tolist());
  });

  it('clone() copies, preserving a dense layout (verified with PyTorch 1.13)', () => {
    const a = a34();
    const c = a.clone();
    expect(c.storage).not.toBe(a.storage);
    expect(c.stride()).toEqual([4, 1]);
    expect(a.t().clone().stride()).toEqual([1, 4]);
    const p = zeros(2, 3, 4).permute(2, 0, 1);
    expect(p.clone().stride()).toEqual([1, 12, 4]);
    expect(p.clone({ memory_format: 'contiguous_format' }).stride()).toEqual([6, 3, 1]);
    expect(getitem(zeros(4, 6), ':, ::2').clone().stride()).toEqual([3, 1]);
    c.add_(1);
    expect(a.tolist()).toEqual(a34().tolist());
  });

  it('.to: same dtype and device returns the same object; otherwise converts', () => {
    const a = a34();
    expect(a.to('int64')).toBe(a);
    expect(a.to('cpu')).toBe(a);
    expect(a.to({ dtype: 'int64' })).toBe(a);
    expect(a.to({ dtype: 'int64', copy: true })).not.toBe(a);
    const f = a.to('float32');
    expect(f.dtype).toBe('float32');
    expect(f.storage).not.toBe(a.storage);
    expect(f.tolist()).toEqual([
      [0, 1, 2, 3],
      [4, 5, 6, 7],
      [8, 9, 10, 11],
    ]);
    expect(a.to({ dtype: 'float64' }).dtype).toBe('float64');
    expect(a.double().dtype).toBe('float64');
    expect(a.half().dtype).toBe('float16');
    const m = a.to('meta');
    expect(m.device).toBe('meta');
    expect(info(m)).toEqual([[3, 4], [4, 1], 0]);
    expect(() => m.to('cpu')).toThrow(code('E_NOT_IMPLEMENTED'));
  });

  it('reshape views when it can and copies when it must', () => {
    const a = a34();
    const r = a.reshape(4, 3);
    expect(r.storage).toBe(a.storage);
    expect(info(r)).toEqual([[4, 3], [3, 1], 0]);
    const c = a.t().reshape(12);
    expect(c.storage).not.toBe(a.storage);
    expect(c.tolist()).toEqual([0n, 4n, 8n, 1n, 5n, 9n, 2n, 6n, 10n, 3n, 7n, 11n]);
    expect(a.t().flatten().storage).not.toBe(a.storage);
    const z = zeros(2, 3, 4);
    expect(z.flatten(1).storage).toBe(z.storage);
  });
});

describe('view(): computeViewStrides rules (verified with PyTorch 1.13)', () => {
  const t34 = () => a34().t(); // [4, 3] strides (1, 4)
  const stepped = () => getitem(zeros(4, 6), ':, ::2'); // [4, 3] strides (6, 2)
  const middle = () => getitem(zeros(2, 3, 4), ':, 1:3, :'); // [2, 2, 4] strides (12, 4, 1) offset 4
  const expanded = () => zeros(3, 1).expand(3, 4); // [3, 4] strides (1, 0)
  const ok: [string, () => T.Tensor, number[], unknown[]][] = [
    ['transposed: same shape', t34, [4, 3], [[4, 3], [1, 4], 0]],
    ['transposed: splitting a dim works', t34, [2, 2, 3], [[2, 2, 3], [2, 1, 4], 0]],
    ['transposed: adding size-1 dims', t34, [4, 3, 1], [[4, 3, 1], [1, 4, 4], 0]],
    ['transposed: leading size-1 dim', t34, [1, 4, 3], [[1, 4, 3], [4, 1, 4], 0]],
    ['stepped slice merges (stride 2 chunk)', stepped, [12], [[12], [2], 0]],
    ['stepped slice split', stepped, [2, 2, 3], [[2, 2, 3], [12, 6, 2], 0]],
    ['stepped slice regroup', stepped, [2, 6], [[2, 6], [12, 2], 0]],
    ['middle slice merges its contiguous tail', middle, [2, 8], [[2, 8], [12, 1], 4]],
    ['middle slice splits', middle, [2, 2, 2, 2], [[2, 2, 2, 2], [12, 4, 2, 1], 4]],
    ['expanded: split the stride-0 dim', expanded, [3, 2, 2], [[3, 2, 2], [1, 0, 0], 0]],
    ['expanded: trailing 1', expanded, [3, 4, 1], [[3, 4, 1], [1, 0, 0], 0]],
    ['0-d to [1, 1]', () => tensor(5.5), [1, 1], [[1, 1], [1, 1], 0]],
    ['[1, 1] to 0-d', () => zeros(1, 1), [], [[], [], 0]],
    ['empty [0, 3] to [3, 0]', () => zeros(0, 3), [3, 0], [[3, 0], [1, 1], 0]],
  ];
  for (const [name, make, shape, want] of ok) {
    it(name, () => {
      const x = make();
      const v = x.view(shape);
      expect(info(v)).toEqual(want);
      expect(v.storage).toBe(x.storage);
    });
  }

  const bad: [string, () => T.Tensor, number[]][] = [
    ['transposed: merging non-mergeable dims', t34, [12]],
    ['transposed: regrouping across the transposed dims', t34, [2, 6]],
    ['middle slice: merging across the gap', middle, [4, 4]],
    ['middle slice: flattening', middle, [16]],
    ['expanded: merging the stride-0 dim', expanded, [12]],
  ];
  for (const [name, make, shape] of bad) {
    it(`${name} is E_INVALID_VIEW`, () => {
      expect(() => make().view(shape)).toThrow(code('E_INVALID_VIEW'));
      expect(make().reshape(shape).shape).toEqual(shape);
    });
  }

  it('core.computeViewStrides directly', () => {
    const { computeViewStrides } = T;
    expect(computeViewStrides([3, 4], [4, 1], [12])).toEqual([1]);
    expect(computeViewStrides([3, 4], [4, 1], [2, 6])).toEqual([6, 1]);
    expect(computeViewStrides([4, 3], [1, 4], [12])).toBeNull();
    expect(computeViewStrides([4, 3], [1, 4], [2, 2, 3])).toEqual([2, 1, 4]);
    expect(computeViewStrides([], [], [1, 1, 1])).toEqual([1, 1, 1]);
    expect(computeViewStrides([2, 0], [1, 1], [0, 7])).toEqual([7, 1]);
  });

  it('view shape errors', () => {
    expect(() => a34().view(5, -1)).toThrow(code('E_SHAPE_MISMATCH'));
    expect(() => a34().view(-1, -1)).toThrow(code('E_INVALID_ARGUMENT'));
    expect(() => a34().view(5)).toThrow(code('E_SHAPE_MISMATCH'));
    expect(a34().view(-1, 6).shape).toEqual([2, 6]);
  });
});

describe('shape helpers', () => {
  it('contiguousStrides, isContiguous and wrapDim', () => {
    const { contiguousStrides, isContiguousLayout, isNonOverlappingAndDense, wrapDim } = core;
    expect(contiguousStrides([2, 0, 3])).toEqual([3, 3, 1]); // verified with PyTorch 1.13
    expect(contiguousStrides([])).toEqual([]);
    expect(isContiguousLayout([3, 1, 2], [2, 99, 1])).toBe(true); // size-1 dims may have any stride
    expect(isContiguousLayout([0, 3], [7, 9])).toBe(true); // empty tensors are contiguous
    expect(isContiguousLayout([3, 2], [1, 3])).toBe(false);
    expect(isNonOverlappingAndDense([3, 2], [1, 3])).toBe(true);
    expect(isNonOverlappingAndDense([3, 2], [0, 1])).toBe(false);
    expect(isNonOverlappingAndDense([3, 2], [4, 2])).toBe(false);
    expect(wrapDim(-1, 3)).toBe(2);
    expect(wrapDim(0, 0)).toBe(0);
    expect(wrapDim(-1, 0)).toBe(0);
    expect(() => wrapDim(3, 3)).toThrow(code('E_DIM_OUT_OF_RANGE'));
    expect(() => wrapDim(1, 0)).toThrow(code('E_DIM_OUT_OF_RANGE'));
  });

  it('a 0-d tensor accepts dims -1 and 0', () => {
    const s = tensor(3);
    expect(s.unsqueeze(0).shape).toEqual([1]);
    expect(s.unsqueeze(-1).shape).toEqual([1]);
    expect(s.squeeze(0).shape).toEqual([]);
    expect(s.flatten().shape).toEqual([1]);
    expect(s.t().shape).toEqual([]);
  });
});
