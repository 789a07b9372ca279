export { reproCommand } from '../oracles/index.ts';
export { defineConfig, loadConfig, type OpgateConfig } from './config.ts';
export {
  type CellOutcome,
  cellOutcome,
  deviceConformance,
  type FamilyConformance,
  formatConformance,
  unsupportedPrefix,
} from './conformance.ts';
export {
  type PythonStatus,
  type PythonTally,
  pythonCoverage,
  type SchemaCoverage,
  schemaCoverage,
} from './coverage/index.ts';
export {
  currentPlatform,
  type DisabledEntry,
  disabledBy,
  disabledMessage,
  exportDisabled,
  type FlakeStats,
  flakeStats,
  keyOfTitle,
  kindOfKey,
  listDisabled,
  opKeyOf,
  platformsOfBody,
  readDisabled,
  replaceDisabled,
  rerunEvidence,
  type Verdict,
} from './flaky/index.ts';
export {
  ENV_TRACE_EXPANSIONS,
  expandMatrix,
  type Filters,
  findInstance,
  instanceId,
  type MatrixInstance,
  resultAxes,
  ruleMessage,
  staleRules,
  type Tier,
} from './matrix.ts';
export {
  compareFingerprints,
  DRIFT_RULE,
  drifted,
  type Fingerprint,
  type FingerprintRow,
  numericsFingerprint,
  resolveCommit,
  type UlpChange,
} from './numerics.ts';
export {
  type ChangePoint,
  type ChangeState,
  changePoints,
  type PerfSample,
  recordPerf,
} from './perf/index.ts';
export { type InstanceRecord, PLAN_KEY, type PlanEntry, type RunPlan } from './run/channel.ts';
export { defineMatrixTests, type MatrixFaults } from './run/define.ts';
export { type PlannedRun, planRun, type RunRequest } from './run/plan.ts';
export {
  ENV_TEMPLATE_SLICE,
  sliceOf,
  stratifiedSlice,
  TEMPLATE_SLICES,
  type TemplateSlice,
  templateSlice,
} from './run/slice.ts';
export {
  estimator,
  loadDurations,
  makeUnits,
  parseShard,
  planFor,
  planShards,
  type ShardPlan,
  sampleCounter,
  shardOf,
  type Unit,
} from './shard/index.ts';
export type { ResultsSource } from './store/connection.ts';
export { dbError, withDbErrors } from './store/db_errors.ts';
export { inspectDbFile } from './store/file.ts';
export { type DisabledTestRow, disabledTests, replaceDisabledTests } from './store/flaky.ts';
export { effectiveStatus, isComplete, RUN_STATUSES, type RunStatus } from './store/liveness.ts';
export { type MergeReport, mergeDatabases, shardResults } from './store/merge.ts';
export { SCHEMA_VERSION } from './store/migrations.ts';
export {
  beginMutationRun,
  endMutationRun,
  insertMutant,
  type MutationRunInfo,
} from './store/mutation.ts';
export { type RecentOutcome, type RecentRow, recentRows } from './store/recent.ts';
export {
  DEFAULT_DB,
  type ResultRow,
  type ResultStatus,
  ResultsStore,
  type RunInfo,
  type RunPatch,
  type StoredRun,
} from './store/store.ts';
export {
  type CellFailureRow,
  type CommitRow,
  type CommitTimeRow,
  type CoverageRow,
  cellFailures,
  commitShas,
  commitStamp,
  commitStamps,
  commitTimes,
  coverageCounts,
  disabledSkipsByCommit,
  failingResults,
  gridCounts,
  instanceIds,
  instancesStamp,
  type MutantKill,
  type MutantOutcome,
  type MutantRow,
  type MutationScore,
  maxUlpByCell,
  mutantOutcomeCounts,
  mutantsOf,
  mutationRuns,
  mutationScore,
  openReadOnly,
  outcomesByCommit,
  perfSeriesPoints,
  perfWindowStamp,
  perfWindowStart,
  previousUlpCommit,
  ResultsReader,
  recentCommits,
  type SeriesPoint,
  type ShardRunRow,
  type StoredMutationRun,
  shardRuns,
  shardsOfCommit,
  slowestResults,
  type UlpRow,
  unfinishedRuns,
} from './store/views/index.ts';
export {
  type Counts,
  classOf,
  DEPARTURE_CLASSES,
  type DepartureClass,
  formatTargetReport,
  type TargetReport,
  targetReport,
} from './target_report.ts';
export { type Affected, affectedBy, changedFiles, isAffected } from './td/index.ts';
