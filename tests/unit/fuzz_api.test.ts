/**
 * Fuzzes the public runtime API: every overload of the operator table (`listOps()`) called through `callOp`,
 * its Tensor method or its torch-like function, with schema-shaped and junk arguments (tensors of every dtype
 * on cpu and meta, 0-size dims, huge meta tensors, huge / negative / non-finite sizes, null, strings, objects,
 * bigints, nested arrays), plus `tensor()` and `getitem`. A call may succeed or raise an OpgateError with a
 * `code`; any other throw (TypeError, RangeError, a plain Error, a non-Error) fails, and so does a returned
 * tensor with an invalid shape, stride or offset.
 *
 * Seeded, so a run is reproducible: OPGATE_FUZZ_SEED picks the seed (fast-check prints seed and path on a
 * failure) and OPGATE_FUZZ_CALLS the number of calls (the nightly workflow runs 100,000).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as T from '../../src/runtime/index.ts';
import { type CallSpec, callFor, type OpShape, tensorCall } from './fuzz_api_arbitraries.ts';
import { anyValue, materialize } from './fuzz_api_values.ts';

const CALLS = Number(process.env.OPGATE_FUZZ_CALLS ?? 5000);
const SEED = Number(process.env.OPGATE_FUZZ_SEED ?? 20240615);
/** A low allocation limit: no generated call may allocate more than this, so none can run long or exhaust memory. */
const FUZZ_ALLOCATION_LIMIT = 64 * 2 ** 20;

const OPS: OpShape[] = T.listOps().map((o) => {
  const schema = T.parseSchema(o.schema);
  return {
    name: schema.name,
    qualified: schema.qualifiedName,
    args: schema.args.map((a) => ({
      name: a.name,
      type: { base: a.type.base, isList: a.type.isList },
      kwargOnly: a.kwargOnly,
      hasDefault: a.hasDefault,
    })),
  };
});
const FUNCTIONS = T as unknown as Record<string, unknown>;

function isSafeIndex(x: unknown, min = 0): boolean {
  return typeof x === 'number' && Number.isSafeInteger(x) && x >= min;
}

/** A returned tensor must have a valid shape, strides and offset, and (on cpu) storage that covers them. */
function checkTensor(t: T.Tensor, where: string): void {
  const bad = (what: string) => new Error(`${where}: invalid tensor ${what}: ${t}`);
  if (!t.shape.every((s) => isSafeIndex(s))) throw bad(`shape [${t.shape.join(', ')}]`);
  if (t.strides.length !== t.shape.length || !t.strides.every((s) => isSafeIndex(s, -(2 ** 53))))
    throw bad(`strides [${t.strides.join(', ')}]`);
  if (!(t.numel <= Number.MAX_SAFE_INTEGER)) throw bad(`numel ${t.numel} (not countable exactly)`);
  if (!isSafeIndex(t.storageOffset)) throw bad(`offset ${t.storageOffset}`);
  if (t.device === 'cpu' && t.numel > 0) {
    let last = t.storageOffset;
    for (let d = 0; d < t.ndim; d++) last += (t.shape[d] - 1) * Math.max(t.strides[d], 0);
    const lanes = T.DTYPE_INFO[t.dtype].lanes;
    if ((t.storage.data?.length ?? 0) < (last + 1) * lanes) throw bad('storage (too small for its view)');
  }
}

/**
 * A result is checked, then used: read back (cpu) and, when it requires grad, differentiated, so the values,
 * the layout and the recorded graph of every successful call are exercised too.
 */
function checkResult(out: unknown, where: string): void {
  if (Array.isArray(out)) for (const x of out) checkResult(x, where);
  if (!(out instanceof T.Tensor)) return;
  checkTensor(out, where);
  // A view may be huge (expand to [1e9]) without allocating; using it would be slow, not wrong.
  if (out.numel > 10_000) return;
  if (out.device === 'cpu') out.tolist();
  if (out.requiresGrad && /^float/.test(out.dtype)) (T.callOp('sum', [out]) as T.Tensor).backward();
}

/** Runs one call: a coded OpgateError is fine, anything else thrown is a finding. */
function expectTypedOutcome(run: () => unknown, where: string): void {
  try {
    checkResult(run(), where);
  } catch (e) {
    if (e instanceof T.OpgateError && typeof e.code === 'string' && /^E_[A-Z_]+$/.test(e.code)) return;
    const what = e instanceof Error ? `${e.name}: ${e.message}\n${e.stack}` : `non-Error throw ${String(e)}`;
    throw new Error(`${where} threw an untyped error: ${what}`);
  }
}

function runCall(c: CallSpec): unknown {
  const args = c.args.map((a) => materialize(a, c.context));
  const kwargs: Record<string, unknown> = {};
  for (const [k, v] of c.kwargs) kwargs[k] = materialize(v, c.context);
  const trailing = c.kwargs.length > 0 ? [kwargs] : [];
  const self = args[0];
  if (c.via === 'method' && self instanceof T.Tensor) {
    const m = (self as unknown as Record<string, unknown>)[c.name];
    if (typeof m === 'function') return m.call(self, ...args.slice(1), ...trailing);
  }
  if (c.via === 'function' && typeof FUNCTIONS[c.name] === 'function')
    return (FUNCTIONS[c.name] as (...a: unknown[]) => unknown)(...args, ...trailing);
  return T.callOp(c.name, args, kwargs);
}

const describeCall = (c: CallSpec) => `${c.via} ${c.name}`;
const anyOpCall = fc.constantFrom(...OPS).chain(callFor);

beforeAll(() => T.setMaxAllocationBytes(FUZZ_ALLOCATION_LIMIT));
afterAll(() => T.setMaxAllocationBytes(null));

describe(`public API fuzz (${CALLS} calls, seed ${SEED})`, () => {
  // The bulk of the budget goes to operator calls; tensor(), getitem and raw callOp misuse share the rest.
  const share = (f: number) => Math.max(1, Math.round(CALLS * f));

  test('every operator overload, called with random arguments, succeeds or raises a coded OpgateError', () => {
    fc.assert(
      fc.property(anyOpCall, (c) => expectTypedOutcome(() => runCall(c), describeCall(c))),
      { numRuns: share(0.8), seed: SEED },
    );
  }, 600_000);

  test('tensor(data, options) with nested, ragged and junk data', () => {
    fc.assert(
      fc.property(tensorCall, ({ data, options }) =>
        expectTypedOutcome(
          () => T.tensor(materialize(data) as T.NestedData, materialize(options) as never),
          'tensor',
        ),
      ),
      { numRuns: share(0.1), seed: SEED },
    );
  }, 600_000);

  test('callOp and getitem with junk names, argument lists and keyword objects', () => {
    const name = fc.oneof(
      fc.constantFrom(...OPS.map((o) => o.name)),
      anyValue.map((v) => materialize(v)),
    );
    fc.assert(
      fc.property(
        name,
        anyValue,
        anyValue,
        anyValue,
        fc.array(anyValue, { maxLength: 3 }),
        (n, a, k, t, items) => {
          expectTypedOutcome(
            () => T.callOp(n as string, materialize(a) as unknown[], materialize(k) as never),
            'callOp',
          );
          const self = materialize(t);
          const index = items.map((x) => materialize(x)) as T.IndexItem[];
          expectTypedOutcome(() => T.getitem(self as T.Tensor, ...index), 'getitem');
        },
      ),
      { numRuns: share(0.1), seed: SEED },
    );
  }, 600_000);
});

/** Tensor methods that are not operators (readback, autograd, metadata), called with junk arguments. */
const PLAIN_METHODS = [
  'size',
  'stride',
  'dim',
  'item',
  'tolist',
  'type',
  'float',
  'long',
  'bool',
  'isContiguous',
  'toString',
  'backward',
  'requiresGrad_',
  'retainGrad',
  'registerHook',
] as const;

test('plain Tensor methods with junk arguments succeed or raise a coded OpgateError', () => {
  const call = fc.record({
    self: anyValue.filter((v) => v.t === 'tensor'),
    method: fc.constantFrom(...PLAIN_METHODS),
    args: fc.array(anyValue, { maxLength: 2 }),
  });
  fc.assert(
    fc.property(call, ({ self, method, args }) => {
      const t = materialize(self) as T.Tensor;
      const values = args.map((a) => materialize(a));
      const m = (t as unknown as Record<string, (...a: unknown[]) => unknown>)[method];
      expectTypedOutcome(() => m.apply(t, values), `Tensor.${method}`);
    }),
    { numRuns: Math.max(1, Math.round(CALLS * 0.05)), seed: SEED },
  );
}, 600_000);

test('the fuzzer reaches every overload of the operator table', () => {
  const names = new Set<string>();
  for (const c of fc.sample(anyOpCall, { numRuns: 20 * OPS.length, seed: SEED })) names.add(c.overload);
  const missed = OPS.filter((o) => !names.has(o.qualified)).map((o) => o.qualified);
  expect(missed).toEqual([]);
});

/** What the fuzzer found, pinned: each raised an untyped error (or returned an invalid tensor) before. */
describe('regressions found by the fuzzer', () => {
  const code = (c: string) => expect.objectContaining({ code: c });
  const meta = { device: 'meta' } as const;
  afterAll(() => T.setMaxAllocationBytes(null));

  test('callOp with a junk name, argument list or keyword object', () => {
    expect(() => T.callOp('add', null as never)).toThrow(code('E_INVALID_ARGUMENT'));
    expect(() => T.callOp('add', [T.torch.zeros(1), T.torch.zeros(1)], null as never)).toThrow(
      code('E_INVALID_ARGUMENT'),
    );
    expect(() => T.callOp(5 as never, [])).toThrow(code('E_UNKNOWN_OP'));
    expect(() => T.callOp('view', [T.torch.zeros(1), [2n ** 60n]])).toThrow(code('E_NO_OVERLOAD'));
  });

  test('scalar wrappers, devices and the default dtype take only what they can hold', () => {
    expect(() => T.int(1.5)).toThrow(code('E_INVALID_ARGUMENT'));
    expect(() => T.float('1' as never)).toThrow(code('E_INVALID_ARGUMENT'));
    expect(() => T.complex(1, null as never)).toThrow(code('E_INVALID_ARGUMENT'));
    expect(() => T.torch.zeros([3], { device: 'cuda' })).toThrow(code('E_INVALID_ARGUMENT'));
    expect(() => T.setDefaultDType('int64')).toThrow(code('E_INVALID_ARGUMENT'));
  });

  test('a written 0-dim cpu tensor does not join a meta operand (no kernel reads missing data)', () => {
    const other = T.torch.empty([], { ...meta, dtype: 'bool' });
    expect(() => T.tensor(true).logical_and_(other)).toThrow(code('E_DEVICE_MISMATCH'));
    expect(() => T.tensor(1.5).ne_(other)).toThrow(code('E_DEVICE_MISMATCH'));
  });

  test('a 0-dim tensor alpha is read for the kernel and kept for the gradient', () => {
    const x = T.torch.ones(2).requiresGrad_(true);
    T.torch.sum(T.torch.sub(x, x, { alpha: T.tensor(3) })).backward();
    expect(x.grad?.tolist()).toEqual([-2, -2]);
  });

  test('readback and metadata methods refuse what they cannot do', () => {
    T.setMaxAllocationBytes(2 ** 20);
    // No elements, but 3e6 empty lists to build.
    expect(() => T.torch.zeros(3, 1, 0).expand(3, 1e6, 0).tolist()).toThrow(code('E_OUT_OF_MEMORY'));
    expect(() => T.torch.zeros(2).size(5)).toThrow(code('E_DIM_OUT_OF_RANGE'));
    expect(() => T.tensor(1).stride(0)).toThrow(code('E_DIM_OUT_OF_RANGE'));
    const y = T.torch.ones(2).requiresGrad_(true);
    expect(() => T.torch.sum(y).backward(5 as never)).toThrow(code('E_AUTOGRAD'));
    expect(() => T.torch.mul(y, 2).backward(T.torch.ones(3))).toThrow(code('E_SHAPE_MISMATCH'));
    expect(() => T.torch.sum(y).backward(null, null as never)).toThrow(code('E_INVALID_ARGUMENT'));
    expect(() => T.torch.ones(1).requiresGrad_('yes' as never)).toThrow(code('E_INVALID_ARGUMENT'));
    expect(() => y.registerHook(null as never)).toThrow(code('E_INVALID_ARGUMENT'));
    expect(() => T.getitem(T.torch.zeros(2), undefined as never)).toThrow(code('E_INVALID_ARGUMENT'));
    expect(() => T.getitem(null as never, 0)).toThrow(code('E_INVALID_ARGUMENT'));
  });
});
