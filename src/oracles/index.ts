/** The oracles (reference, metadata, errors, dtypes, property) and what they share. */
import type { Oracle } from '../../op_db/index.ts';
import { runDtypes } from './dtypes.ts';
import { runErrors } from './errors.ts';
import { runBackwardConsistency, runGradcheckOracle, runGradgradcheckOracle } from './grad.ts';
import { type Instance, OracleFailure, type OracleResult } from './instance.ts';
import { runMetadata } from './metadata.ts';
import { runProperty } from './property.ts';
import { runReference } from './reference.ts';

type Runner = (inst: Instance, sample?: number) => OracleResult;

/** Oracles implemented so far; the matrix only expands these. */
export const ORACLE_RUNNERS: Partial<Record<Oracle, Runner>> = {
  reference: runReference,
  metadata: runMetadata,
  errors: runErrors,
  dtypes: runDtypes,
  property: (inst) => runProperty(inst),
  gradcheck: runGradcheckOracle,
  gradgradcheck: runGradgradcheckOracle,
  backward: runBackwardConsistency,
};

export function runOracle(inst: Instance, sample?: number): OracleResult {
  const run = ORACLE_RUNNERS[inst.oracle];
  if (!run) throw new OracleFailure(inst, null, undefined, `oracle '${inst.oracle}' is not implemented yet`);
  return run(inst, sample);
}

export { close, compareValues, type Mismatch } from './compare.ts';
export { runDtypes } from './dtypes.ts';
export { runErrors } from './errors.ts';
export { runBackwardConsistency, runGradcheckOracle, runGradgradcheckOracle } from './grad.ts';
export { GradcheckError, type GradcheckOptions, gradcheck, gradgradcheck } from './gradcheck.ts';
export { describeError, type Instance, OracleFailure, type OracleResult, sampleContext } from './instance.ts';
export { applyLayout } from './layouts.ts';
export { runMetadata } from './metadata.ts';
export { runProperty } from './property.ts';
export { runReference } from './reference.ts';
export { metaMirror, toRefSample, withLayout } from './sample_io.ts';
export { DEFAULT_TOLERANCES, toleranceFor } from './tolerances.ts';
