/** The oracles (reference, metadata, errors, dtypes, property) and what they share. */
import type { Oracle } from '../../op_db/index.ts';
import { runCompile } from './compile.ts';
import { runCrossBackend } from './crossbackend.ts';
import { runDtypes } from './dtypes.ts';
import { runErrors } from './errors.ts';
import { gradSamples, runBackwardConsistency, runGradcheckOracle, runGradgradcheckOracle } from './grad.ts';
import { type Instance, OracleFailure, type OracleResult, sampleContext } from './instance.ts';
import { runMetadata } from './metadata.ts';
import { runProperty } from './property.ts';
import { runReference } from './reference.ts';
import { initWebGPU, NoAdapterError, webgpuUnavailableReason } from './runtime_face.ts';

type Runner = (inst: Instance, sample?: number) => OracleResult | Promise<OracleResult>;

/** Oracles implemented so far; the matrix only expands these. */
export const ORACLE_RUNNERS: Partial<Record<Oracle, Runner>> = {
  reference: runReference,
  crossbackend: runCrossBackend,
  compile: runCompile,
  metadata: runMetadata,
  errors: runErrors,
  dtypes: runDtypes,
  property: (inst) => runProperty(inst),
  gradcheck: runGradcheckOracle,
  gradgradcheck: runGradgradcheckOracle,
  backward: runBackwardConsistency,
};

/** Runs one instance; a webgpu instance first acquires the device (E_NO_ADAPTER when there is none). */
export async function runOracle(inst: Instance, sample?: number): Promise<OracleResult> {
  const run = ORACLE_RUNNERS[inst.oracle];
  if (!run) throw new OracleFailure(inst, null, undefined, `oracle '${inst.oracle}' is not implemented yet`);
  if (inst.device === 'webgpu' && !(await initWebGPU())) {
    throw new NoAdapterError(webgpuUnavailableReason(), {
      op: inst.info.op,
      got: 'no adapter',
      expected: 'a webgpu adapter',
    });
  }
  return run(inst, sample);
}

/**
 * How many samples an instance's oracle indexes (`repro --sample k` takes k below this); null when its samples
 * have no stable index (property-based samples are drawn by fast-check from the seed).
 */
export function sampleCount(inst: Instance): number | null {
  switch (inst.oracle) {
    case 'property':
      return null;
    case 'errors':
      return inst.info.errorInputs(sampleContext(inst)).length;
    case 'gradcheck':
    case 'gradgradcheck':
    case 'backward':
      return gradSamples(inst).length;
    default:
      return inst.info.sampleInputs(sampleContext(inst)).length;
  }
}

export { close, compareValues, type Mismatch } from './compare.ts';
export { runCompile } from './compile.ts';
export { CROSS_BACKEND_TOLERANCE, runCrossBackend } from './crossbackend.ts';
export { runDtypes } from './dtypes.ts';
export { runErrors } from './errors.ts';
export { runBackwardConsistency, runGradcheckOracle, runGradgradcheckOracle } from './grad.ts';
export { GradcheckError, type GradcheckOptions, gradcheck, gradgradcheck } from './gradcheck.ts';
export {
  describeError,
  type Instance,
  OracleFailure,
  type OracleResult,
  reproCommand,
  sampleContext,
} from './instance.ts';
export { applyLayout } from './layouts.ts';
export { runMetadata } from './metadata.ts';
export { runProperty } from './property.ts';
export { runReference } from './reference.ts';
export { metaMirror, toRefSample, withLayout } from './sample_io.ts';
export { DEFAULT_TOLERANCES, DEVICE_TOLERANCES, toleranceFor } from './tolerances.ts';
