/** The matrix selection passed to vitest workers through the environment (set by `opgate run`). */
import type { Filters, Tier } from './matrix.ts';

export const ENV_TIER = 'OPGATE_TIER';
export const ENV_FILTERS = 'OPGATE_FILTERS';

export function tierFromEnv(env: NodeJS.ProcessEnv = process.env): Tier {
  return env[ENV_TIER] === 'full' ? 'full' : 'pull';
}

export function filtersFromEnv(env: NodeJS.ProcessEnv = process.env): Filters {
  const raw = env[ENV_FILTERS];
  return raw ? (JSON.parse(raw) as Filters) : {};
}
