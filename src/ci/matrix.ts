/**
 * Matrix expansion: OpInfo × oracle × device × dtype × layout × mode -> instances with stable PyTorch-style ids
 * (`test_<oracle>_<op>_<device>_<dtype>_<layout>_<mode>`), tiers, filters, and skip/xfail rules matched as data
 * (a rule that matches nothing is reported as stale).
 */

import { appendFileSync } from 'node:fs';
import {
  hashString,
  type Layout,
  type OpInfo,
  type Oracle,
  opDb,
  ruleMatches,
  type SkipRule,
} from '../../op_db/index.ts';
import { type Instance, instanceId, ORACLE_TABLE, oracleRecords, type Tier } from '../oracles/index.ts';
import { deviceDTypes, isRegisteredDevice } from '../runtime/index.ts';
import { targetRule } from '../targets/index.ts';

export type { Tier };
export { instanceId };

/**
 * `OPGATE_TRACE_EXPANSIONS=<file>`: every expansion appends a line (pid, tier, filters) to the file, in the main
 * process and in vitest workers alike; the test that a run expands its matrix once counts them.
 */
export const ENV_TRACE_EXPANSIONS = 'OPGATE_TRACE_EXPANSIONS';

export interface MatrixInstance extends Instance {
  readonly op: string;
  /** The matching skip/xfail rule, if any. */
  readonly rule: SkipRule | null;
}

/** The columns of a result row that its instance fixes (the rest is the outcome). */
export const resultAxes = (i: MatrixInstance) => ({
  id: i.id,
  op: i.op,
  oracle: i.oracle,
  device: i.device,
  dtype: i.dtype,
  layout: i.layout,
  mode: i.mode,
});

export interface Filters {
  readonly op?: readonly string[];
  readonly device?: readonly string[];
  readonly dtype?: readonly string[];
  readonly oracle?: readonly string[];
  readonly layout?: readonly string[];
  readonly mode?: readonly string[];
  /** Substring or /regex/ matched against the id. */
  readonly pattern?: string;
}

/**
 * What a skipped or xfailed instance stores as its message: the rule's reason, and its issue when it has one
 * (`reason (issue #12)`; the dashboards parse it back out).
 */
export function ruleMessage(rule: SkipRule): string {
  return rule.issue ? `${rule.reason} (issue #${rule.issue})` : rule.reason;
}

function passes(f: Filters, i: MatrixInstance): boolean {
  const inList = (list: readonly string[] | undefined, v: string) =>
    !list || list.length === 0 || list.includes(v);
  if (!inList(f.op, i.info.name) && !(f.op ?? []).includes(i.info.op)) return false;
  if (
    !inList(f.device, i.device) ||
    !inList(f.dtype, i.dtype) ||
    !inList(f.oracle, i.oracle) ||
    !inList(f.layout, i.layout) ||
    !inList(f.mode, i.mode)
  )
    return false;
  if (f.pattern) {
    const m = /^\/(.*)\/$/.exec(f.pattern);
    if (m ? !new RegExp(m[1]).test(i.id) : !i.id.includes(f.pattern)) return false;
  }
  return true;
}

/** One instance of the matrix, with its id, seed and matching skip/xfail rule (no filtering, no expansion). */
export function matrixInstance(
  info: OpInfo,
  oracle: Oracle,
  device: Instance['device'],
  dtype: Instance['dtype'],
  layout: Layout,
): MatrixInstance {
  const mode = ORACLE_TABLE[oracle].mode;
  const id = instanceId(oracle, info.name, device, dtype, layout, mode);
  const rule =
    info.skips.find((r) => ruleMatches(r, { oracle, device, dtype, layout, mode })) ??
    unsupportedDType(device, dtype) ??
    targetRule(info.name, device, dtype);
  return { id, oracle, info, op: info.name, device, dtype, layout, mode, seed: hashString(id), rule };
}

/**
 * A registered device is measured against every dtype cpu claims; those it does not compute (its spec's `dtypes`)
 * are skipped as unsupported there, so they count against its score without running or failing.
 */
function unsupportedDType(device: Instance['device'], dtype: Instance['dtype']): SkipRule | null {
  if (!isRegisteredDevice(device) || deviceDTypes().includes(dtype)) return null;
  return {
    kind: 'skip',
    device,
    dtype,
    reason: `unsupported on ${device}: the device does not compute ${dtype}`,
  };
}

export function expandMatrix(
  tier: Tier,
  filters: Filters = {},
  db: readonly OpInfo[] = opDb,
): MatrixInstance[] {
  const trace = process.env[ENV_TRACE_EXPANSIONS];
  if (trace) appendFileSync(trace, `${process.pid} ${tier} ${JSON.stringify(filters)}\n`);
  const out: MatrixInstance[] = [];
  for (const info of db) {
    for (const record of oracleRecords()) {
      if (filters.oracle?.length && !filters.oracle.includes(record.name)) continue;
      if (!record.applies(info)) continue;
      for (const axis of record.axes(tier)) {
        for (const dtype of axis.dtypes(info)) {
          for (const layout of axis.layouts) {
            const inst = matrixInstance(info, record.name, axis.device, dtype, layout);
            if (passes(filters, inst)) out.push(inst);
          }
        }
      }
    }
  }
  return out;
}

/** The tier's instances of the named OpInfos, by id (a worker process expands only the ops of its job). */
export function instancesById(tier: Tier, ops: readonly string[]): Map<string, MatrixInstance> {
  const names = new Set(ops);
  return new Map(
    expandMatrix(
      tier,
      {},
      opDb.filter((o) => names.has(o.name)),
    ).map((i) => [i.id, i]),
  );
}

/** Skip/xfail rules that match no instance of the full matrix (stale data to clean up). */
export function staleRules(db: readonly OpInfo[] = opDb): { op: string; rule: SkipRule }[] {
  const all = expandMatrix('full', {}, db);
  const stale: { op: string; rule: SkipRule }[] = [];
  for (const info of db) {
    for (const rule of info.skips) {
      if (!all.some((i) => i.info === info && i.rule === rule)) stale.push({ op: info.name, rule });
    }
  }
  return stale;
}

export function findInstance(id: string): MatrixInstance | undefined {
  return expandMatrix('full', { pattern: id }).find((i) => i.id === id);
}
