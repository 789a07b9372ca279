/**
 * The oracles must catch wrong kernels: each test injects a bug through the dispatcher (replacing the CPU
 * kernel of one overload), asserts the matching oracle fails with a message naming the sample, seed and repro
 * command, and restores the real kernel (the same instance passes before and after).
 */
import { describe, expect, test } from 'vitest';
import { findOpInfo, fromRuntime, type Layout, type Oracle } from '../../op_db/index.ts';
import { compareValues, type OracleFailure, runOracle, toleranceFor } from '../../src/oracles/index.ts';
import { callOp, type Kernel, operatorTable, outAliasing, Tensor, tensor } from '../../src/runtime/index.ts';
import { matrixInstance, oracleFailure, swapKernel } from './inject_helpers.ts';

const inject = (qualified: string, make: (real: Kernel) => Kernel) => swapKernel(qualified, make);
const instance = (op: string, oracle: Oracle, dtype: string, layout: Layout) =>
  matrixInstance(op, oracle, dtype, layout);

async function expectFailure(run: () => unknown, pattern: RegExp): Promise<OracleFailure> {
  const f = await oracleFailure(run);
  expect(f.message).toMatch(pattern);
  expect(f.message).toMatch(/repro: npx opgate repro test_\w+/);
  expect(f.message).toMatch(/seed \d+/);
  return f;
}

/** An add kernel that reads both inputs as if they were contiguous (ignores strides and broadcasting). */
const stridesIgnored: Kernel = (_ks, args) => {
  const a = args.self as Tensor;
  const b = args.other as Tensor;
  const shape = a.numel >= b.numel ? a.shape : b.shape;
  const out = callOp('empty', [shape], { dtype: a.dtype }) as Tensor;
  const A = a.storage.data as Float32Array;
  const B = b.storage.data as Float32Array;
  const O = out.storage.data as Float32Array;
  for (let i = 0; i < out.numel; i++)
    O[i] = A[a.storageOffset + (a.numel === 1 ? 0 : i)] + B[b.storageOffset + (b.numel === 1 ? 0 : i)];
  return out;
};

describe('injected bugs are caught', () => {
  test('an alias that reaches another op, an alias method that does, or an inplace=True that is not in place fails the reference oracle', async () => {
    const neg = instance('neg', 'reference', 'float32', 'contiguous');
    expect((await runOracle(neg)).checks).toBeGreaterThan(0);
    operatorTable.alias('negative', 'abs');
    try {
      await expectFailure(() => runOracle(neg), /alias negative/);
    } finally {
      operatorTable.alias('negative', 'neg');
    }
    const trunc = instance('trunc', 'reference', 'float32', 'contiguous');
    const proto = Tensor.prototype as unknown as Record<string, unknown>;
    const fix = proto.fix;
    proto.fix = function (this: Tensor) {
      return callOp('floor', [this]);
    };
    try {
      await expectFailure(() => runOracle(trunc), /alias method fix/);
    } finally {
      proto.fix = fix;
    }
    const relu = instance('nn.functional.relu', 'reference', 'float32', 'contiguous');
    const route = operatorTable.routeInplace;
    // inplace=True routed to the out-of-place op (relu, not relu_).
    operatorTable.routeInplace = (name, kwargs) => {
      const [to, rest] = route.call(operatorTable, name, kwargs);
      return [to.replace(/_$/, ''), rest];
    };
    try {
      await expectFailure(() => runOracle(relu), /inplace=True variant did not return its input/);
    } finally {
      operatorTable.routeInplace = route;
    }
    for (const inst of [neg, trunc, relu]) expect((await runOracle(inst)).checks).toBeGreaterThan(0);
  });

  test("a sort that keeps equal values in input order (not std::sort's) fails the golden and reference oracles on the ties samples", async () => {
    const insts = (['golden', 'reference'] as const).map((o) => instance('sort', o, 'float32', 'contiguous'));
    for (const inst of insts) expect((await runOracle(inst)).checks).toBeGreaterThan(0);
    inject('sort', (real) => (ks, args, op) => real(ks, { ...args, stable: true }, op));
    for (const inst of insts) await expectFailure(() => runOracle(inst), /ties, 40 \(std::sort\)/);
  });

  test('softmax without the max subtraction fails the reference oracle on the large-logits sample', async () => {
    const inst = instance('softmax', 'reference', 'float64', 'contiguous');
    expect((await runOracle(inst)).checks).toBeGreaterThan(0);
    // exp(x) / sum(exp(x)) on finite inputs (inf and NaN lines keep the real kernel): right for every small
    // logit, inf / inf = NaN once exp overflows (exp(1000)).
    inject('softmax.int', (real) => (ks, args, op) => {
      const finite = callOp('all', [callOp('isfinite', [args.self])]) as Tensor;
      if (!finite.item()) return real(ks, args, op);
      const x = args.dtype ? callOp('to', [args.self, args.dtype]) : args.self;
      const e = callOp('exp', [x]) as Tensor;
      return callOp('div', [e, callOp('sum', [e, [args.dim as number], true])]);
    });
    const f = await expectFailure(() => runOracle(inst), /elements differ/);
    expect(f.message).toMatch(/large finite logits/);
  });

  test('a CPU kernel that ignores strides fails the reference oracle on non-contiguous layouts', async () => {
    const transposed = instance('add', 'reference', 'float32', 'transposed');
    const strided = instance('add', 'reference', 'float32', 'strided');
    expect((await runOracle(transposed)).checks).toBeGreaterThan(0);
    inject('add.Tensor', () => stridesIgnored);
    const f = await expectFailure(
      () => runOracle(transposed),
      /function output 0 \(float32\): \d+\/\d+ elements differ/,
    );
    expect(f.sample).not.toBeNull();
    await expectFailure(() => runOracle(strided), /elements differ/);
  });

  test('an off-by-one-ulp float16 rounding fails the reference oracle (exact rounding), though PyTorch tolerances miss it', async () => {
    const inst = instance('add', 'reference', 'float16', 'contiguous');
    inject('add.Tensor', (real) => (ks, args, op) => {
      const out = real(ks, args, op) as Tensor;
      if (out.dtype === 'float16') {
        const bits = out.storage.data as Uint16Array;
        for (let i = 0; i < bits.length; i++)
          if ((bits[i] & 0x7c00) !== 0x7c00 && (bits[i] & 0x7fff) !== 0) bits[i] += 1;
      }
      return out;
    });
    // PyTorch's float16 tolerance (rtol 1e-3) is wider than one ulp: a plain tolerance comparison passes.
    const a = tensor([1.5, 2.25, 3], { dtype: 'float16' });
    const sum = callOp('add', [a, a]) as Tensor;
    const exact = fromRuntime(callOp('add', [a.to('float64'), a.to('float64')]) as Tensor);
    expect(compareValues(fromRuntime(sum), exact, 'float16', toleranceFor('float16'))).toBeNull();
    expect(compareValues(fromRuntime(sum), exact, 'float16', toleranceFor('float16'), true)).not.toBeNull();
    await expectFailure(() => runOracle(inst), /float16\): \d+\/\d+ elements differ/);
  });

  test('a wrong promotion fails the reference oracle (dtype from PyTorch tables) and the metadata oracle', async () => {
    const ref = instance('mul', 'reference', 'float16', 'contiguous');
    const meta = instance('mul', 'metadata', 'float16', 'contiguous');
    expect((await runOracle(meta)).checks).toBeGreaterThan(0);
    // A missing downcast: float16 products come back as float32.
    inject('mul.Tensor', (real) => (ks, args, op) => {
      const out = real(ks, args, op) as Tensor;
      return out.dtype === 'float16' ? (callOp('to', [out, 'float32']) as Tensor) : out;
    });
    await expectFailure(() => runOracle(ref), /result dtype float32, PyTorch gives float16/);
    await expectFailure(() => runOracle(meta), /dtype float16 vs cpu float32/);
  });

  test('a kernel that writes into its input fails the metadata oracle (mutation check)', async () => {
    const inst = instance('exp', 'metadata', 'float32', 'contiguous');
    inject('exp', (real) => (ks, args, op) => {
      const out = real(ks, args, op) as Tensor;
      const self = args.self as Tensor;
      if (self.numel > 0) callOp('fill_', [self, 0]);
      return out;
    });
    await expectFailure(
      () => runOracle(inst),
      /input 0 was modified but the schema does not mark it mutable/,
    );
  });

  test('an op that accepts an unclaimed dtype fails the dtypes oracle ("works but not claimed")', async () => {
    const inst = instance('bitwise_and', 'dtypes', 'float32', 'contiguous');
    expect((await runOracle(inst)).checks).toBeGreaterThan(0);
    inject('bitwise_and.Tensor', (real) => (ks, args, op) => {
      const a = args.self as Tensor;
      if (a.dtype === 'float32') return callOp('add', [a, args.other as Tensor]);
      return real(ks, args, op);
    });
    await expectFailure(() => runOracle(inst), /works but not claimed/);
  });

  test('a slightly wrong float32 transcendental fails the reference and property oracles', async () => {
    inject('exp', (real) => (ks, args, op) => {
      const out = real(ks, args, op) as Tensor;
      return out.dtype === 'float32' ? (callOp('mul', [out, 1.0001]) as Tensor) : out;
    });
    await expectFailure(
      () => runOracle(instance('exp', 'reference', 'float32', 'offset')),
      /elements differ/,
    );
    await expectFailure(
      () => runOracle(instance('exp', 'property', 'float32', 'contiguous')),
      /property failed .* shrunk \d+ times \(fast-check seed -?\d+, path/,
    );
  });

  test('a wrong maximum.out / minimum.out / mean.out kernel fails the reference oracle (out= is checked wherever the table has it)', async () => {
    // maximum/minimum have no in-place variant; op_db reads from the table that their out= overloads exist.
    // mean.out exists for the dim overload only: the samples with a dim still check it.
    for (const op of ['maximum', 'minimum', 'mean']) {
      expect(findOpInfo(op)?.variants).toMatchObject({ inplace: false, out: true });
      const inst = instance(op, 'reference', 'float32', 'contiguous');
      expect((await runOracle(inst)).checks).toBeGreaterThan(0);
      inject(`${op}.out`, (real) => (ks, args, entry) => {
        const out = real(ks, args, entry) as Tensor;
        callOp('add_', [out, 1]);
        return out;
      });
      await expectFailure(() => runOracle(inst), /out= output 0 \(float32\): \d+\/\d+ elements differ/);
    }
  });

  test('kernels that read their own output when out= aliases the input fail the reference oracle', async () => {
    // flip reads element n-1-i after writing element i; roll reads i-shift after writing i.
    const flip = instance('flip', 'reference', 'float32', 'contiguous');
    const roll = instance('roll', 'reference', 'float32', 'transposed');
    expect((await runOracle(flip)).checks).toBeGreaterThan(0);
    expect((await runOracle(roll)).checks).toBeGreaterThan(0);
    outAliasing.writeThrough = false;
    try {
      await expectFailure(() => runOracle(flip), /out= aliasing the input/);
      await expectFailure(() => runOracle(roll), /out= aliasing the input/);
    } finally {
      outAliasing.writeThrough = true;
    }
    expect((await runOracle(flip)).checks).toBeGreaterThan(0);
  });
});
