/** Factories: zeros/ones/full/empty, arange, linspace, eye, *_like, tensor(), meta device. Verified with PyTorch 1.13. */
import { afterEach, describe, expect, it } from 'vitest';
import * as T from '../../src/runtime/index.ts';

const { zeros, ones, full, empty, arange, linspace, eye, tensor } = { ...T, ...T.torch };
const code = (c: string) => expect.objectContaining({ code: c });
const meta = { device: 'meta' } as const;

describe('zeros / ones / empty / full', () => {
  it('shapes as varargs or a list, the default dtype, contiguous strides', () => {
    const z = zeros(2, 3);
    expect([z.dtype, z.shape, z.stride(), z.tolist()]).toEqual([
      'float32',
      [2, 3],
      [3, 1],
      [
        [0, 0, 0],
        [0, 0, 0],
      ],
    ]);
    expect(zeros([2, 3]).shape).toEqual([2, 3]);
    expect(ones(2, { dtype: 'bool' }).tolist()).toEqual([true, true]);
    expect(ones(2, { dtype: 'int64' }).tolist()).toEqual([1n, 1n]);
    expect(ones(1, { dtype: 'complex64' }).tolist()).toEqual([[1, 0]]);
    expect(empty(2, 3).shape).toEqual([2, 3]);
    expect(empty(2, { dtype: 'float16' }).dtype).toBe('float16');
  });

  it('empty shapes: zero-size dims and 0-d', () => {
    expect([zeros(0, 3).shape, zeros(0, 3).stride(), zeros(0, 3).numel]).toEqual([[0, 3], [3, 1], 0]);
    expect(zeros(2, 0, 3).stride()).toEqual([3, 3, 1]);
    expect(zeros(0).tolist()).toEqual([]);
    const s = zeros([]);
    expect([s.shape, s.stride(), s.numel, s.item()]).toEqual([[], [], 1, 0]);
    expect(() => zeros(2, -1)).toThrow(code('E_INVALID_ARGUMENT'));
  });

  it('full infers its dtype from the fill value (verified with PyTorch 1.13)', () => {
    expect([full([2], 3).dtype, full([2], 3).tolist()]).toEqual(['int64', [3n, 3n]]);
    expect([full([2], 3.5).dtype, full([2], 3.5).tolist()]).toEqual(['float32', [3.5, 3.5]]);
    expect([full([2], true).dtype, full([2], true).tolist()]).toEqual(['bool', [true, true]]);
    expect([full([1], T.complex(1, 2)).dtype, full([1], T.complex(1, 2)).tolist()]).toEqual([
      'complex64',
      [[1, 2]],
    ]);
    expect(full([2], T.float(3)).dtype).toBe('float32');
    expect(full([1], 2n ** 60n + 1n).tolist()).toEqual([2n ** 60n + 1n]);
    expect(full([2], 3, { dtype: 'float16' }).tolist()).toEqual([3, 3]);
    expect(full([2], 0.1, { dtype: 'float64' }).tolist()).toEqual([0.1, 0.1]);
    // PyTorch 1.13 refuses a fill value outside the dtype (c10's checked conversion), it does not wrap it.
    expect(() => full([1], 300, { dtype: 'uint8' })).toThrow(
      /value cannot be converted to type uint8_t without overflow/,
    );
    expect(full([1], -255, { dtype: 'uint8' }).tolist()).toEqual([1]);
  });
});

describe('arange (verified with PyTorch 1.13)', () => {
  it('infers int64 from ints and the default float dtype from floats', () => {
    expect([arange(5).dtype, arange(5).tolist()]).toEqual(['int64', [0n, 1n, 2n, 3n, 4n]]);
    expect(arange(1, 4).dtype).toBe('int64');
    expect(arange(1, 4.0 + 0.5).dtype).toBe('float32');
    expect(arange(T.float(3)).dtype).toBe('float32');
    expect(arange(T.float(3)).tolist()).toEqual([0, 1, 2]);
    expect(arange(3, { dtype: 'float64' }).tolist()).toEqual([0, 1, 2]);
    expect(arange(0).tolist()).toEqual([]);
  });

  it('float steps', () => {
    expect(arange(0, 1, 0.25).tolist()).toEqual([0, 0.25, 0.5, 0.75]);
    const t = arange(0, 1, 0.1);
    expect(t.shape).toEqual([10]);
    expect(t.tolist()).toEqual([
      0.0, 0.10000000149011612, 0.20000000298023224, 0.30000001192092896, 0.4000000059604645, 0.5,
      0.6000000238418579, 0.699999988079071, 0.800000011920929, 0.8999999761581421,
    ]);
    expect(arange(-1.0 + 0.5 - 0.5, 1.0, 0.1, { dtype: 'float64' }).shape).toEqual([20]);
  });

  it('negative steps', () => {
    expect(arange(5, 0, -2).tolist()).toEqual([5n, 3n, 1n]);
    expect(arange(10, 0, -3).tolist()).toEqual([10n, 7n, 4n, 1n]);
    expect(arange(1, 0, -0.3).tolist()).toEqual([
      1.0, 0.699999988079071, 0.4000000059604645, 0.10000000149011612,
    ]);
  });

  it('int64 is exact and truncates float bounds; other int dtypes size in double', () => {
    expect(arange(2n ** 53n, 2n ** 53n + 3n).tolist()).toEqual([
      9007199254740992n,
      9007199254740993n,
      9007199254740994n,
    ]);
    expect(arange(0, 5.5, { dtype: 'int64' }).tolist()).toEqual([0n, 1n, 2n, 3n, 4n]);
    expect(arange(0.5, 5, { dtype: 'int64' }).tolist()).toEqual([0n, 1n, 2n, 3n, 4n]);
    expect(arange(0, 5.5, { dtype: 'int32' }).tolist()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('errors', () => {
    expect(() => arange(0, 5, 0)).toThrow(code('E_INVALID_ARGUMENT'));
    expect(() => arange(0, 5, -1)).toThrow(code('E_INVALID_ARGUMENT'));
    expect(() => arange(0, 1, 0.3, { dtype: 'int64' })).toThrow(code('E_INVALID_ARGUMENT')); // step truncates to 0
  });
});

describe('linspace (verified with PyTorch 1.13)', () => {
  it('values, including the symmetric second half', () => {
    expect(linspace(0, 1, 5).tolist()).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(linspace(3, 10, 5).tolist()).toEqual([3, 4.75, 6.5, 8.25, 10]);
    expect(linspace(-1, 1, 7).tolist()).toEqual([
      -1.0, -0.6666666269302368, -0.3333333134651184, -2.9802322387695312e-8, 0.3333333134651184,
      0.6666666269302368, 1.0,
    ]);
    expect(linspace(0, 1, 5, { dtype: 'float16' }).tolist()).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(linspace(-1, 1, 5, { dtype: 'float64' }).tolist()).toEqual([-1, -0.5, 0, 0.5, 1]);
  });

  it('integer dtypes compute in double and truncate', () => {
    expect(linspace(0, 10, 4, { dtype: 'int64' }).tolist()).toEqual([0n, 3n, 6n, 10n]);
  });

  it('one and zero steps', () => {
    expect(linspace(2, 3, 1).tolist()).toEqual([2]);
    expect(linspace(2, 3, 0).shape).toEqual([0]);
    expect(() => linspace(0, 1, -1)).toThrow(code('E_INVALID_ARGUMENT'));
  });
});

describe('eye', () => {
  it('square and rectangular, any dtype', () => {
    expect(eye(3).tolist()).toEqual([
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ]);
    const r = eye(2, 3, { dtype: 'int32' });
    expect([r.dtype, r.tolist()]).toEqual([
      'int32',
      [
        [1, 0, 0],
        [0, 1, 0],
      ],
    ]);
    expect(eye(3, 2, { dtype: 'bool' }).tolist()).toEqual([
      [true, false],
      [false, true],
      [false, false],
    ]);
    expect(eye(0).shape).toEqual([0, 0]);
    expect(() => eye(-1)).toThrow(code('E_INVALID_ARGUMENT'));
  });
});

describe('*_like', () => {
  it('take shape, dtype and device from the input unless overridden', () => {
    const x = tensor([1, 2]);
    expect([T.torch.zeros_like(x).dtype, T.torch.zeros_like(x).tolist()]).toEqual(['int64', [0n, 0n]]);
    expect(T.torch.ones_like(x, { dtype: 'float64' }).tolist()).toEqual([1, 1]);
    expect(T.torch.full_like(x, 7).tolist()).toEqual([7n, 7n]);
    expect(T.torch.full_like(x, 7.5).tolist()).toEqual([7n, 7n]); // the fill value is cast to the input's dtype
    expect(T.torch.full_like(x, 7.5, { dtype: 'float32' }).tolist()).toEqual([7.5, 7.5]);
    expect(T.torch.empty_like(x).shape).toEqual([2]);
    const m = T.torch.ones_like(x, meta);
    expect([m.device, m.dtype, m.shape]).toEqual(['meta', 'int64', [2]]);
    const back = T.torch.zeros_like(m, { device: 'cpu' });
    expect([back.device, back.tolist()]).toEqual(['cpu', [0n, 0n]]);
    expect(T.torch.zeros_like(m).device).toBe('meta');
  });

  it('preserve the layout of the input (verified with PyTorch 1.13)', () => {
    const p = zeros(2, 3, 4).permute(2, 0, 1);
    expect(T.torch.empty_like(p).stride()).toEqual([1, 12, 4]);
    expect(T.torch.zeros_like(p).stride()).toEqual([1, 12, 4]);
    expect(T.torch.empty_like(T.getitem(p, ':, :, :2')).stride()).toEqual([1, 8, 4]); // non-dense: dense in the same order
    expect(T.torch.ones_like(p, { memory_format: 'contiguous_format' }).stride()).toEqual([6, 3, 1]);
    expect(T.torch.empty_like(zeros(2, 3, 4, 5), { memory_format: 'channels_last' }).stride()).toEqual([
      60, 1, 15, 3,
    ]);
    expect(T.torch.zeros_like(zeros(3, 4).t()).stride()).toEqual([1, 4]);
  });
});

describe('tensor()', () => {
  afterEach(() => T.setDefaultDType('float32'));

  it('infers bool / int64 / default float / complex64 from the data', () => {
    expect(tensor([true, false]).dtype).toBe('bool');
    expect(tensor([1, 2]).dtype).toBe('int64');
    expect(tensor([1n, 2n]).dtype).toBe('int64');
    expect(tensor([1, 2.5]).dtype).toBe('float32');
    expect(tensor([1, T.complex(0, 1)]).dtype).toBe('complex64');
    expect(tensor([T.float(1), 2]).dtype).toBe('float32');
    expect(tensor([]).dtype).toBe('float32');
    T.setDefaultDType('float64');
    expect(tensor([1.5]).dtype).toBe('float64');
    expect(tensor([T.complex(1, 1)]).dtype).toBe('complex128');
  });

  it('shapes: nested, 0-d, empty', () => {
    expect(
      tensor([
        [1, 2],
        [3, 4],
      ]).shape,
    ).toEqual([2, 2]);
    expect(tensor(5).shape).toEqual([]);
    expect([tensor([[], []]).shape, tensor([[], []]).stride()]).toEqual([
      [2, 0],
      [1, 1],
    ]);
  });

  it('explicit dtype converts with rounding / wrap-around', () => {
    expect(tensor([1.7, -1.7], { dtype: 'int32' }).tolist()).toEqual([1, -1]);
    expect(tensor([2n ** 63n], { dtype: 'int64' }).tolist()).toEqual([-(2n ** 63n)]);
    expect(tensor([true], { dtype: 'float32' }).tolist()).toEqual([1]);
    expect(tensor([0.1], { dtype: 'float32' }).tolist()).toEqual([Math.fround(0.1)]);
  });
});

describe('fromArray and readback', () => {
  it('fromArray views a typed array without copying', () => {
    const data = new Float32Array([1, 2, 3, 4]);
    const t = T.fromArray(data, [2, 2], 'float32');
    expect(t.storage.data).toBe(data);
    data[3] = 9;
    expect(t.tolist()).toEqual([
      [1, 2],
      [3, 9],
    ]);
    expect(() => T.fromArray(new Float32Array(3), [2, 2], 'float32')).toThrow(code('E_SHAPE_MISMATCH'));
    // Bad arguments from untyped callers: each a typed error naming the argument.
    const bad = (f: () => unknown, arg: string) =>
      expect(f).toThrow(expect.objectContaining({ code: 'E_INVALID_ARGUMENT', arg }));
    bad(() => T.fromArray(new Float32Array(4), 4 as unknown as number[], 'float32'), 'shape');
    bad(() => T.fromArray(new Float32Array(4), [4], 'float31' as T.DType), 'dtype');
    bad(() => T.fromArray(new Float64Array(4), [4], 'float32'), 'data');
    for (const options of ['float32', 5, [], T.tensor([0])])
      bad(() => T.tensor([1], options as unknown as T.TensorOptions), 'options');
  });

  it('toArray is flat and in logical order; item() reads one element per dtype', async () => {
    const x = arange(6).view(2, 3).t();
    expect(await x.toArray()).toEqual([0n, 3n, 1n, 4n, 2n, 5n]);
    expect(tensor(2.5).item()).toBe(2.5);
    expect(tensor(true).item()).toBe(true);
    expect(tensor(7).item()).toBe(7n);
    expect(tensor(T.complex(1, -2)).item()).toEqual([1, -2]);
    expect(tensor([[3]], { dtype: 'int8' }).item()).toBe(3);
    expect(tensor(0.1, { dtype: 'float16' }).item()).toBe(0.0999755859375);
  });
});

describe('meta device', () => {
  it('factories allocate no data but have full metadata', () => {
    for (const t of [
      zeros(2, 3, meta),
      ones(2, meta),
      full([2], 1.5, meta),
      empty(4, meta),
      arange(5, meta),
      linspace(0, 1, 3, meta),
      eye(3, meta),
    ]) {
      expect(t.device).toBe('meta');
      expect(t.storage.data).toBeNull();
      expect(t.isMeta).toBe(true);
    }
    expect(arange(5, meta).dtype).toBe('int64');
    expect(full([2], 1.5, meta).dtype).toBe('float32');
    expect(eye(2, 3, meta).shape).toEqual([2, 3]);
    expect(tensor([1, 2], meta).device).toBe('meta');
  });

  it('ops on meta tensors compute shape, dtype and strides only', () => {
    const a = zeros(2, 3, meta);
    const r = T.torch.add(a, ones(3, { ...meta, dtype: 'float64' }));
    expect([r.device, r.shape, r.dtype, r.stride()]).toEqual(['meta', [2, 3], 'float64', [3, 1]]);
    expect(T.torch.add(a.t(), 1).stride()).toEqual([1, 3]);
    expect(a.view(6).shape).toEqual([6]);
    expect(T.torch.lt(a, 1).dtype).toBe('bool');
    expect(a.add_(1)).toBe(a);
    expect(a.version).toBe(1);
    expect(() => a.tolist()).toThrow(code('E_NOT_IMPLEMENTED'));
    expect(() => T.torch.add(a, zeros(3))).toThrow(code('E_DEVICE_MISMATCH'));
  });
});

describe("the Python argument parser's factory keywords", () => {
  it('requires_grad sets the result (float and complex only), and is refused where aten has no TensorOptions', () => {
    expect(eye(3, { dtype: 'float32', requires_grad: false }).requiresGrad).toBe(false);
    const g = zeros(2, 3, { requires_grad: true });
    expect([g.requiresGrad, g.isLeaf]).toEqual([true, true]);
    expect(T.torch.zeros_like(g, { requires_grad: true }).requiresGrad).toBe(true);
    expect(full([2], 1.5, { dtype: 'complex64', requires_grad: true }).requiresGrad).toBe(true);
    expect(eye(2, { requires_grad: null }).requiresGrad).toBe(false);
    expect(() => arange(5, { requires_grad: true })).toThrow(
      expect.objectContaining({ code: 'E_AUTOGRAD', op: 'arange', arg: 'requires_grad' }),
    );
    expect(() => eye(2, { requires_grad: 1 })).toThrow(
      expect.objectContaining({ code: 'E_INVALID_ARGUMENT', arg: 'requires_grad' }),
    );
    // Not a factory: add has no requires_grad, in aten or in Python.
    expect(() => T.callOp('add', [ones(2), 1], { requires_grad: true })).toThrow(code('E_NO_OVERLOAD'));
  });

  it('layout: torch.strided only; pin_memory=True is refused; False and None are no-ops', () => {
    expect(zeros(2, { layout: 'strided', pin_memory: false }).tolist()).toEqual([0, 0]);
    expect(empty(2, { pin_memory: null }).shape).toEqual([2]);
    // PyTorch 1.13 makes a sparse zeros tensor; the runtime has none and says so before allocating.
    for (const f of [() => zeros(2, { layout: 'sparse_coo' }), () => empty(2, { layout: 'sparse_csr' })])
      expect(f).toThrow(
        expect.objectContaining({
          code: 'E_NOT_IMPLEMENTED',
          arg: 'layout',
          got: expect.stringMatching(/^sparse_c/),
        }),
      );
    expect(() => zeros(2, { layout: 'jagged' })).toThrow(
      expect.objectContaining({ code: 'E_INVALID_ARGUMENT', arg: 'layout', got: 'jagged' }),
    );
    expect(() => linspace(0, 1, 5, { pin_memory: true })).toThrow(
      expect.objectContaining({ code: 'E_NOT_IMPLEMENTED', op: 'linspace', arg: 'pin_memory' }),
    );
  });
});
