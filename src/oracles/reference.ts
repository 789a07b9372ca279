/**
 * Oracle 1, reference: the op's output (function variant) against the OpInfo's float64 reference on the same
 * inputs, with per-dtype tolerances; then variant consistency: method, in-place and out= give the function's
 * result (PyTorch's test_numpy_ref + test_variant_consistency_eager + test_out). On webgpu the samples are made
 * on cpu, moved with their layouts, and the outputs read back before comparing.
 */

import {
  fromRuntime,
  hashString,
  LAYOUTS,
  type Layout,
  type RefTensor,
  ruleMatches,
  type SampleInput,
} from '../../op_db/index.ts';
import { compareValues } from './compare.ts';
import { noteSkipped } from './crossbackend.ts';
import { ToleranceUse, unearnedTolerance } from './earned.ts';
import {
  describeError,
  type Instance,
  instanceId,
  OracleFailure,
  type OracleResult,
  sampleContext,
} from './instance.ts';
import { guardedOuts, outArgNames } from './out_guard.ts';
import { callOp, canCast, type DType, operatorTable, sameShapeOf, Tensor } from './runtime_face.ts';
import { callOnDevice, onDevice, onHost, outputsOf, refSampleFor, reseed, withLayout } from './sample_io.ts';
import { DEFAULT_TOLERANCES, floorCalibrationFailure, toleranceFor } from './tolerances.ts';

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

/** The OpInfo's function output(s) on a sample against its reference (shared by the oracle and calibration). */
async function functionOutputs(inst: Instance, k: number, sCpu: SampleInput) {
  const ran = callOnDevice(inst, k, sCpu, inst.device, inst.info.op);
  if (!ran) return null;
  const result = await onHost(ran.out);
  if (inst.info.flags.nondeterministicValues) return { ran, result, expected: null };
  const ref = inst.info.ref!(refSampleFor(inst.info, sCpu, result[0]?.dtype));
  return { ran, result, expected: Array.isArray(ref) ? (ref as RefTensor[]) : [ref as RefTensor] };
}

const overrideUses = new Map<string, Promise<Map<DType, ToleranceUse>>>();

/**
 * How much of each tolerance override the op's cpu reference instances use, by output dtype (an override keyed
 * float32 also serves uint8 inputs with float32 results): every claimed dtype × layout the matrix runs (not those
 * a skip or xfail rule takes out: their errors are not what the override is for), on the samples each of those
 * instances draws (its seed), function form only. All instances of an op judge its overrides by this same
 * evidence, so an override is earned exactly when the matrix needs it (memoized per process).
 */
function matrixUses(inst: Instance): Promise<Map<DType, ToleranceUse>> {
  const { info } = inst;
  const key = `${info.name} ${JSON.stringify(info.tolerances)}`;
  let uses = overrideUses.get(key);
  if (!uses) {
    uses = (async () => {
      const byDType = new Map<DType, ToleranceUse>();
      const ruledOut = (dtype: DType, layout: Layout) =>
        info.skips.some((r) =>
          ruleMatches(r, { oracle: 'reference', device: 'cpu', dtype, layout, mode: 'eager' }),
        );
      for (const dtype of info.dtypes.cpu)
        for (const layout of LAYOUTS) {
          if (ruledOut(dtype, layout)) continue;
          const seed = hashString(instanceId('reference', info.name, 'cpu', dtype, layout, 'eager'));
          const c: Instance = { ...inst, device: 'cpu', dtype, layout, seed };
          for (const [k, s] of info.sampleInputs(sampleContext(c)).entries()) {
            const r = await functionOutputs(c, k, withLayout(s, layout)).catch(() => null);
            r?.expected?.forEach((e, j) => {
              const t = r.result[j];
              const tol = t && info.tolerances[t.dtype] && toleranceFor(t.dtype, info.tolerances, 'cpu');
              if (!tol || !sameShapeOf(t.shape, e.shape)) return;
              const u = byDType.get(t.dtype) ?? new ToleranceUse();
              byDType.set(t.dtype, u);
              u.add(fromRuntime(t), e, t.dtype, tol);
            });
          }
        }
      return byDType;
    })();
    overrideUses.set(key, uses);
  }
  return uses;
}

/** The override must be earned (earned.ts): judged by the cpu instances, on the evidence of all of them. */
async function checkOverrideEarned(inst: Instance): Promise<void> {
  const declared = inst.info.tolerances[inst.dtype];
  if (!declared || inst.device !== 'cpu') return;
  const why = unearnedTolerance(
    "OpInfo's tolerance override",
    inst.dtype,
    toleranceFor(inst.dtype, inst.info.tolerances, inst.device),
    DEFAULT_TOLERANCES[inst.dtype],
    (await matrixUses(inst)).get(inst.dtype) ?? new ToleranceUse(),
  );
  if (why) throw new OracleFailure(inst, null, undefined, why);
}

/** Why a tensor's elements reach outside its storage (offset + extent past its capacity), or null. */
function outsideStorage(t: Tensor): string | null {
  if (!(t instanceof Tensor) || t.numel === 0 || t.device === 'meta') return null;
  let lo = t.storageOffset;
  let hi = t.storageOffset;
  t.shape.forEach((n, d) => {
    const step = (n - 1) * t.strides[d];
    if (step < 0) lo += step;
    else hi += step;
  });
  if (lo >= 0 && hi < t.storage.numel) return null;
  return `elements at storage indices [${lo}, ${hi}] lie outside its storage of ${t.storage.numel} elements`;
}

/** A plain (not namespaced) alias of an op that is a Tensor method is a method too (`t.negative()`). */
export function aliasMethod(info: Instance['info'], alias: string): boolean {
  return info.variants.method && !alias.includes('.');
}

/** An nn.functional OpInfo whose op has an in-place overload takes `inplace=True` (the runtime routes it there). */
export function inplaceByKeyword(info: Instance['info']): boolean {
  return (
    info.name.startsWith('nn.functional.') &&
    operatorTable.routeInplace(info.name, { inplace: true })[0] !== info.name
  );
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
  const miscalibrated = floorCalibrationFailure();
  if (miscalibrated) throw new OracleFailure(inst, null, undefined, miscalibrated);
  const samples = info.sampleInputs(sampleContext(inst));
  const dev = (s: SampleInput) => onDevice(s, inst.device);
  let checks = 0;
  let skipped = 0;
  let ranCount = 0;
  for (const [k, s0] of samples.entries()) {
    if (only !== undefined && k !== only) continue;
    const sCpu = withLayout(s0, inst.layout);
    const out = await functionOutputs(inst, k, sCpu);
    if (!out) {
      skipped++;
      continue;
    }
    const { ran, result, expected } = out;
    const s = ran.s;
    ranCount++;
    // Values or not (resize_'s new elements are uninitialized), every output element lies in its storage.
    ran.out.forEach((t, j) => {
      const outside = outsideStorage(t);
      if (outside) throw new OracleFailure(inst, k, s.name, `output ${j}: ${outside}`);
    });
    if (info.resultDType && result.length === 1) {
      const want = info.resultDType(sCpu);
      if (result[0].dtype !== want)
        throw new OracleFailure(inst, k, s.name, `result dtype ${result[0].dtype}, PyTorch gives ${want}`);
    }
    if (!expected) continue;
    if (s.roundingPinned === undefined) {
      checkOutputs(inst, k, s, result, expected, 'function');
      checks++;
    }
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
    // Aliases (PyTorch's OpInfo `aliases`, torch.negative for neg): the alias's function, and its Tensor method
    // where the op is one, give the function's result.
    for (const alias of info.aliases) {
      const r = outputsOf(call(inst, k, s, alias, [s.input, ...s.args], { ...s.kwargs }));
      checkOutputs(inst, k, s, await onHost(r), asRef, `alias ${alias}`);
      checks++;
      const method = aliasMethod(info, alias)
        ? (s.input as unknown as Record<string, unknown>)[alias]
        : undefined;
      if (method === undefined) continue;
      if (typeof method !== 'function')
        throw new OracleFailure(inst, k, s.name, `Tensor has no method '${alias}' (an alias of ${info.op})`);
      let m: Tensor[];
      try {
        m = outputsOf(method.call(s.input, ...s.args, { ...s.kwargs }));
      } catch (e) {
        throw new OracleFailure(inst, k, s.name, `method ${alias} raised ${describeError(e)}`);
      }
      checkOutputs(inst, k, s, await onHost(m), asRef, `alias method ${alias}`);
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
      // The in-place spellings: `op_`, an nn.functional op's `inplace=True` (F.relu(x, inplace=True)), and each
      // plain alias's `alias_` (negative_).
      const forms: [string, string, Record<string, unknown>][] = [['in-place', `${info.op}_`, {}]];
      if (inplaceByKeyword(info)) forms.push(['inplace=True', info.name, { inplace: true }]);
      for (const alias of info.aliases)
        if (aliasMethod(info, alias)) forms.push([`alias ${alias}_`, `${alias}_`, {}]);
      for (const [what, name, extra] of forms) {
        const target = writableInput();
        const version = target.version;
        const r = call(inst, k, s, name, [target, ...s.args], { ...s.kwargs, ...extra }) as Tensor;
        if (r !== target)
          throw new OracleFailure(inst, k, s.name, `${what} variant did not return its input`);
        // Autograd's saved-tensor checks rely on every in-place op bumping the version counter.
        if (r.version <= version)
          throw new OracleFailure(
            inst,
            k,
            s.name,
            `${what} variant did not bump the version counter (still ${r.version})`,
          );
        if (single.dtype === target.dtype) checkOutputs(inst, k, s, await onHost([r]), asRef, what);
        checks++;
      }
    }
    // An op that is itself in-place (copy_, fill_, zero_) bumps its self's version counter like any in-place
    // variant: PyTorch does (resize_ excepted: flags.keepsVersion).
    if (info.flags.mutates && info.op.endsWith('_') && !info.flags.keepsVersion && input) {
      const target = writableInput();
      const version = target.version;
      call(inst, k, s, info.op, [target, ...s.args], { ...s.kwargs });
      if (target.version <= version)
        throw new OracleFailure(
          inst,
          k,
          s.name,
          `${info.op} did not bump its self's version counter (still ${target.version})`,
        );
      checks++;
    }
    const outForm = info.variants.out && (info.outApplies?.(s) ?? true);
    // The op's out= and each plain alias's (torch.negative(x, out=y)).
    for (const name of outForm && single ? [info.op, ...info.aliases.filter((a) => !a.includes('.'))] : []) {
      const what = name === info.op ? 'out=' : `alias ${name} out=`;
      const out = callOp('empty', [[0]], { dtype: single?.dtype, device: inst.device }) as Tensor;
      const outVersion = out.version;
      const r = call(inst, k, s, name, [s.input, ...s.args], { ...s.kwargs, out }) as Tensor;
      if (r !== out) throw new OracleFailure(inst, k, s.name, `${what} variant did not return \`out\``);
      if (r.version <= outVersion)
        throw new OracleFailure(inst, k, s.name, `${what} variant did not bump the version counter`);
      checkOutputs(inst, k, s, await onHost([r]), asRef, what);
      checks++;
    }
    // out= a view that starts inside its storage (offset 1) with too little storage after it for the result:
    // the resize must count the offset (PyTorch's resize_output grows the storage from there).
    if (outForm && single && single.numel >= 2) {
      const base = callOp('empty', [[single.numel]], { dtype: single.dtype, device: inst.device }) as Tensor;
      const out = base.narrow(0, 1, 1);
      const r = call(inst, k, s, info.op, [s.input, ...s.args], { ...s.kwargs, out }) as Tensor;
      if (r !== out) throw new OracleFailure(inst, k, s.name, 'out= variant did not return `out`');
      checkOutputs(inst, k, s, await onHost([r]), asRef, 'out= at a storage offset');
      checks++;
    }
    // out= views of exactly the results' shapes and layouts in the middle of larger storages (every out of a
    // tuple overload too): right values, nothing written before or after them, version counters bumped.
    const outNames = outArgNames(info.op, result.length);
    const guardForm =
      outNames &&
      (info.variants.out || !outNames.includes('out')) &&
      (info.outApplies?.(s) ?? true) &&
      outNames.every((m) => !(m in s.kwargs));
    const guarded = guardForm ? await guardedOuts(result, outNames, inst.device) : null;
    if (guarded) {
      const what = 'out= views inside larger storages';
      const r = outputsOf(
        call(inst, k, s, info.op, [s.input, ...s.args], { ...s.kwargs, ...guarded.kwargs }),
      );
      if (r.length !== guarded.views.length || r.some((t, j) => t !== guarded.views[j]))
        throw new OracleFailure(inst, k, s.name, `${what}: the call did not return its out tensors`);
      const wrong = await guarded.verify();
      if (wrong) throw new OracleFailure(inst, k, s.name, wrong);
      checkOutputs(inst, k, s, await onHost(r), asRef, what);
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
  if (only === undefined) await checkOverrideEarned(inst);
  return noteSkipped(inst, checks, skipped, ranCount);
}
