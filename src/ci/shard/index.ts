export { estimator, sampleCounter } from './estimate.ts';
export { loadDurations } from './history.ts';
export {
  type Durations,
  makeUnits,
  type PlanOptions,
  parseShard,
  planShards,
  type ShardPlan,
  type Unit,
} from './plan.ts';
export { planFor, shardOf } from './select.ts';
