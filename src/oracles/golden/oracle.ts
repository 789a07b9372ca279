/**
 * The golden oracle: the runtime against what real PyTorch 1.13 gave for the same sample (recorded with
 * `opgate golden record`, committed under op_db/goldens/). Per sample: PyTorch raised <-> the runtime raises;
 * the outputs' count, dtypes and shapes; for outputs that are views in PyTorch, strides, storage offset and which
 * input they alias (cpu); values within the instance's tolerance (exact for integer, bool and exactRounding
 * ops); for float64 gradient samples, the gradients of the weighted-sum loss. References written by the same hands
 * as the kernels can share a misreading of PyTorch; this oracle cannot.
 */
import {
  fromRuntime,
  type GoldenDeviation,
  LAYOUTS,
  type RefTensor,
  WEBGPU_DTYPES,
} from '../../../op_db/index.ts';
import { isTargetName } from '../../targets/index.ts';
import { compareValues } from '../compare.ts';
import { ToleranceUse, unearnedTolerance } from '../earned.ts';
import { gradientsOf } from '../grad.ts';
import { describeError, type Instance, OracleFailure, type OracleResult } from '../instance.ts';
import { type DType, Tensor } from '../runtime_face.ts';
import { callSample, mixesUnsupported, notOnDevice, onDevice, onHost } from '../sample_io.ts';
import { toleranceFor } from '../tolerances.ts';
import {
  decodeValues,
  type GoldenEntry,
  type GoldenFile,
  type GoldenOutput,
  readGolden,
  recordCommand,
} from './files.ts';
import { type GoldenRequest, goldenRequests } from './requests.ts';
import { runGoldenOnTarget } from './target.ts';
import { ulpError } from './ulp.ts';

/** The requests an instance checks: every kind on cpu; outputs only on other devices. */
export function instanceRequests(inst: Instance): GoldenRequest[] {
  return goldenRequests(inst.info, inst.dtype, inst.layout, inst.device === 'cpu' ? undefined : ['sample']);
}

interface Ctx {
  readonly inst: Instance;
  readonly golden: GoldenFile;
  maxUlp: number;
  /** How much of a declared golden tolerance the comparisons use (cpu, all of an instance's samples). */
  readonly use?: ToleranceUse;
  /** Declared deviations: on how many samples each applied, and on how many it was seen to differ. */
  readonly deviations: Map<GoldenDeviation, { covered: number; differed: number }>;
}

function tallyOf(c: Ctx, d: GoldenDeviation): { covered: number; differed: number } {
  const t = c.deviations.get(d) ?? { covered: 0, differed: 0 };
  c.deviations.set(d, t);
  return t;
}

function fail(c: Ctx, r: GoldenRequest, detail: string): never {
  throw new OracleFailure(c.inst, r.k, `${r.kind} ${r.sample.name ?? ''}`.trim(), detail);
}

/** The tolerance a golden comparison of `dtype` uses: the instance's, loosened by the OpInfo's goldenTolerances. */
function goldenTolerance(inst: Instance, dtype: DType) {
  const loose = inst.info.goldenTolerances[dtype];
  const base = toleranceFor(dtype, inst.info.tolerances, inst.device);
  return loose ? { rtol: Math.max(loose.rtol, base.rtol), atol: Math.max(loose.atol, base.atol) } : base;
}

/**
 * Outputs of exactRounding ops are compared bit for bit on cpu; gradients (`exactOk` false) never are, and are not
 * part of the ulp fingerprint (the loss weights come from each side's own linspace). An OpInfo's goldenTolerances loosen the comparison where PyTorch is less accurate.
 */
function compareTo(
  c: Ctx,
  r: GoldenRequest,
  what: string,
  got: Tensor,
  want: RefTensor,
  exactOk = true,
): void {
  const { inst } = c;
  const dtype = got.dtype;
  const tol = goldenTolerance(inst, dtype);
  const exact =
    exactOk &&
    !inst.info.goldenTolerances[dtype] &&
    (inst.info.flags.exactRounding || inst.info.goldenExact.includes(dtype)) &&
    inst.device === 'cpu';
  const actual = fromRuntime(got);
  const m = compareValues(actual, want, dtype, tol, exact);
  if (m)
    fail(
      c,
      r,
      `${what} (${dtype}): ${m.count}/${m.total} elements differ from PyTorch; first at index ${m.index} (${m.part}): got ${m.actual}, PyTorch ${m.expected} (rtol ${tol.rtol}, atol ${tol.atol})`,
    );
  // A zero's sign is part of the value (1 / x, atan2, copysign read it): on cpu, in float64, it must be PyTorch's.
  // Not in the other dtypes: PyTorch's float32 kernels pick their own zeros (its float32 gelu(-0) is +0, its float64
  // one -0), and 16-bit ones compute in float32, where a tiny result's underflow decides.
  if (exactOk && inst.device === 'cpu' && dtype === 'float64') {
    const i = signedZeroMismatch(actual, want);
    if (i >= 0)
      fail(
        c,
        r,
        `${what} (${dtype}): element ${i} is ${zeroName(actual.re[i])}, PyTorch gives ${zeroName(want.re[i])}`,
      );
  }
  if (dtype === inst.dtype) c.use?.add(actual, want, dtype, tol);
  // The fingerprint is the outputs' error: gradients depend on each side's own loss weights (linspace's last bits).
  if (exactOk) c.maxUlp = Math.max(c.maxUlp, ulpError(actual, want, dtype));
}

const fmt = (xs: readonly number[]) => `[${xs.join(', ')}]`;
const zeroName = (x: number) => (Object.is(x, -0) ? '-0' : '+0');

/** The first real element where both sides are zero of opposite signs, or -1. */
function signedZeroMismatch(actual: RefTensor, want: RefTensor): number {
  for (let i = 0; i < actual.re.length; i++)
    if (actual.re[i] === 0 && want.re[i] === 0 && Object.is(actual.re[i], -0) !== Object.is(want.re[i], -0))
      return i;
  return -1;
}

async function checkOutputs(c: Ctx, r: GoldenRequest, e: GoldenEntry, outs: Tensor[]) {
  const want = e.out!;
  if (outs.length !== want.length) fail(c, r, `${outs.length} outputs, PyTorch gives ${want.length}`);
  const host = await onHost(outs);
  host.forEach((t, j) => {
    const w: GoldenOutput = want[j];
    if (t.dtype !== w.dtype) fail(c, r, `output ${j} dtype ${t.dtype}, PyTorch gives ${w.dtype}`);
    if (fmt(t.shape) !== fmt(w.shape))
      fail(c, r, `output ${j} shape ${fmt(t.shape)}, PyTorch gives ${fmt(w.shape)}`);
    if (w.requires_grad !== undefined && outs[j].requiresGrad !== w.requires_grad)
      fail(c, r, `output ${j} requires_grad ${outs[j].requiresGrad}, PyTorch gives ${w.requires_grad}`);
    if (c.inst.device === 'cpu' && w.alias !== null) {
      const alias = r.storageIndex.get(outs[j].storage) ?? -1;
      if (alias !== w.alias)
        fail(
          c,
          r,
          w.alias < 0
            ? `output ${j} is a view of input storage ${alias}; PyTorch returns new memory`
            : `output ${j} does not alias input storage ${w.alias} as PyTorch's view does`,
        );
      if (w.alias >= 0 && t.numel > 0 && (fmt(t.strides) !== fmt(w.strides) || t.storageOffset !== w.offset))
        fail(
          c,
          r,
          `output ${j} view strides ${fmt(t.strides)} offset ${t.storageOffset}, PyTorch ${fmt(w.strides)} offset ${w.offset}`,
        );
      // New memory too has a layout PyTorch chose (TensorIterator keeps an input's dim order): over the dims
      // with more than one element, the strides must be PyTorch's, unless a `layout` deviation is declared.
      if (w.alias < 0 && t.numel > 1) {
        const differs = !sameLayout(t.shape, t.strides, w.strides);
        const d = deviationOf(c.inst, r, 'layout');
        if (d) {
          const tally = tallyOf(c, d);
          tally.covered++;
          if (differs) tally.differed++;
        } else if (differs)
          fail(c, r, `output ${j} strides ${fmt(t.strides)}, PyTorch lays it out as ${fmt(w.strides)}`);
      }
    }
    // A sample that draws gets PyTorch's own random stream, not the runtime's: its values are not comparable.
    if (w.values !== null && !c.inst.info.flags.nondeterministicValues && !r.sample.draws)
      compareTo(c, r, `output ${j}`, t, decodeValues(c.golden, w.values, w.dtype as DType, w.shape));
  });
}

/** Strides agree on every dim of more than one element (a size-1 dim's stride is never used to address). */
function sameLayout(shape: readonly number[], a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && shape.every((n, d) => n <= 1 || a[d] === b[d]);
}

async function checkCall(c: Ctx, r: GoldenRequest, e: GoldenEntry): Promise<boolean> {
  const { inst } = c;
  // A sample whose expected tie order is the CPU's does not apply on webgpu.
  if (notOnDevice(r.sample, inst.device)) return false;
  let outs: Tensor[];
  try {
    const s = onDevice(r.sample, inst.device);
    outs = callSample(inst.info, s);
  } catch (err) {
    if (e.raises !== undefined) return true;
    const code = (err as { code?: string }).code;
    // A sample mixing in a dtype the device does not compute (float64 on webgpu) does not apply there.
    if (code === 'E_DTYPE_UNSUPPORTED' && mixesUnsupported(r.sample, inst.device, WEBGPU_DTYPES))
      return false;
    fail(c, r, `the runtime raised ${describeError(err)}; PyTorch returns a result`);
  }
  if (e.raises !== undefined)
    fail(c, r, `PyTorch raises ${e.raises}; the runtime returned ${outs.length} output(s)`);
  await checkOutputs(c, r, e, outs);
  checkWrittenInputs(c, r, e);
  return true;
}

/**
 * An op that writes its inputs (batch_norm's running statistics, embedding's max_norm rows): on cpu, where the
 * call ran on the sample's own storages, each one's values after the call against PyTorch's.
 */
function checkWrittenInputs(c: Ctx, r: GoldenRequest, e: GoldenEntry): void {
  if (!e.after || c.inst.device !== 'cpu' || r.sample.draws) return;
  for (const [st, i] of r.storageIndex) {
    if (e.after[i] === undefined) fail(c, r, `no recorded value for input storage ${i} after the call`);
    const flat = new Tensor(st, [st.numel], [1], 0);
    compareTo(
      c,
      r,
      `input storage ${i} after the call`,
      flat,
      decodeValues(c.golden, e.after[i], st.dtype, [st.numel]),
    );
  }
}

function checkGrad(c: Ctx, r: GoldenRequest, e: GoldenEntry): boolean {
  let grads: Tensor[];
  try {
    grads = gradientsOf(c.inst, r.sample);
  } catch (err) {
    if (e.grad_raises !== undefined) return true;
    fail(c, r, `backward raised ${describeError(err)}; PyTorch's backward succeeds`);
  }
  if (e.grad_raises !== undefined)
    fail(c, r, `PyTorch's backward raises ${e.grad_raises}; the runtime's succeeds`);
  const want = e.grads ?? [];
  if (grads.length !== want.length) fail(c, r, `${grads.length} gradients, PyTorch gives ${want.length}`);
  for (const [i, g] of grads.entries())
    compareTo(c, r, `gradient of input ${i}`, g, decodeValues(c.golden, want[i], g.dtype, g.shape), false);
  return true;
}

/** The deviation declared for request `r` (for its kind, or `layout`: for the layout of its new outputs). */
function deviationOf(
  inst: Instance,
  r: GoldenRequest,
  kind: GoldenDeviation['kind'] = r.kind,
): GoldenDeviation | undefined {
  return inst.info.goldenDeviations.find(
    (d) =>
      (!d.dtypes || d.dtypes.includes(inst.dtype)) &&
      (!d.layouts || d.layouts.includes(inst.layout)) &&
      (kind === 'layout' ? d.kind === 'layout' : !d.kind || d.kind === kind) &&
      (!d.sample || (r.sample.name ?? '').includes(d.sample)),
  );
}

/** One golden pass over an instance's requests; `use` collects how much of its tolerance they use. */
async function goldenPass(inst: Instance, only?: number, use?: ToleranceUse): Promise<OracleResult> {
  const op = inst.info.name;
  const golden = readGolden(op);
  if (!golden)
    throw new OracleFailure(
      inst,
      null,
      undefined,
      `no goldens recorded for ${op}: run \`${recordCommand(op)}\``,
    );
  const c: Ctx = { inst, golden, maxUlp: 0, use, deviations: new Map() };
  let checks = 0;
  let unrecorded = 0;
  for (const [i, r] of instanceRequests(inst).entries()) {
    if (only !== undefined && i !== only) continue;
    const e = golden.entries[r.fp];
    if (!e)
      fail(
        c,
        r,
        `stale golden: this sample (fingerprint ${r.fp}) has no recorded PyTorch result; it changed since the goldens were recorded. Refresh: \`${recordCommand(op)}\``,
      );
    if (e.unstable || e.grads_skipped !== undefined) {
      unrecorded++;
      continue;
    }
    const d = deviationOf(inst, r);
    const tally = d && tallyOf(c, d);
    try {
      if (await (r.kind === 'grad' ? checkGrad(c, r, e) : checkCall(c, r, e))) checks++;
      if (tally) tally.covered++;
    } catch (err) {
      if (!(tally && err instanceof OracleFailure)) throw err;
      tally.covered++;
      tally.differed++;
    }
  }
  // (One sample alone, `repro --sample k`, cannot show that a deviation stopped differing on all of its samples.)
  for (const [d, t] of only === undefined ? c.deviations : [])
    if (t.covered > 0 && t.differed === 0)
      throw new OracleFailure(
        inst,
        null,
        undefined,
        `unexpected agreement: a declared deviation from PyTorch did not occur on any of its ${t.covered} sample(s) (remove it from the OpInfo's goldenDeviations): ${d.reason}`,
      );
  const notes = unrecorded
    ? [
        `${unrecorded} sample(s) have no stable or finite PyTorch result to compare with (see the golden file)`,
      ]
    : undefined;
  return { checks, maxUlp: c.maxUlp, notes };
}

const goldenUses = new Map<string, Promise<ToleranceUse>>();

/**
 * How much of the OpInfo's golden tolerance for the instance's dtype PyTorch's recorded results use: every cpu
 * layout's requests, so that each instance judges it by the same evidence, all of the matrix's (memoized per
 * process). A layout that fails its own comparison adds what it compared before the failure.
 */
function goldenUse(inst: Instance): Promise<ToleranceUse> {
  const { info, dtype } = inst;
  const key = `${info.name} ${dtype} ${JSON.stringify([info.goldenTolerances[dtype], info.tolerances[dtype]])}`;
  let use = goldenUses.get(key);
  if (!use) {
    use = (async () => {
      const u = new ToleranceUse();
      for (const layout of LAYOUTS)
        await goldenPass({ ...inst, device: 'cpu', layout }, undefined, u).catch(() => null);
      return u;
    })();
    goldenUses.set(key, use);
  }
  return use;
}

export async function runGolden(inst: Instance, only?: number): Promise<OracleResult> {
  // A foreign runtime (src/targets) replays the same recorded results through its own API.
  if (isTargetName(inst.device)) return runGoldenOnTarget(inst, only);
  const result = await goldenPass(inst, only);
  // A declared golden tolerance must be earned (earned.ts), judged where the values are PyTorch's: cpu.
  if (only === undefined && inst.info.goldenTolerances[inst.dtype] && inst.device === 'cpu') {
    const why = unearnedTolerance(
      'golden tolerance (goldenTolerances)',
      inst.dtype,
      goldenTolerance(inst, inst.dtype),
      toleranceFor(inst.dtype, inst.info.tolerances, inst.device),
      await goldenUse(inst),
    );
    if (why) throw new OracleFailure(inst, null, undefined, why);
  }
  return result;
}
