/**
 * Error inputs: each must raise the declared code with a message matching the regex (PyTorch's test_errors).
 * On webgpu the cpu-made inputs are moved to the device; an input the device cannot hold (a float64 tensor)
 * and errors that depend on tensor values (declared `valueDependent`) are not applicable there.
 */

import type { ErrorInput } from '../../op_db/index.ts';
import { describeError, type Instance, OracleFailure, type OracleResult, sampleContext } from './instance.ts';
import { callOp, OpgateError } from './runtime_face.ts';
import { onDevice } from './sample_io.ts';

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

export function runErrors(inst: Instance, only?: number): OracleResult {
  const inputs = inst.info.errorInputs(sampleContext(inst));
  let checks = 0;
  inputs.forEach((e0, k) => {
    if (only !== undefined && k !== only) return;
    const e = applicable(inst, e0);
    if (!e) return;
    const s = e.sample;
    let raised: unknown = null;
    try {
      callOp(inst.info.op, [s.input, ...s.args], { ...s.kwargs });
    } catch (err) {
      raised = err;
    }
    if (raised === null)
      throw new OracleFailure(
        inst,
        k,
        s.name,
        `expected ${e.code} matching ${e.regex}, but the op succeeded`,
      );
    if (!(raised instanceof OpgateError) || raised.code !== e.code) {
      throw new OracleFailure(inst, k, s.name, `expected ${e.code}, got ${describeError(raised)}`);
    }
    if (!e.regex.test(raised.message))
      throw new OracleFailure(
        inst,
        k,
        s.name,
        `message ${JSON.stringify(raised.message)} does not match ${e.regex}`,
      );
    checks++;
  });
  return { checks };
}
