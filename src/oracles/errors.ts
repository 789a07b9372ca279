/**
 * Error inputs: each must raise the declared code with a message matching the regex (PyTorch's test_errors).
 * On webgpu the cpu-made inputs are moved to the device; an input the device cannot hold (a float64 tensor)
 * and errors that depend on tensor values (declared `valueDependent`) are not applicable there.
 *
 * The op's in-place and out= variants are called with every error input too: they must raise the same code
 * and, like every raising call, leave all the tensors they were given untouched (untouched.ts). The out= tensor
 * is the oracle's own, filled with a byte pattern no kernel writes, so a partial write shows in its bytes.
 */

import type { ErrorInput, OpInfo, SampleInput } from '../../op_db/index.ts';
import { describeError, type Instance, OracleFailure, type OracleResult, sampleContext } from './instance.ts';
import { callOp, isDType, OpgateError, Tensor } from './runtime_face.ts';
import { onDevice, sampleTensors } from './sample_io.ts';
import { callTensors, firstChange, takeStates } from './untouched.ts';

function applicable(inst: Instance, e: ErrorInput): ErrorInput | null {
  if (inst.device === 'cpu') return e;
  if (e.valueDependent) return null;
  try {
    return { ...e, sample: onDevice(e.sample, inst.device) };
  } catch (err) {
    if (err instanceof OpgateError && err.code === 'E_DTYPE_UNSUPPORTED') return null;
    throw err;
  }
}

interface VariantCall {
  readonly label: string;
  readonly name: string;
  readonly kwargs: Record<string, unknown>;
}

/**
 * A fresh out= tensor shaped like the sample's first tensor, of its dtype (or of the `dtype` the call asks
 * for, which out must match), every byte 0xA5 (no kernel writes that pattern); null when the device cannot
 * hold that dtype (a float16 out on webgpu), like `applicable`.
 */
function patternedLike(t: Tensor, s: SampleInput, device: Instance['device']): Tensor | null {
  const dtype = typeof s.kwargs.dtype === 'string' && isDType(s.kwargs.dtype) ? s.kwargs.dtype : t.dtype;
  const out = Tensor.empty(t.shape, dtype, 'cpu');
  const d = out.storage.data!;
  new Uint8Array(d.buffer, d.byteOffset, d.byteLength).fill(0xa5);
  try {
    return device === 'cpu' ? out : out.to(device);
  } catch (err) {
    if (err instanceof OpgateError && err.code === 'E_DTYPE_UNSUPPORTED') return null;
    throw err;
  }
}

/** The in-place and out= calls of an error input (an input that already passes `out` is its own out= call). */
function variantCalls(info: OpInfo, s: SampleInput, device: Instance['device']): VariantCall[] {
  const calls: VariantCall[] = [];
  const hasOut = 'out' in s.kwargs;
  if (info.variants.inplace && (info.inplaceApplies?.(s) ?? true) && s.input instanceof Tensor && !hasOut)
    calls.push({ label: 'in-place', name: `${info.op}_`, kwargs: { ...s.kwargs } });
  const like = sampleTensors(s)[0];
  const outForm = info.variants.out && (info.outApplies?.(s) ?? true);
  const out = outForm && !hasOut && like ? patternedLike(like, s, device) : null;
  if (out) calls.push({ label: 'out=', name: info.op, kwargs: { ...s.kwargs, out } });
  return calls;
}

/** Calls the op; returns what it raised (null if it succeeded) and which tensor it changed, if any. */
async function raisingCall(
  name: string,
  s: SampleInput,
  kwargs: Record<string, unknown>,
): Promise<{ raised: unknown; changed: string | null }> {
  const states = await takeStates(callTensors(s.input, s.args, kwargs));
  let raised: unknown = null;
  try {
    callOp(name, [s.input, ...s.args], kwargs);
  } catch (err) {
    raised = err;
  }
  return { raised, changed: raised === null ? null : await firstChange(states) };
}

export async function runErrors(inst: Instance, only?: number): Promise<OracleResult> {
  const inputs = inst.info.errorInputs(sampleContext(inst));
  let checks = 0;
  for (const [k, e0] of inputs.entries()) {
    if (only !== undefined && k !== only) continue;
    const e = applicable(inst, e0);
    if (!e) continue;
    const s = e.sample;
    const fail = (detail: string) => new OracleFailure(inst, k, s.name, detail);
    const { raised, changed } = await raisingCall(inst.info.op, s, { ...s.kwargs });
    if (raised === null) throw fail(`expected ${e.code} matching ${e.regex}, but the op succeeded`);
    if (!(raised instanceof OpgateError) || raised.code !== e.code)
      throw fail(`expected ${e.code}, got ${describeError(raised)}`);
    if (!e.regex.test(raised.message))
      throw fail(`message ${JSON.stringify(raised.message)} does not match ${e.regex}`);
    if (changed) throw fail(`raised ${e.code} but changed ${changed}`);
    checks++;
    for (const v of variantCalls(inst.info, s, inst.device)) {
      const r = await raisingCall(v.name, s, v.kwargs);
      if (r.raised === null) throw fail(`${v.label} variant: expected ${e.code}, but it succeeded`);
      if (!(r.raised instanceof OpgateError) || r.raised.code !== e.code)
        throw fail(`${v.label} variant: expected ${e.code}, got ${describeError(r.raised)}`);
      // PyTorch checks before it writes: a raising in-place / out= call leaves self and out as they were.
      if (r.changed) throw fail(`${v.label} variant raised ${e.code} but changed ${r.changed}`);
      checks++;
    }
  }
  return { checks };
}
