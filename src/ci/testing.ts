/**
 * The testing face of the opgate package (`import ... from 'opgate/testing'`): what a project outside this tree
 * needs to test its own ops the way op_db tests the built-in ones. OpInfo builders and sample families (op_db),
 * `opcheck` (torch.library.opcheck's checks), the config file's types (OpInfos, devices, perf scenarios) and
 * the matrix templates (`defineMatrixTests`, for a project that runs an oracle's instances in its own vitest).
 * The runtime itself is the package's main face (`import ... from 'opgate'`).
 */
export {
  type BinaryOptions,
  type BinarySpec,
  binaryErrors,
  binaryOpInfo,
  binarySamples,
  type ErrorInput,
  elementwise,
  floatSpec,
  LAYOUTS,
  type Layout,
  type MakeOptions,
  type Maker,
  maker,
  type OpInfo,
  type OpInfoSpec,
  ORACLES,
  type Oracle,
  opInfo,
  type ReductionSpec,
  type RefFn,
  type RefSample,
  reductionSamples,
  type SampleContext,
  type SampleInput,
  type SkipRule,
  sample,
  type Tolerance,
  type UnaryOptions,
  type UnarySpec,
  unaryErrors,
  unaryOpInfo,
  unarySamples,
} from '../../op_db/index.ts';
export {
  OpcheckError,
  type OpcheckName,
  type OpcheckOptions,
  type OpcheckOutcome,
  type OpcheckSample,
  opcheck,
} from '../oracles/index.ts';
export { defineConfig, type OpgateConfig } from './config.ts';
export type { PerfScenario } from './perf/region.ts';
export { defineMatrixTests, type MatrixFaults } from './run/define.ts';
