/**
 * Oracle 1, reference: the op's output (function variant) against the OpInfo's float64 reference on the same
 * inputs, with per-dtype tolerances; then variant consistency: method, in-place and out= give the function's
 * result (PyTorch's test_numpy_ref + test_variant_consistency_eager + test_out). On webgpu the samples are made
 * on cpu, moved with their layouts, and the outputs read back before comparing.
 */

import { fromRuntime, type RefTensor, type SampleInput } from '../../op_db/index.ts';
import { compareValues } from './compare.ts';
import { noteSkipped } from './crossbackend.ts';
import { describeError, type Instance, OracleFailure, type OracleResult, sampleContext } from './instance.ts';
import { callOp, canCast, sameShapeOf, Tensor } from './runtime_face.ts';
import { callOnDevice, onDevice, onHost, outputsOf, refSampleFor, reseed, withLayout } from './sample_io.ts';
import { toleranceFor } from './tolerances.ts';

function fmtShape(s: readonly number[]): string {
  return `[${s.join(', ')}]`;
}

function checkOutputs(
  inst: Instance,
  k: number,
  s: SampleInput,
  actual: Tensor[],
  expected: readonly RefTensor[],
  what: string,
): void {
  if (actual.length !== expected.length) {
    throw new OracleFailure(
      inst,
      k,
      s.name,
      `${what}: ${actual.length} outputs, reference has ${expected.length}`,
    );
  }
  actual.forEach((t, j) => {
    const e = expected[j];
    if (!sameShapeOf(t.shape, e.shape)) {
      throw new OracleFailure(
        inst,
        k,
        s.name,
        `${what} output ${j}: shape ${fmtShape(t.shape)} != reference ${fmtShape(e.shape)}`,
      );
    }
    const tol = toleranceFor(t.dtype, inst.info.tolerances, inst.device);
    // exactRounding is a claim about the cpu kernels (float64 math rounded once); GPUs compute in float32.
    const exact = inst.info.flags.exactRounding && inst.device === 'cpu';
    const m = compareValues(fromRuntime(t), e, t.dtype, tol, exact);
    if (m) {
      throw new OracleFailure(
        inst,
        k,
        s.name,
        `${what} output ${j} (${t.dtype}): ${m.count}/${m.total} elements differ; first at index ${m.index} (${m.part}): got ${m.actual}, expected ${m.expected} (rtol ${tol.rtol}, atol ${tol.atol})`,
      );
    }
  });
}

function call(
  inst: Instance,
  k: number,
  s: SampleInput,
  name: string,
  args: unknown[],
  kwargs: Record<string, unknown>,
): unknown {
  try {
    reseed(inst.info, kwargs);
    return callOp(name, args, kwargs);
  } catch (e) {
    throw new OracleFailure(inst, k, s.name, `${name} raised ${describeError(e)}`);
  }
}

export async function runReference(inst: Instance, only?: number): Promise<OracleResult> {
  const { info } = inst;
  if (!info.ref) throw new OracleFailure(inst, null, undefined, `OpInfo ${info.name} has no reference`);
  const samples = info.sampleInputs(sampleContext(inst));
  const dev = (s: SampleInput) => onDevice(s, inst.device);
  let checks = 0;
  let skipped = 0;
  let ranCount = 0;
  for (const [k, s0] of samples.entries()) {
    if (only !== undefined && k !== only) continue;
    const sCpu = withLayout(s0, inst.layout);
    const ran = callOnDevice(inst, k, sCpu, inst.device, info.op);
    if (!ran) {
      skipped++;
      continue;
    }
    const s = ran.s;
    ranCount++;
    const result = await onHost(ran.out);
    if (info.resultDType && result.length === 1) {
      const want = info.resultDType(sCpu);
      if (result[0].dtype !== want)
        throw new OracleFailure(inst, k, s.name, `result dtype ${result[0].dtype}, PyTorch gives ${want}`);
    }
    if (info.flags.nondeterministicValues) continue;
    const ref = info.ref!(refSampleFor(info, sCpu, result[0]?.dtype));
    const expected = Array.isArray(ref) ? (ref as RefTensor[]) : [ref as RefTensor];
    checkOutputs(inst, k, s, result, expected, 'function');
    checks++;
    const asRef = result.map(fromRuntime);
    if (info.variants.method) {
      const method = (s.input as unknown as Record<string, unknown>)[info.op];
      if (typeof method !== 'function')
        throw new OracleFailure(inst, k, s.name, `Tensor has no method '${info.op}'`);
      let m: Tensor[];
      try {
        m = outputsOf(method.call(s.input, ...s.args, { ...s.kwargs }));
      } catch (e) {
        throw new OracleFailure(inst, k, s.name, `method ${info.op} raised ${describeError(e)}`);
      }
      checkOutputs(inst, k, s, await onHost(m), asRef, 'method');
      checks++;
    }
    const single = result.length === 1 ? result[0] : null;
    const input = s.input instanceof Tensor ? s.input : null;
    // A writable copy of the input on the device (never the sample's own input, which later variants still
    // read); the expanded layout changed the input's values, so it gets a dense copy of exactly those values.
    const writableInput = (): Tensor => {
      const fresh = callOp('clone', [s0.input]) as Tensor;
      return dev({
        ...s0,
        input:
          inst.layout === 'expanded'
            ? (callOp('clone', [sCpu.input]) as Tensor)
            : withLayout({ ...s0, input: fresh, args: [], kwargs: {} }, inst.layout, true).input,
        args: [],
        kwargs: {},
      }).input as Tensor;
    };
    const shapedLikeInput = single && input && !s.broadcastsInput && sameShapeOf(single.shape, input.shape);
    const inplaceForm = info.variants.inplace && (info.inplaceApplies?.(s) ?? true);
    if (inplaceForm && shapedLikeInput && canCast(single.dtype, input.dtype)) {
      const target = writableInput();
      const version = target.version;
      const r = call(inst, k, s, `${info.op}_`, [target, ...s.args], { ...s.kwargs }) as Tensor;
      if (r !== target) throw new OracleFailure(inst, k, s.name, 'in-place variant did not return its input');
      // Autograd's saved-tensor checks rely on every in-place op bumping the version counter.
      if (r.version <= version)
        throw new OracleFailure(
          inst,
          k,
          s.name,
          `in-place variant did not bump the version counter (still ${r.version})`,
        );
      if (single.dtype === target.dtype) checkOutputs(inst, k, s, await onHost([r]), asRef, 'in-place');
      checks++;
    }
    const outForm = info.variants.out && (info.outApplies?.(s) ?? true);
    if (outForm && single) {
      const out = callOp('empty', [[0]], { dtype: single.dtype, device: inst.device }) as Tensor;
      const outVersion = out.version;
      const r = call(inst, k, s, info.op, [s.input, ...s.args], { ...s.kwargs, out }) as Tensor;
      if (r !== out) throw new OracleFailure(inst, k, s.name, 'out= variant did not return `out`');
      if (r.version <= outVersion)
        throw new OracleFailure(inst, k, s.name, 'out= variant did not bump the version counter');
      checkOutputs(inst, k, s, await onHost([r]), asRef, 'out=');
      checks++;
    }
    // out= aliasing the input (`op(x, out=x)`): a kernel must not read what it already wrote.
    if (outForm && shapedLikeInput && single.dtype === input.dtype) {
      const target = writableInput();
      const r = call(inst, k, s, info.op, [target, ...s.args], { ...s.kwargs, out: target }) as Tensor;
      if (r !== target) throw new OracleFailure(inst, k, s.name, 'out= variant did not return `out`');
      checkOutputs(inst, k, s, await onHost([r]), asRef, 'out= aliasing the input');
      checks++;
    }
  }
  return noteSkipped(inst, checks, skipped, ranCount);
}
