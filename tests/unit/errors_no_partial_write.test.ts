/**
 * Ops check before they write: an in-place or out= call that raises leaves self, out and every other input as
 * they were — bytes, sizes, strides, storage and version counter. Integer division meets its zero divisor and
 * scatter / gather meet an out-of-range index inside the kernel loop, so those are checked in a pass before
 * it; an out= tensor is resized only once the kernel succeeded. The last block proves the errors oracle
 * catches a kernel that writes (or resizes, or bumps the version) before it raises.
 */
import { describe, expect, test } from 'vitest';
import { runOracle } from '../../src/oracles/index.ts';
import { callOp, type Kernel, OpgateError, type Tensor, tensor } from '../../src/runtime/index.ts';
import { matrixInstance, oracleFailure, swapKernel } from './inject_helpers.ts';

interface State {
  storage: Tensor['storage'];
  shape: readonly number[];
  strides: readonly number[];
  offset: number;
  version: number;
  bytes: number[];
}

function stateOf(t: Tensor): State {
  const d = t.storage.data!;
  return {
    storage: t.storage,
    shape: [...t.shape],
    strides: [...t.strides],
    offset: t.storageOffset,
    version: t.version,
    bytes: [...new Uint8Array(d.buffer, d.byteOffset, d.byteLength)],
  };
}

/** Runs `call`, expects it to raise `code`, and expects every tensor in `watched` exactly as it was. */
function expectRaisesUntouched(code: string, watched: readonly Tensor[], call: () => unknown): void {
  const before = watched.map(stateOf);
  let raised: unknown = null;
  try {
    call();
  } catch (e) {
    raised = e;
  }
  expect(raised, 'the call should raise').toBeInstanceOf(OpgateError);
  expect((raised as OpgateError).code).toBe(code);
  watched.forEach((t, i) => {
    const now = stateOf(t);
    expect(now.storage === before[i].storage, `tensor ${i} keeps its storage`).toBe(true);
    expect({ ...now, storage: null }, `tensor ${i}`).toEqual({ ...before[i], storage: null });
  });
}

const i32 = (v: number[]) => tensor(v, { dtype: 'int32' });
const i64 = (v: number[]) => tensor(v, { dtype: 'int64' });

const DIVISIONS: [string, string, Record<string, unknown>][] = [
  ['remainder', 'remainder_', {}],
  ['fmod', 'fmod_', {}],
  ['div trunc', 'div_', { rounding_mode: 'trunc' }],
  ['div floor', 'div_', { rounding_mode: 'floor' }],
];

describe('integer division by zero writes nothing', () => {
  test('a.remainder_(b) with a zero in b leaves a (values and version) unchanged', () => {
    const a = i32([5, 6, 7]);
    const b = i32([2, 0, 3]);
    expectRaisesUntouched('E_ZERO_DIVISION', [a, b], () =>
      (a as unknown as { remainder_: (o: Tensor) => Tensor }).remainder_(b),
    );
    expect(a.tolist()).toEqual([5, 6, 7]);
  });

  for (const [name, inplace, kwargs] of DIVISIONS) {
    for (const [dtype, make] of [
      ['int32', i32],
      ['int64', i64],
    ] as const) {
      test(`${name} ${dtype}: in-place and out= (right shape, and one needing a resize)`, () => {
        const op = inplace.slice(0, -1);
        const a = make([5, 6, 7, 8]);
        const b = make([2, 3, 0, 3]);
        expectRaisesUntouched('E_ZERO_DIVISION', [a, b], () => callOp(inplace, [a, b], kwargs));
        const out = make([9, 9, 9, 9]);
        expectRaisesUntouched('E_ZERO_DIVISION', [a, b, out], () => callOp(op, [a, b], { ...kwargs, out }));
        const small = make([1]);
        expectRaisesUntouched('E_ZERO_DIVISION', [small], () =>
          callOp(op, [a, b], { ...kwargs, out: small }),
        );
      });
    }
  }

  test('a zero anywhere in a strided or broadcast divisor, and a Python int that wraps to 0', () => {
    const a = tensor(
      [
        [1, 2, 3],
        [4, 5, 6],
      ],
      { dtype: 'int16' },
    );
    const bT = tensor(
      [
        [1, 2],
        [3, 4],
        [0, 5],
      ],
      { dtype: 'int16' },
    ).transpose(0, 1);
    expectRaisesUntouched('E_ZERO_DIVISION', [a], () => callOp('remainder_', [a, bT]));
    expectRaisesUntouched('E_ZERO_DIVISION', [a], () => callOp('fmod_', [a, i32([1, 1, 0]).to('int16')]));
    const u = tensor([5, 6], { dtype: 'uint8' });
    expectRaisesUntouched('E_ZERO_DIVISION', [u], () => callOp('remainder_', [u, 256]));
  });

  test('successful divisions still write and bump the version; nothing to compute raises nothing', () => {
    const a = i32([5, -6, 7]);
    const v = a.version;
    callOp('remainder_', [a, i32([2, 4, -3])]);
    expect(a.tolist()).toEqual([1, 2, -2]);
    expect(a.version).toBeGreaterThan(v);
    const empty = callOp('remainder', [i32([]).reshape([0, 3]), i32([0, 0, 0])]) as Tensor;
    expect(empty.shape).toEqual([0, 3]);
    expect((callOp('div', [tensor([1.5]), 0]) as Tensor).tolist()).toEqual([Number.POSITIVE_INFINITY]);
  });
});

describe('index ops with an out-of-range index write nothing', () => {
  const src = () => tensor([[7, 8, 9]], { dtype: 'float32' });
  const badIndex = () => i64([0, 2, 7]).reshape([1, 3]);

  test('scatter_ / scatter(out=) (src, value and reduce overloads)', () => {
    for (const kwargs of [{}, { reduce: 'add' }]) {
      const s = tensor([[1, 2, 3, 4, 5, 6]], { dtype: 'float32' });
      const [idx, from] = [badIndex(), src()];
      expectRaisesUntouched('E_INDEX_OUT_OF_RANGE', [s, idx, from], () =>
        callOp('scatter_', [s, 1, idx.clone(), from], kwargs),
      );
      expectRaisesUntouched('E_INDEX_OUT_OF_RANGE', [s], () => callOp('scatter_', [s, 1, idx, 2.5], kwargs));
      const out = tensor([[0, 0, 0, 0, 0, 0]], { dtype: 'float32' });
      expectRaisesUntouched('E_INDEX_OUT_OF_RANGE', [s, out], () =>
        callOp('scatter', [s, 1, idx, from], { ...kwargs, out }),
      );
    }
  });

  test('scatter(out=) with a value that does not fit the dtype leaves out (it used to get self first)', () => {
    const s = tensor([1, 2, 3], { dtype: 'int8' });
    const out = tensor([0, 0, 0], { dtype: 'int8' });
    expectRaisesUntouched('E_INVALID_ARGUMENT', [s, out], () =>
      callOp('scatter', [s, 0, i64([0]), 300], { out }),
    );
  });

  test('gather(out=) and index_select(out=) neither write nor resize out', () => {
    const x = tensor(
      [
        [1, 2, 3],
        [4, 5, 6],
      ],
      { dtype: 'float32' },
    );
    const out = tensor(
      [
        [0, 0, 0],
        [0, 0, 0],
      ],
      { dtype: 'float32' },
    );
    const idx = i64([0, 1, 3, 0]).reshape([2, 2]);
    expectRaisesUntouched('E_INDEX_OUT_OF_RANGE', [x, out], () => callOp('gather', [x, 1, idx], { out }));
    const same = tensor(
      [
        [0, 0],
        [0, 0],
      ],
      { dtype: 'float32' },
    );
    expectRaisesUntouched('E_INDEX_OUT_OF_RANGE', [same], () => callOp('gather', [x, 1, idx], { out: same }));
    expectRaisesUntouched('E_INDEX_OUT_OF_RANGE', [out], () =>
      callOp('index_select', [x, 0, i64([1, 2])], { out }),
    );
  });
});

test('an out= kernel refusing a dtype (mm on bool) does not resize out first', () => {
  const a = tensor([[true, false]], { dtype: 'bool' });
  const out = tensor([true, true, true], { dtype: 'bool' });
  expectRaisesUntouched('E_DTYPE_UNSUPPORTED', [out], () => callOp('mm', [a, a.transpose(0, 1)], { out }));
});

describe('the errors oracle catches writes before a raise', () => {
  const instance = () => matrixInstance('remainder', 'errors', 'uint8', 'contiguous');
  const swap = (qualified: string, make: (real: Kernel) => Kernel) => swapKernel(qualified, make);

  test('an in-place kernel that writes each element as it goes, raising at the zero', async () => {
    expect((await runOracle(instance())).checks).toBeGreaterThan(0);
    swap('remainder_.Tensor', (real) => (ks, args, op) => {
      const self = args.self as Tensor;
      const other = args.other as Tensor;
      if (self.dtype !== 'int32' || other.dtype !== 'int32') return real(ks, args, op);
      const a = self.storage.data as Int32Array;
      const b = other.storage.data as Int32Array;
      for (let i = 0; i < self.numel; i++) {
        if (b[i] === 0) return real(ks, args, op); // the real kernel raises E_ZERO_DIVISION
        a[i] = ((a[i] % b[i]) + b[i]) % b[i];
      }
      return real(ks, args, op);
    });
    const f = await oracleFailure(() => runOracle(instance()));
    expect(f.message).toMatch(
      /integer zero divisor\).*in-place variant raised E_ZERO_DIVISION but changed input: storage bytes were written/,
    );
  });

  test('an out= kernel that resizes out before it raises', async () => {
    swap('remainder.Tensor_out', (real) => (ks, args, op) => {
      const out = args.out as Tensor;
      out.setStrided(out.storage, [1], [1], 0);
      return real(ks, args, op);
    });
    const f = await oracleFailure(() => runOracle(instance()));
    expect(f.message).toMatch(/out= variant raised E_SHAPE_MISMATCH but changed out: resized from \[3, 4\]/);
  });

  test('an in-place kernel that bumps the version counter before it raises', async () => {
    swap('remainder_.Tensor', (real) => (ks, args, op) => {
      (args.self as Tensor).bumpVersion();
      return real(ks, args, op);
    });
    const f = await oracleFailure(() => runOracle(instance()));
    expect(f.message).toMatch(
      /in-place variant raised E_SHAPE_MISMATCH but changed input: version counter bumped/,
    );
  });
});
