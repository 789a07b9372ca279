/**
 * The template slice: what the matrix templates run under plain vitest (`npm test`), where no `opgate run` plan
 * is provided. `stratified` (the default) is a slice of the pull tier that keeps its breadth at a fraction of its
 * cost: every (op, oracle, device) of the tier at least once, and within each (oracle, device) every dtype and
 * every layout the tier has there (each oracle has one mode, so every mode too). `full` (OPGATE_TEMPLATE_SLICE=full)
 * is the whole pull tier, as `opgate run` and CI's sharded pull jobs run it; they never read this setting.
 *
 * The pick is a pure function of the tier's instances (their ids and rules): per (op, device) group in expansion
 * order, the instance that runs (no rule, then an xfail, then a skip) and adds the most dtypes and layouts not yet
 * covered on its (oracle, device), ties broken by a hash of the id, so consecutive ops spread over the values.
 */
import { hashString } from '../../../op_db/index.ts';
import { CiError } from '../errors.ts';
import type { MatrixInstance } from '../matrix.ts';

/** The environment variable that names the template slice. */
export const ENV_TEMPLATE_SLICE = 'OPGATE_TEMPLATE_SLICE';
export const TEMPLATE_SLICES = ['stratified', 'full'] as const;
export type TemplateSlice = (typeof TEMPLATE_SLICES)[number];

/** The slice OPGATE_TEMPLATE_SLICE names (unset or empty: stratified); any other value is E_INVALID_ARGUMENT. */
export function templateSlice(env: NodeJS.ProcessEnv = process.env): TemplateSlice {
  const v = env[ENV_TEMPLATE_SLICE];
  if (v === undefined || v === '') return 'stratified';
  if ((TEMPLATE_SLICES as readonly string[]).includes(v)) return v as TemplateSlice;
  throw new CiError(
    'E_INVALID_ARGUMENT',
    `${ENV_TEMPLATE_SLICE}: got '${v}', expected one of ${TEMPLATE_SLICES.join(', ')}`,
  );
}

/** How much an instance runs: a plain one checks, an xfail checks its rule still holds, a skip runs nothing. */
const runRank = (i: MatrixInstance) => (i.rule === null ? 0 : i.rule.kind === 'xfail' ? 1 : 2);

/** The values of an instance the slice must keep per (oracle, device). */
const valuesOf = (i: MatrixInstance) => [`dtype=${i.dtype}`, `layout=${i.layout}`];
const stratum = (i: MatrixInstance) => `${i.oracle}@${i.device}`;

/**
 * The stratified slice of `instances` (any tier's, any oracles'), in their order: at least one instance per
 * (op, oracle, device), and every dtype and layout of each (oracle, device).
 */
export function stratifiedSlice(instances: readonly MatrixInstance[]): MatrixInstance[] {
  const groups = new Map<string, MatrixInstance[]>();
  for (const i of instances) {
    const key = `${i.op}@${i.oracle}@${i.device}`;
    const g = groups.get(key);
    if (g) g.push(i);
    else groups.set(key, [i]);
  }
  const hash = new Map(instances.map((i) => [i, hashString(i.id)]));
  const covered = new Map<string, Set<string>>();
  const seen = (i: MatrixInstance) => {
    const s = covered.get(stratum(i)) ?? new Set<string>();
    covered.set(stratum(i), s);
    return s;
  };
  const picked = new Set<MatrixInstance>();
  const take = (i: MatrixInstance) => {
    picked.add(i);
    for (const v of valuesOf(i)) seen(i).add(v);
  };
  const fresh = (i: MatrixInstance) => valuesOf(i).filter((v) => !seen(i).has(v)).length;
  const better = (a: MatrixInstance, b: MatrixInstance) =>
    runRank(a) - runRank(b) || fresh(b) - fresh(a) || (hash.get(a) ?? 0) - (hash.get(b) ?? 0);
  for (const members of groups.values()) take(members.reduce((x, y) => (better(y, x) < 0 ? y : x)));
  // A value the greedy pass left out (the tier has it on few ops): one instance that has it, chosen the same way.
  for (const i of instances) {
    for (const v of valuesOf(i)) {
      if (seen(i).has(v)) continue;
      const carriers = instances.filter((j) => stratum(j) === stratum(i) && valuesOf(j).includes(v));
      take(carriers.reduce((x, y) => (better(y, x) < 0 ? y : x)));
    }
  }
  return instances.filter((i) => picked.has(i));
}

/** The instances a template runs under plain vitest: `instances` itself when `slice` is full. */
export function sliceOf(instances: readonly MatrixInstance[], slice: TemplateSlice): MatrixInstance[] {
  return slice === 'full' ? [...instances] : stratifiedSlice(instances);
}
