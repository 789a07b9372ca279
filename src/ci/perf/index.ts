export {
  acceptBaseline,
  type CheckRow,
  checkBaseline,
  DEFAULT_MARGIN,
  type Expected,
  type ExpectedEntry,
  failing,
  formatCheck,
  readExpected,
  writeExpected,
} from './baseline.ts';
export {
  bundleRegion,
  type Count,
  countOnce,
  inclusiveByFunction,
  listScenarios,
  measure,
  NODE_FLAGS,
  type ScenarioInfo,
  VALGRIND_FLAGS,
  valgrindAvailable,
} from './callgrind.ts';
export { type ChangePoint, type ChangeState, changePoints, welchT } from './changepoint.ts';
export { type FunctionDelta, type PerfSample, perfDiff, perfHistory, recordPerf } from './record.ts';
