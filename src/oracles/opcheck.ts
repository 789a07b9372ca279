/**
 * `opcheck(op, samples)`: torch.library.opcheck's four checks of a (custom) op's registrations, each reported in
 * plain words, over samples a user gives:
 * - schema: the kernel writes only the arguments its schema marks mutable (`Tensor(a!)`) and returns new tensors
 *   where the schema declares new ones (no output shares an input's storage);
 * - autograd registration: an op with floating inputs has a backward (registerAutograd, or a composite's parts),
 *   and gradcheck in float64 agrees with it;
 * - fake: the meta (fake) kernel exists and gives the real kernel's shapes, dtypes and strides;
 * - compile: the compiled call gives the eager call's values.
 */
import { close } from './compare.ts';
import { gradcheck } from './gradcheck.ts';
import {
  callOp,
  compile,
  DTYPE_INFO,
  OpgateError,
  operatorTable,
  type Schema,
  Tensor,
} from './runtime_face.ts';
import { metaMirror } from './sample_io.ts';
import { callTensors, firstChange, takeStates } from './untouched.ts';

export type OpcheckName = 'schema' | 'autograd_registration' | 'fake' | 'compile';
export const OPCHECKS: readonly OpcheckName[] = ['schema', 'autograd_registration', 'fake', 'compile'];

export interface OpcheckSample {
  readonly args: readonly unknown[];
  readonly kwargs?: Readonly<Record<string, unknown>>;
}

export interface OpcheckOutcome {
  readonly check: OpcheckName;
  /** null: passed; else what was found, with the sample's index. */
  readonly failure: string | null;
}

export interface OpcheckOptions {
  readonly checks?: readonly OpcheckName[];
  /** Throw an OpcheckError naming every failed check (default); false: only return the report. */
  readonly raiseException?: boolean;
  readonly atol?: number;
  readonly rtol?: number;
}

export class OpcheckError extends Error {
  readonly code = 'E_OPCHECK';
  readonly report: readonly OpcheckOutcome[];
  constructor(op: string, report: readonly OpcheckOutcome[]) {
    const failed = report.filter((r) => r.failure !== null);
    super(`opcheck(${op}): ${failed.map((r) => `${r.check}: ${r.failure}`).join('; ')} [E_OPCHECK]`);
    this.name = 'OpcheckError';
    this.report = report;
  }
}

export async function opcheck(
  op: string,
  samples: readonly OpcheckSample[],
  o: OpcheckOptions = {},
): Promise<OpcheckOutcome[]> {
  const tol = { atol: o.atol ?? 1e-5, rtol: o.rtol ?? 1.3e-6 };
  const run: Record<OpcheckName, (s: OpcheckSample) => Promise<string | null> | string | null> = {
    schema: (s) => schemaCheck(op, s),
    autograd_registration: (s) => autogradCheck(op, s),
    fake: (s) => fakeCheck(op, s),
    compile: (s) => compileCheck(op, s, tol),
  };
  const report: OpcheckOutcome[] = [];
  for (const check of o.checks ?? OPCHECKS) {
    let failure: string | null = null;
    for (const [i, s] of samples.entries()) {
      const why = await attempt(() => run[check](s));
      if (why) {
        failure = `sample ${i}: ${why}`;
        break;
      }
    }
    report.push({ check, failure });
  }
  if ((o.raiseException ?? true) && report.some((r) => r.failure !== null))
    throw new OpcheckError(op, report);
  return report;
}

async function attempt(f: () => Promise<string | null> | string | null): Promise<string | null> {
  try {
    return await f();
  } catch (e) {
    return e instanceof Error ? `raised ${e.message}` : `raised ${String(e)}`;
  }
}

const tensorsOf = (v: unknown): Tensor[] =>
  v instanceof Tensor ? [v] : Array.isArray(v) ? v.flatMap(tensorsOf) : [];
/** A sample's tensors cloned (so a faulty kernel's writes cannot leak into the next check). */
const fresh = (v: unknown): unknown =>
  v instanceof Tensor ? (callOp('clone', [v]) as Tensor) : Array.isArray(v) ? v.map(fresh) : v;
const freshSample = (s: OpcheckSample): OpcheckSample => ({
  args: s.args.map(fresh),
  kwargs: Object.fromEntries(Object.entries(s.kwargs ?? {}).map(([k, v]) => [k, fresh(v)])),
});
const call = (op: string, s: OpcheckSample) => callOp(op, [...s.args], { ...s.kwargs });

/** The arguments the op's schema marks written (`Tensor(a!)`), as callTensors names them: by position and keyword. */
function mutableNames(schema: Schema): Set<string> {
  const names = new Set<string>();
  schema.args.forEach((a, i) => {
    if (a.type.alias?.isWrite || a.type.elementAlias?.isWrite) names.add(`args[${i}]`).add(a.name);
  });
  return names;
}

async function schemaCheck(op: string, sample: OpcheckSample): Promise<string | null> {
  const s = freshSample(sample);
  const all = callTensors(undefined, s.args, s.kwargs ?? {});
  const { schema } = operatorTable.resolve(op)[0];
  const mutable = mutableNames(schema);
  // A list argument's elements (`args[0][1]`) are as mutable as the list.
  const readOnly = all.filter(({ name }) => !mutable.has(name) && !mutable.has(name.replace(/\[\d+\]$/, '')));
  const states = await takeStates(readOnly);
  const out = call(op, s);
  const changed = await firstChange(states);
  if (changed) return `the kernel wrote an input its schema does not mark mutable (${changed})`;
  const outs = tensorsOf(out);
  for (const [i, t] of outs.entries()) {
    const declared = schema.returns[i]?.type.alias;
    if (declared) continue;
    const shared = all.find(({ t: x }) => x.storage === t.storage);
    if (shared)
      return `output ${i} shares the storage of ${shared.name}, but the schema declares a new tensor (no alias annotation)`;
  }
  return null;
}

function autogradCheck(op: string, sample: OpcheckSample): string | null {
  const floats = sample.args.flatMap(tensorsOf).filter((t) => DTYPE_INFO[t.dtype].kind === 'float');
  if (floats.length === 0) return null; // nothing differentiable to check
  const asDouble = (v: unknown): unknown =>
    v instanceof Tensor && DTYPE_INFO[v.dtype].kind === 'float'
      ? (callOp('to', [v], { dtype: 'float64' }) as Tensor).detach().requiresGrad_(true)
      : v;
  const args = sample.args.map(asDouble);
  const inputs = args.filter((a): a is Tensor => a instanceof Tensor && a.requiresGrad);
  try {
    call(op, { args, kwargs: sample.kwargs });
  } catch (e) {
    if (e instanceof OpgateError && e.code === 'E_NOT_IMPLEMENTED' && /derivative/.test(e.message))
      return 'the op takes floating inputs but has no backward: register one (library.registerAutograd) or write it as a composite';
    throw e;
  }
  const fn = (...xs: Tensor[]) => {
    let k = 0;
    return call(op, {
      args: args.map((a) => (a instanceof Tensor && a.requiresGrad ? xs[k++] : a)),
      kwargs: sample.kwargs,
    }) as Tensor;
  };
  try {
    gradcheck(fn, inputs);
  } catch (e) {
    return `the backward disagrees with finite differences in float64 (gradcheck: ${e instanceof Error ? e.message.split('\n')[0] : String(e)})`;
  }
  return null;
}

function fakeCheck(op: string, sample: OpcheckSample): string | null {
  const real = tensorsOf(call(op, freshSample(sample)));
  const toMeta = (v: unknown): unknown =>
    v instanceof Tensor ? metaMirror(v) : Array.isArray(v) ? v.map(toMeta) : v;
  let fake: Tensor[];
  try {
    fake = tensorsOf(
      call(op, {
        args: sample.args.map(toMeta),
        kwargs: Object.fromEntries(Object.entries(sample.kwargs ?? {}).map(([k, v]) => [k, toMeta(v)])),
      }),
    );
  } catch (e) {
    if (e instanceof OpgateError && e.code === 'E_NOT_IMPLEMENTED')
      return 'no fake (meta) kernel: register one with library.registerFake';
    throw e;
  }
  if (fake.length !== real.length)
    return `the fake kernel gives ${fake.length} outputs, the real one ${real.length}`;
  for (const [i, f] of fake.entries()) {
    const r = real[i];
    const meta = (t: Tensor) => `${t.dtype}[${t.shape.join(', ')}] strides [${t.strides.join(', ')}]`;
    if (f.device !== 'meta') return `the fake kernel's output ${i} is on ${f.device}, not meta`;
    if (meta(f) !== meta(r)) return `output ${i}: the fake kernel gives ${meta(f)}, the real one ${meta(r)}`;
  }
  return null;
}

async function compileCheck(op: string, sample: OpcheckSample, tol: { atol: number; rtol: number }) {
  const eager = tensorsOf(call(op, freshSample(sample)));
  const s = freshSample(sample);
  const tensors = s.args.filter((a): a is Tensor => a instanceof Tensor);
  const compiled = compile((...xs: Tensor[]) => {
    let k = 0;
    return call(op, { args: s.args.map((a) => (a instanceof Tensor ? xs[k++] : a)), kwargs: s.kwargs });
  });
  const got = tensorsOf(compiled(...tensors));
  for (const [i, e] of eager.entries()) {
    const g = got[i];
    if (!g || g.shape.join() !== e.shape.join()) return `output ${i}: compiled shape differs from eager`;
    const [gv, ev] = [g, e].map((t) => (t.reshape([-1]).tolist() as unknown[]).map(Number));
    const exact = DTYPE_INFO[e.dtype].kind !== 'float';
    const k = ev.findIndex((x, j) => (exact ? x !== gv[j] : !close(gv[j], x, tol)));
    if (k >= 0) return `output ${i}: compiled gives ${gv[k]} where eager gives ${ev[k]} (element ${k})`;
  }
  return null;
}
