/** The oracles (reference, metadata, errors, dtypes, property, ...) and what they share; registry.ts declares each. */
import { type Instance, OracleFailure, type OracleResult } from './instance.ts';
import { ORACLE_TABLE } from './registry.ts';
import { initWebGPU, NoAdapterError, webgpuUnavailableReason } from './runtime_face.ts';

/** Runs one instance; a webgpu instance first acquires the device (E_NO_ADAPTER when there is none). */
export async function runOracle(inst: Instance, sample?: number): Promise<OracleResult> {
  const record = ORACLE_TABLE[inst.oracle];
  if (!record) throw new OracleFailure(inst, null, undefined, `oracle '${inst.oracle}' is not implemented`);
  if (inst.device === 'webgpu' && !(await initWebGPU())) {
    throw new NoAdapterError(webgpuUnavailableReason(), {
      op: inst.info.op,
      got: 'no adapter',
      expected: 'a webgpu adapter',
    });
  }
  return record.run(inst, sample);
}

/** How many samples an instance's oracle indexes (`repro --sample k` takes k below this); null: no stable index. */
export function sampleCount(inst: Instance): number | null {
  return ORACLE_TABLE[inst.oracle].samples(inst);
}

export { close, compareValues, type Mismatch } from './compare.ts';
export { runCompile } from './compile.ts';
export { crossBackendTolerance, runCrossBackend } from './crossbackend.ts';
export { runDtypes } from './dtypes.ts';
export { runErrors } from './errors.ts';
export {
  blobKey,
  decodeValues,
  encodeGolden,
  GOLDEN_DIR,
  GOLDEN_FORMAT,
  type GoldenEntry,
  type GoldenFile,
  type GoldenRequest,
  goldenPath,
  goldenRequests,
  instanceRequests,
  readGolden,
  recordCommand,
  runGolden,
  serializeCall,
  ulpError,
  ulpOf,
  writeGolden,
} from './golden/index.ts';
export { runBackwardConsistency, runGradcheckOracle, runGradgradcheckOracle } from './grad.ts';
export { GradcheckError, type GradcheckOptions, gradcheck, gradgradcheck } from './gradcheck.ts';
export {
  describeError,
  type Instance,
  instanceId,
  OracleFailure,
  type OracleResult,
  reproCommand,
  sampleContext,
} from './instance.ts';
export { applyLayout } from './layouts.ts';
export { runMetadata } from './metadata.ts';
export {
  OPCHECKS,
  OpcheckError,
  type OpcheckName,
  type OpcheckOptions,
  type OpcheckOutcome,
  type OpcheckSample,
  opcheck,
} from './opcheck.ts';
export { outArgNames } from './out_guard.ts';
export { runProperty } from './property.ts';
export { aliasMethod, inplaceByKeyword, runReference } from './reference.ts';
export {
  ORACLE_TABLE,
  type OracleAxis,
  type OracleRecord,
  type OracleRunner,
  oracleRecords,
  type Tier,
} from './registry.ts';
export { metaMirror, toRefSample, withLayout } from './sample_io.ts';
export { DEFAULT_TOLERANCES, DEVICE_TOLERANCES, toleranceFor } from './tolerances.ts';
