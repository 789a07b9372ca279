/** Schema coverage: PyTorch 1.13's aten overloads of op_db's ops against the runtime and op_db's samples. */
export { ATEN_SCHEMAS, type AtenOverloads, atenOverloadsOf, atenSchemas, isTorchScriptOnly } from './aten.ts';
export { type BoundCall, callsOfSample, DEFAULT_SEEDS, sampleCalls, samplesOf } from './calls.ts';
export {
  type ArgCoverage,
  atenBaseOf,
  type CoverageOptions,
  type OpCoverage,
  type OverloadCoverage,
  type OverloadStatus,
  type SchemaCoverage,
  schemaCoverage,
  type Tally,
} from './compute.ts';
export { coverageOk, formatCoverage, formatPythonCoverage, pythonCoverageOk } from './format.ts';
export {
  type KeywordCoverage,
  type PythonCall,
  type PythonCoverage,
  type PythonStatus,
  type PythonTally,
  pythonCalls,
  pythonCallsOfSample,
  pythonCoverage,
  type SignatureCoverage,
  spellingsOf,
} from './python.ts';
export {
  accepts,
  bindPython,
  PYTHON_SIGNATURES,
  type PyParam,
  type PySignature,
  parseParams,
  pythonSignatures,
} from './python_signatures.ts';
