/**
 * Dtype claims (PyTorch's test_dtypes): on a claimed dtype every sample runs; on an unclaimed dtype the op must
 * raise E_DTYPE_UNSUPPORTED — an op that works on a dtype it does not claim is reported as "works but not
 * claimed" (the claim is stale), which fails the instance so the op_db stays honest.
 */

import { describeError, type Instance, OracleFailure, type OracleResult, sampleContext } from './instance.ts';
import { callOp, OpgateError } from './runtime_face.ts';
import { withDeviceKeyword, withLayout } from './sample_io.ts';

export function runDtypes(inst: Instance, only?: number): OracleResult {
  const { info } = inst;
  const claimed = info.dtypes[inst.device].includes(inst.dtype);
  const samples = info.sampleInputs(sampleContext(inst, inst.device));
  let checks = 0;
  let worked = 0;
  samples.forEach((s0, k) => {
    if (only !== undefined && k !== only) return;
    const s = withDeviceKeyword(withLayout(s0, inst.layout), inst.device);
    try {
      callOp(info.op, [s.input, ...s.args], { ...s.kwargs });
      worked++;
    } catch (e) {
      if (claimed)
        throw new OracleFailure(inst, k, s.name, `claimed dtype ${inst.dtype} raised ${describeError(e)}`);
      if (!(e instanceof OpgateError) || e.code !== 'E_DTYPE_UNSUPPORTED') {
        throw new OracleFailure(
          inst,
          k,
          s.name,
          `unclaimed dtype ${inst.dtype} must raise E_DTYPE_UNSUPPORTED, got ${describeError(e)}`,
        );
      }
    }
    checks++;
  });
  if (!claimed && worked > 0) {
    throw new OracleFailure(
      inst,
      null,
      undefined,
      `works but not claimed: ${worked}/${samples.length} samples ran on unclaimed dtype ${inst.dtype}`,
    );
  }
  return { checks };
}
