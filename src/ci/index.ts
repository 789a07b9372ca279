export { ENV_FILTERS, ENV_TIER, filtersFromEnv, tierFromEnv } from './env.ts';
export {
  expandMatrix,
  type Filters,
  findInstance,
  idsIn,
  instanceId,
  type MatrixInstance,
  ruleMatches,
  staleRules,
  type Tier,
} from './matrix.ts';
