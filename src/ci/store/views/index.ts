/** The dashboards' read API: the read-only reader and the queries behind each view. */

export {
  type MutantKill,
  type MutantOutcome,
  type MutantRow,
  type MutationScore,
  mutantsOf,
  mutationRuns,
  mutationScore,
  type StoredMutationRun,
} from '../mutation.ts';
export { openReadOnly, ResultsReader } from '../reader.ts';
export {
  type CommitRow,
  commitShas,
  commitStamp,
  commitStamps,
  recentCommits,
  shardsOfCommit,
} from './commits.ts';
export { type CoverageRow, coverageCounts } from './coverage.ts';
export { disabledSkipsByCommit } from './flaky.ts';
export { type CellFailureRow, cellFailures, failingResults, gridCounts, unfinishedRuns } from './grid.ts';
export { mutantOutcomeCounts, type OutcomeCount } from './mutation.ts';
export { maxUlpByCell, previousUlpCommit, type UlpRow } from './numerics.ts';
export { perfSeriesPoints, perfWindowStamp, perfWindowStart, type SeriesPoint } from './perf.ts';
export { type CommitTimeRow, commitTimes, type ShardRunRow, shardRuns, slowestResults } from './shards.ts';
export { latestTargetRun, type TargetResultRow, type TargetRun, targetResults } from './targets.ts';
export { instanceIds, instancesStamp, outcomesByCommit } from './tests.ts';
