/**
 * The golden oracle catches what a hand-written reference cannot: a kernel and its reference that misread PyTorch
 * the same way. The injected bug is the one found late in this project's history: pow(1, NaN) = NaN (C's pow and
 * PyTorch give 1). With both changed, the reference oracle passes and the golden oracle, replaying the result
 * recorded from PyTorch 1.13, fails on that sample.
 */
import { describe, expect, test } from 'vitest';
import { fromRuntime, type OpInfo, type RefSample, type RefTensor, refTensor } from '../../op_db/index.ts';
import { recordCommand, runGolden, runOracle, runReference } from '../../src/oracles/index.ts';
import {
  callOp,
  DispatchKey,
  type Kernel,
  operatorTable,
  type Tensor,
  tensor,
} from '../../src/runtime/index.ts';
import { matrixInstance, oracleFailure, swapKernel } from './inject_helpers.ts';

const isOneToTheNaN = (base: number, exponent: number) => base === 1 && Number.isNaN(exponent);

/** pow's CPU kernels (function, in-place, out=), wrong the JS way: 1 ** NaN is NaN. */
const jsPow =
  (real: Kernel): Kernel =>
  (ks, args, op) => {
    // Read the operands first: the in-place form writes its result over self.
    const base = fromRuntime(args.self as Tensor).re;
    const exponent = fromRuntime(args.exponent as Tensor).re;
    const out = real(ks, args, op) as Tensor;
    const data = out.storage.data as Float64Array;
    if (out.dtype !== 'float64' || base.length !== out.numel || exponent.length !== out.numel) return out;
    for (let i = 0; i < base.length; i++)
      if (isOneToTheNaN(base[i], exponent[i])) data[out.storageOffset + i] = Number.NaN;
    return out;
  };

/** pow's reference, wrong the same way. */
function jsPowReference(info: OpInfo): OpInfo {
  const ref = (s: RefSample): RefTensor => {
    const r = info.ref!(s) as RefTensor;
    const base = s.input.re;
    const exponent = s.args[0] as RefTensor | number as RefTensor;
    if (typeof exponent !== 'object' || base.length !== r.re.length || exponent.re.length !== r.re.length)
      return r;
    const re = Float64Array.from(r.re, (v, i) => (isOneToTheNaN(base[i], exponent.re[i]) ? Number.NaN : v));
    return refTensor(r.shape, r.dtype, re);
  };
  return { ...info, ref };
}

describe('the golden oracle against a shared misreading of PyTorch', () => {
  test('PyTorch 1.13 itself gives pow(1, NaN) = 1, and both oracles pass the real kernel', async () => {
    const one = tensor([1], { dtype: 'float64' });
    const nan = tensor([Number.NaN], { dtype: 'float64' });
    expect(fromRuntime(callOp('pow', [one, nan]) as Tensor).re[0]).toBe(1);
    const golden = matrixInstance('pow', 'golden', 'float64', 'contiguous');
    const reference = matrixInstance('pow', 'reference', 'float64', 'contiguous');
    expect((await runOracle(golden)).checks).toBeGreaterThan(0);
    expect((await runOracle(reference)).checks).toBeGreaterThan(0);
  });

  test('kernel and reference both give pow(1, NaN) = NaN: the reference oracle passes, the golden oracle fails', async () => {
    for (const overload of ['pow.Tensor_Tensor', 'pow_.Tensor', 'pow.Tensor_Tensor_out'])
      swapKernel(overload, jsPow);
    const reference = matrixInstance('pow', 'reference', 'float64', 'contiguous');
    const golden = matrixInstance('pow', 'golden', 'float64', 'contiguous');
    const wrongRef = jsPowReference(reference.info);
    // The injected kernel really is wrong, and the wrong reference agrees with it.
    const one = tensor([1], { dtype: 'float64' });
    const nan = tensor([Number.NaN], { dtype: 'float64' });
    expect(fromRuntime(callOp('pow', [one, nan]) as Tensor).re[0]).toBeNaN();
    expect((await runReference({ ...reference, info: wrongRef })).checks).toBeGreaterThan(0);
    const f = await oracleFailure(() => runGolden({ ...golden, info: wrongRef }));
    expect(f.message).toMatch(/special values/);
    expect(f.message).toMatch(/elements differ from PyTorch; first at index \d+ \(re\): got NaN, PyTorch 1/);
    expect(f.message).toMatch(
      /repro: npx opgate repro test_golden_pow_cpu_float64_contiguous_eager --sample \d+/,
    );
  });

  test('the numerics fingerprint sees an error the tolerance lets pass: exp 3 ulps off raises max ulp to >= 3', async () => {
    const inst = matrixInstance('exp', 'golden', 'float32', 'contiguous');
    const before = (await runGolden(inst)).maxUlp!;
    expect(before).toBeLessThan(3);
    swapKernel('exp', (real) => (ks, args, op) => {
      const out = real(ks, args, op) as Tensor;
      const bits = new Uint32Array((out.storage.data as Float32Array).buffer);
      for (let i = 0; i < bits.length; i++)
        if ((bits[i] & 0x7f800000) !== 0x7f800000 && bits[i] !== 0) bits[i] += 3;
      return out;
    });
    const after = await runGolden(inst);
    expect(after.checks).toBeGreaterThan(0);
    expect(after.maxUlp!).toBeGreaterThanOrEqual(3);
  });

  test("batch_norm's running statistics are compared with PyTorch's after the call (a wrong momentum fails)", async () => {
    const inst = matrixInstance('nn.functional.batch_norm', 'golden', 'float64', 'contiguous');
    expect((await runGolden(inst)).checks).toBeGreaterThan(0);
    // In training the output does not depend on momentum: only the in-place update of the statistics does.
    const wrongMomentum =
      (real: Kernel): Kernel =>
      (ks, args, op) =>
        real(ks, { ...args, momentum: (args.momentum as number) * 2 }, op);
    // The decomposition runs as batch_norm's Autograd kernel (and as its composite below autograd).
    swapKernel('batch_norm', wrongMomentum, DispatchKey.Autograd);
    const entry = operatorTable.get('batch_norm');
    const real = entry.composite!;
    entry.composite = wrongMomentum(real);
    try {
      const f = await oracleFailure(() => runGolden(inst));
      expect(f.message).toMatch(/input storage \d+ after the call \(float64\): \d+\/\d+ elements differ/);
    } finally {
      entry.composite = real;
    }
  });

  test('a sample that changed since recording is stale: it fails with the command that refreshes it', async () => {
    const golden = matrixInstance('pow', 'golden', 'float64', 'contiguous');
    // The first sample with its input shifted by one: values PyTorch was never asked about.
    const changed: OpInfo = {
      ...golden.info,
      sampleInputs: (ctx) =>
        golden.info
          .sampleInputs(ctx)
          .slice(0, 1)
          .map((s) => ({ ...s, input: callOp('add', [s.input, 1]) as Tensor })),
    };
    const f = await oracleFailure(() => runGolden({ ...golden, info: changed }));
    expect(f.message).toMatch(/stale golden: this sample \(fingerprint [0-9a-f]{20}\)/);
    expect(f.message).toContain(recordCommand('pow'));
  });
});
