/**
 * The dispatcher: key sets from the inputs and thread-local state, wrapper kernels that redispatch,
 * fallthrough of wrapper keys, CompositeImplicit kernels, and Python-style argument binding. Test-only ops
 * are registered under `_dispatch_test_*` names (each test file runs in its own module registry).
 */
import { describe, expect, it } from 'vitest';
import * as T from '../../src/runtime/index.ts';

const {
  DispatchKey,
  DispatchKeySet,
  computeKeySet,
  redispatch,
  withExcludedKeys,
  withIncludedKeys,
  operatorTable,
  zeros,
  tensor,
} = { ...T, ...T.torch };
type Entry = T.OperatorEntry;

const keysOf = (ks: T.DispatchKeySet) => ks.toString();

/** A fresh test op whose CPU and Meta kernels record the key set they were called with. */
function testOp(name: string): { entry: Entry; seen: string[] } {
  const seen: string[] = [];
  const entry = operatorTable.def(`${name}(Tensor self, int n=1) -> Tensor`, { family: 'test' });
  entry.kernels.set(DispatchKey.CPU, (ks, args) => {
    seen.push(`CPU ${keysOf(ks)}`);
    return args.self;
  });
  entry.kernels.set(DispatchKey.Meta, (ks, args) => {
    seen.push(`Meta ${keysOf(ks)}`);
    return args.self;
  });
  return { entry, seen };
}

describe('DispatchKeySet', () => {
  it('is an immutable bitset ordered by priority', () => {
    const s = DispatchKeySet.of(DispatchKey.CPU, DispatchKey.Autograd);
    expect(s.has(DispatchKey.CPU)).toBe(true);
    expect(s.has(DispatchKey.Meta)).toBe(false);
    expect(s.highest()).toBe(DispatchKey.Autograd);
    expect(s.remove(DispatchKey.Autograd).highest()).toBe(DispatchKey.CPU);
    expect(s.has(DispatchKey.Autograd)).toBe(true); // remove returned a new set
    expect(s.add(DispatchKey.Tracer).keys()).toEqual([
      DispatchKey.Tracer,
      DispatchKey.Autograd,
      DispatchKey.CPU,
    ]);
    expect(
      s.union(DispatchKeySet.of(DispatchKey.Meta)).minus(DispatchKeySet.of(DispatchKey.CPU)).toString(),
    ).toBe('DispatchKeySet(Autograd, Meta)');
    expect(DispatchKeySet.EMPTY.isEmpty()).toBe(true);
    expect(DispatchKeySet.EMPTY.highest()).toBeNull();
    // Wrapper keys outrank every backend key.
    for (const b of [DispatchKey.CPU, DispatchKey.Meta, DispatchKey.WebGPU]) {
      for (const w of [DispatchKey.ADInplaceOrView, DispatchKey.Autograd, DispatchKey.Tracer])
        expect(w).toBeGreaterThan(b);
    }
  });
});

describe('computeKeySet', () => {
  const add = () => operatorTable.get('add.Tensor');

  it('takes the backend key from the tensor arguments (cpu vs meta) plus the wrapper keys', () => {
    expect(keysOf(computeKeySet(add(), { self: zeros(1), other: zeros(1), alpha: T.int(1) }))).toBe(
      'DispatchKeySet(Autograd, ADInplaceOrView, CPU)',
    );
    expect(
      keysOf(
        computeKeySet(add(), {
          self: zeros(1, { device: 'meta' }),
          other: zeros(1, { device: 'meta' }),
          alpha: T.int(1),
        }),
      ),
    ).toBe('DispatchKeySet(Autograd, ADInplaceOrView, Meta)');
  });

  it('ignores wrapped Python numbers', () => {
    const [op, bound] = T.bindCall('add', [zeros(1, { device: 'meta' }), 1], {});
    const ks = computeKeySet(op, bound);
    expect(ks.has(DispatchKey.Meta)).toBe(true);
    expect(ks.has(DispatchKey.CPU)).toBe(false);
  });

  it('factories without tensor arguments take the backend from `device`', () => {
    const zerosOp = operatorTable.get('zeros');
    expect(computeKeySet(zerosOp, { size: [1], device: null }).has(DispatchKey.CPU)).toBe(true);
    expect(computeKeySet(zerosOp, { size: [1], device: 'meta' }).has(DispatchKey.Meta)).toBe(true);
    expect(zeros(2, { device: 'meta' }).device).toBe('meta');
  });

  it('TLS exclude removes keys, include adds them, and both are restored afterwards (even on throw)', () => {
    const args = { self: zeros(1), other: zeros(1), alpha: T.int(1) };
    const excluded = withExcludedKeys(DispatchKeySet.of(DispatchKey.Autograd), () =>
      computeKeySet(add(), args),
    );
    expect(excluded.has(DispatchKey.Autograd)).toBe(false);
    expect(excluded.has(DispatchKey.CPU)).toBe(true);
    const included = withIncludedKeys(DispatchKeySet.of(DispatchKey.Tracer), () =>
      computeKeySet(add(), args),
    );
    expect(included.highest()).toBe(DispatchKey.Tracer);
    const both = withIncludedKeys(DispatchKeySet.of(DispatchKey.Tracer), () =>
      withExcludedKeys(DispatchKeySet.of(DispatchKey.Tracer), () => computeKeySet(add(), args)),
    );
    expect(both.has(DispatchKey.Tracer)).toBe(false); // exclude wins
    expect(() =>
      withExcludedKeys(DispatchKeySet.of(DispatchKey.CPU), () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(computeKeySet(add(), args).toString()).toBe('DispatchKeySet(Autograd, ADInplaceOrView, CPU)');
  });
});

describe('redispatch', () => {
  it('wrapper keys without a kernel fall through to the backend kernel', () => {
    const { seen } = testOp('_dispatch_test_fallthrough');
    const x = zeros(2);
    expect(T.callOp('_dispatch_test_fallthrough', [x])).toBe(x);
    // The backend kernel sees the key set with the fallen-through wrapper keys removed.
    expect(seen).toEqual(['CPU DispatchKeySet(CPU)']);
    T.callOp('_dispatch_test_fallthrough', [zeros(2, { device: 'meta' })]);
    expect(seen[1]).toBe('Meta DispatchKeySet(Meta)');
  });

  it('an Autograd wrapper kernel runs first and redispatches below itself', () => {
    const { entry, seen } = testOp('_dispatch_test_autograd');
    let calls = 0;
    entry.kernels.set(DispatchKey.Autograd, (ks, args, op) => {
      calls++;
      seen.push(`Autograd ${keysOf(ks)}`);
      return redispatch(op, ks.remove(DispatchKey.Autograd), args);
    });
    const x = zeros(2);
    expect(T.callOp('_dispatch_test_autograd', [x, 3])).toBe(x);
    expect(calls).toBe(1);
    expect(seen).toEqual([
      'Autograd DispatchKeySet(Autograd, ADInplaceOrView, CPU)',
      'CPU DispatchKeySet(CPU)',
    ]);
    // Excluding Autograd in TLS skips the wrapper.
    withExcludedKeys(DispatchKeySet.of(DispatchKey.Autograd), () => T.callOp('_dispatch_test_autograd', [x]));
    expect(calls).toBe(1);
    T.callOp('_dispatch_test_autograd', [zeros(1, { device: 'meta' })]);
    expect(calls).toBe(2);
    expect(seen.at(-1)).toBe('Meta DispatchKeySet(Meta)');
  });

  it('a Tracer wrapper runs only while Tracer is included, before Autograd', () => {
    const { entry, seen } = testOp('_dispatch_test_tracer');
    const trace: string[] = [];
    entry.kernels.set(DispatchKey.Tracer, (ks, args, op) => {
      trace.push(`traced ${op.name} n=${args.n}`);
      return redispatch(op, ks.remove(DispatchKey.Tracer), args);
    });
    entry.kernels.set(DispatchKey.Autograd, (ks, args, op) => {
      trace.push('autograd');
      return redispatch(op, ks.remove(DispatchKey.Autograd), args);
    });
    T.callOp('_dispatch_test_tracer', [zeros(1)], { n: 2 });
    expect(trace).toEqual(['autograd']);
    withIncludedKeys(DispatchKeySet.of(DispatchKey.Tracer), () =>
      T.callOp('_dispatch_test_tracer', [zeros(1)], { n: 2 }),
    );
    expect(trace).toEqual(['autograd', 'traced _dispatch_test_tracer n=2', 'autograd']);
    expect(seen).toHaveLength(2);
  });

  it('a wrapper on a real op (add.Tensor) sees every call, including methods and in-place-free paths', () => {
    const add = operatorTable.get('add.Tensor');
    let count = 0;
    add.kernels.set(DispatchKey.Autograd, (ks, args, op) => {
      count++;
      return redispatch(op, ks.remove(DispatchKey.Autograd), args);
    });
    try {
      expect(T.torch.add(tensor([1, 2]), 3).tolist()).toEqual([4n, 5n]);
      expect(tensor([1.5]).add(1).tolist()).toEqual([2.5]);
      expect(T.callOp('add', [tensor([1]), tensor([1])]) as T.Tensor).toBeInstanceOf(T.Tensor);
      expect(count).toBe(3);
    } finally {
      add.kernels.delete(DispatchKey.Autograd);
    }
    T.torch.add(tensor([1]), 1);
    expect(count).toBe(3);
  });

  it('a CompositeImplicit kernel serves any backend without its own kernel', () => {
    const entry = operatorTable.def('_dispatch_test_composite(Tensor self) -> Tensor', { family: 'test' });
    const seen: string[] = [];
    entry.composite = (ks, args) => {
      seen.push(keysOf(ks));
      return T.torch.mul(args.self as T.Tensor, 2);
    };
    expect((T.callOp('_dispatch_test_composite', [tensor([1, 2])]) as T.Tensor).tolist()).toEqual([2n, 4n]);
    const m = T.callOp('_dispatch_test_composite', [zeros(3, { device: 'meta' })]) as T.Tensor;
    expect(m.device).toBe('meta');
    expect(seen).toEqual(['DispatchKeySet(CPU)', 'DispatchKeySet(Meta)']);
    // A backend kernel, when present, wins over the composite for that backend only.
    entry.kernels.set(DispatchKey.CPU, () => 'cpu kernel');
    expect(T.callOp('_dispatch_test_composite', [zeros(1)])).toBe('cpu kernel');
    expect(T.callOp('_dispatch_test_composite', [zeros(1, { device: 'meta' })])).toBeInstanceOf(T.Tensor);
    expect(entry.kernelKeys()).toEqual(['CPU', 'CompositeImplicitAutograd']);
  });

  it('callOp from untyped callers: a name that is no string, args that are no array are typed errors', () => {
    expect(() => T.callOp(1 as unknown as string, [])).toThrow(expect.objectContaining({ arg: 'name' }));
    expect(() => T.callOp('add', 'x' as unknown as unknown[])).toThrow(
      expect.objectContaining({ code: 'E_INVALID_ARGUMENT', arg: 'args' }),
    );
  });

  it('declaring function / method variants for an op with no overloads is refused (a registration typo)', () => {
    expect(() => operatorTable.declare({ no_such_op_for_variants: { function: true } } as never)).toThrow(
      expect.objectContaining({ code: 'E_UNKNOWN_OP', got: 'no_such_op_for_variants' }),
    );
  });

  it('a backend key without a kernel is E_NOT_IMPLEMENTED, and so is an empty key set', () => {
    const { entry } = testOp('_dispatch_test_cpu_meta');
    entry.kernels.delete(DispatchKey.Meta);
    expect(() => T.callOp('_dispatch_test_cpu_meta', [zeros(1, { device: 'meta' })])).toThrow(
      expect.objectContaining({ code: 'E_NOT_IMPLEMENTED', op: '_dispatch_test_cpu_meta' }),
    );
    expect(() =>
      withExcludedKeys(DispatchKeySet.of(DispatchKey.CPU), () =>
        T.callOp('_dispatch_test_cpu_meta', [zeros(1)]),
      ),
    ).toThrow(
      expect.objectContaining({
        code: 'E_NOT_IMPLEMENTED',
        message: expect.stringContaining('empty dispatch key set'),
      }),
    );
  });
});

describe('binding (Python calling convention)', () => {
  it('positional, keyword and default arguments', () => {
    const [op, b] = T.bindCall('add', [zeros(1), 2], { alpha: 3 });
    expect(op.name).toBe('add.Tensor');
    expect((b.other as T.Tensor).isWrappedNumber).toBe(true);
    expect(b.alpha).toEqual(T.int(3));
    const [, d] = T.bindCall('add', [zeros(1), zeros(1)], {});
    expect(d.alpha).toEqual(T.int(1));
    const [sl, s] = T.bindCall('slice', [zeros(4)], { step: 2 });
    expect(sl.name).toBe('slice.Tensor');
    expect([s.dim, s.start, s.end, s.step]).toEqual([0, null, null, 2]);
  });

  it('overloads are tried in registration order; out= picks the .out overload', () => {
    expect(T.bindCall('add', [zeros(1), zeros(1)], { out: zeros(1) })[0].name).toBe('add.out');
    expect(T.bindCall('split', [zeros(4), 2], {})[0].name).toBe('split.Tensor');
    expect(T.bindCall('split', [zeros(4), [1, 3]], {})[0].name).toBe('split.sizes');
    expect(T.bindCall('eye', [3], {})[0].name).toBe('eye');
    expect(T.bindCall('eye', [3, 4], {})[0].name).toBe('eye.m');
  });

  it('trailing ints fill an int[] argument (t.view(2, 3), zeros(2, 3)); a list works too', () => {
    expect(zeros(2, 3).view(3, 2).shape).toEqual([3, 2]);
    expect(zeros(2, 3).view([3, 2]).shape).toEqual([3, 2]);
    expect(zeros([2, 3]).shape).toEqual([2, 3]);
    expect(zeros(6).permute(0).shape).toEqual([6]);
  });

  it('int[N] accepts a single int; Tensor?[] accepts None elements', () => {
    const entry = operatorTable.def(
      '_dispatch_test_bind(Tensor self, int[2] k=1, Tensor?[] xs=[]) -> Tensor',
      { family: 'test' },
    );
    let got: T.Tensor | unknown;
    entry.kernels.set(DispatchKey.CPU, (_ks, args) => {
      got = args;
      return args.self;
    });
    T.callOp('_dispatch_test_bind', [zeros(1), 3, [zeros(1), null]]);
    expect((got as { k: number[] }).k).toEqual([3, 3]);
    expect((got as { xs: unknown[] }).xs[1]).toBeNull();
    T.callOp('_dispatch_test_bind', [zeros(1)]);
    expect((got as { k: number[] }).k).toEqual([1, 1]);
    expect(() => T.callOp('_dispatch_test_bind', [zeros(1), 1.5])).toThrow(
      expect.objectContaining({ code: 'E_NO_OVERLOAD' }),
    );
  });

  it('Scalars: bare integers are ints, other numbers floats, wrappers are explicit', () => {
    expect(T.torch.add(tensor([1]), 2).dtype).toBe('int64');
    expect(T.torch.add(tensor([1]), 2.5).dtype).toBe('float32');
    expect(T.torch.add(tensor([1]), T.float(2)).dtype).toBe('float32');
    expect(T.torch.add(tensor([1]), 2n).dtype).toBe('int64');
    expect(T.torch.full([1], T.int(3)).dtype).toBe('int64');
    expect(T.torch.full([1], T.bool(true)).dtype).toBe('bool');
  });

  it('aliases resolve to their target op', () => {
    expect(operatorTable.resolve('nn.functional.relu')).toBe(operatorTable.resolve('relu'));
    expect(operatorTable.resolve('swapaxes')).toBe(operatorTable.resolve('transpose'));
    expect((T.callOp('nn.functional.relu', [tensor([-1.5, 2])]) as T.Tensor).tolist()).toEqual([0, 2]);
    expect((T.callOp('swapaxes', [zeros(2, 3), 0, 1]) as T.Tensor).shape).toEqual([3, 2]);
    expect(operatorTable.resolve('add.out').map((e) => e.name)).toEqual(['add.out']);
  });
});
