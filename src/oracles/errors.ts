/** Error inputs: each must raise the declared code with a message matching the regex (PyTorch's test_errors). */

import { describeError, type Instance, OracleFailure, type OracleResult, sampleContext } from './instance.ts';
import { callOp, OpgateError } from './runtime_face.ts';

export function runErrors(inst: Instance, only?: number): OracleResult {
  const inputs = inst.info.errorInputs(sampleContext(inst, inst.device));
  let checks = 0;
  inputs.forEach((e, k) => {
    if (only !== undefined && k !== only) return;
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
