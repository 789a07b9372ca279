/**
 * Matrix expansion: OpInfo × oracle × device × dtype × layout × mode -> instances with stable PyTorch-style ids
 * (`test_<oracle>_<op>_<device>_<dtype>_<layout>_<mode>`), tiers, filters, and skip/xfail rules matched as data
 * (a rule that matches nothing is reported as stale).
 */

import { readFileSync } from 'node:fs';
import {
  hashString,
  LAYOUTS,
  type Layout,
  type Mode,
  type OpInfo,
  type Oracle,
  opDb,
  type SkipRule,
} from '../../op_db/index.ts';
import { type Instance, ORACLE_RUNNERS } from '../oracles/index.ts';
import { DTYPES, type DType } from '../runtime/index.ts';

export type Tier = 'pull' | 'full';

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
  /**
   * A file of instance ids (one per line): only those run (a shard's part, a TD selection). A file rather
   * than a list because vitest workers receive filters through the environment, which caps a value's size.
   */
  readonly idsFile?: string;
  /** A file of ids to run first, in each template file (TD `--td order`). */
  readonly priorityFile?: string;
  /** disabled-tests.json: instances it disables are skipped with their issue (quarantine). */
  readonly disabledFile?: string;
  /** rerun-disabled mode: run each selected instance this many times and record the counts. */
  readonly reruns?: number;
}

const idSets = new Map<string, Set<string>>();
/** The ids listed in a file (cached per path). */
export function idsIn(path: string): Set<string> {
  let s = idSets.get(path);
  if (!s) {
    s = new Set(readFileSync(path, 'utf8').split('\n').filter(Boolean));
    idSets.set(path, s);
  }
  return s;
}

export function instanceId(
  oracle: Oracle,
  opName: string,
  device: string,
  dtype: string,
  layout: Layout,
  mode: Mode,
): string {
  return `test_${oracle}_${opName.replace(/\./g, '_')}_${device}_${dtype}_${layout}_${mode}`;
}

interface Axis {
  readonly device: Instance['device'];
  readonly dtypes: (info: OpInfo) => readonly DType[];
  readonly layouts: readonly Layout[];
}

/** Which devices, dtypes and layouts each oracle runs per tier. */
function axes(oracle: Oracle, tier: Tier): Axis[] {
  const claimed = (info: OpInfo) => info.dtypes.cpu;
  const onWebgpu = (info: OpInfo) => info.dtypes.webgpu;
  // The pull tier runs webgpu on the layouts that exercise strides and offsets in the shaders.
  const gpuLayouts: readonly Layout[] = tier === 'full' ? LAYOUTS : ['contiguous', 'transposed', 'offset'];
  switch (oracle) {
    case 'reference':
      return [
        { device: 'cpu', dtypes: claimed, layouts: LAYOUTS },
        { device: 'webgpu', dtypes: onWebgpu, layouts: gpuLayouts },
      ];
    case 'crossbackend':
      return [
        {
          device: 'webgpu',
          dtypes: onWebgpu,
          layouts: tier === 'full' ? LAYOUTS : ['contiguous', 'transposed', 'strided', 'expanded', 'offset'],
        },
      ];
    case 'compile': {
      const f32 = (i: OpInfo, d: 'cpu' | 'webgpu') => {
        const c = i.dtypes[d];
        return c.includes('float32') ? ['float32' as DType] : c.slice(0, 1);
      };
      return tier === 'full'
        ? [
            { device: 'cpu', dtypes: claimed, layouts: ['contiguous', 'transposed', 'expanded'] },
            { device: 'webgpu', dtypes: onWebgpu, layouts: ['contiguous', 'transposed'] },
          ]
        : [
            { device: 'cpu', dtypes: (i) => f32(i, 'cpu'), layouts: ['contiguous', 'transposed'] },
            { device: 'webgpu', dtypes: (i) => f32(i, 'webgpu'), layouts: ['contiguous'] },
          ];
    }
    case 'metadata':
      return [
        {
          device: 'meta',
          dtypes: claimed,
          layouts: tier === 'full' ? LAYOUTS : ['contiguous', 'transposed', 'strided', 'offset'],
        },
        { device: 'webgpu', dtypes: (i) => onWebgpu(i).slice(0, 1), layouts: gpuLayouts },
      ];
    case 'errors':
      return [
        { device: 'cpu', dtypes: (i) => i.dtypes.cpu.slice(0, 1), layouts: ['contiguous'] },
        { device: 'webgpu', dtypes: (i) => onWebgpu(i).slice(0, 1), layouts: ['contiguous'] },
      ];
    case 'dtypes':
      return [
        { device: 'cpu', dtypes: () => DTYPES, layouts: ['contiguous'] },
        { device: 'meta', dtypes: () => DTYPES, layouts: ['contiguous'] },
      ];
    case 'gradcheck':
    case 'gradgradcheck':
      // float64 only; the expanded layout is excluded because gradcheck refuses stride-0 inputs, like PyTorch.
      return [
        {
          device: 'cpu',
          dtypes: float64If,
          layouts: tier === 'full' ? LAYOUTS.filter((l) => l !== 'expanded') : ['contiguous', 'transposed'],
        },
      ];
    case 'backward':
      return [
        {
          device: 'cpu',
          dtypes: float64If,
          layouts:
            tier === 'full'
              ? LAYOUTS.filter((l) => l !== 'contiguous')
              : ['transposed', 'strided', 'expanded'],
        },
      ];
    case 'property':
      return [
        {
          device: 'cpu',
          dtypes: (i) =>
            tier === 'full' ? claimed(i) : claimed(i).filter((d) => d === 'float32' || d === 'int64'),
          layouts: ['contiguous'],
        },
      ];
    default:
      return [];
  }
}

/** Autograd oracles run in float64, where the OpInfo claims backward support for it. */
const float64If = (info: OpInfo): readonly DType[] =>
  info.backwardDtypes.cpu.includes('float64') ? ['float64'] : [];

function applies(info: OpInfo, oracle: Oracle): boolean {
  if (oracle === 'gradcheck' || oracle === 'backward') return info.flags.supportsAutograd;
  if (oracle === 'gradgradcheck') return info.flags.supportsAutograd && info.flags.supportsGradgrad;
  if (oracle === 'reference') return info.ref !== null;
  if (oracle === 'compile') return info.flags.supportsCompile;
  if (oracle === 'property') return info.ref !== null && info.arbitrary !== null;
  if (oracle === 'errors')
    return (
      info.errorInputs({
        device: 'cpu',
        dtype: info.dtypes.cpu[0] ?? 'float32',
        requiresGrad: false,
        seed: 0,
      }).length > 0
    );
  return true;
}

/**
 * What a skipped or xfailed instance stores as its message: the rule's reason, and its issue when it has one
 * (`reason (issue #12)`; the dashboards parse it back out).
 */
export function ruleMessage(rule: SkipRule): string {
  return rule.issue ? `${rule.reason} (issue #${rule.issue})` : rule.reason;
}

export function ruleMatches(
  r: SkipRule,
  i: { oracle: Oracle; device: string; dtype: string; layout: Layout; mode: Mode },
): boolean {
  return (
    (r.oracle === undefined || r.oracle === i.oracle) &&
    (r.device === undefined || r.device === i.device) &&
    (r.dtype === undefined || r.dtype === i.dtype) &&
    (r.layout === undefined || r.layout === i.layout) &&
    (r.mode === undefined || r.mode === i.mode)
  );
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
  if (f.idsFile && !idsIn(f.idsFile).has(i.id)) return false;
  if (f.pattern) {
    const m = /^\/(.*)\/$/.exec(f.pattern);
    if (m ? !new RegExp(m[1]).test(i.id) : !i.id.includes(f.pattern)) return false;
  }
  return true;
}

export function expandMatrix(
  tier: Tier,
  filters: Filters = {},
  db: readonly OpInfo[] = opDb,
): MatrixInstance[] {
  const out: MatrixInstance[] = [];
  for (const info of db) {
    for (const oracle of Object.keys(ORACLE_RUNNERS) as Oracle[]) {
      if (!applies(info, oracle)) continue;
      for (const axis of axes(oracle, tier)) {
        for (const dtype of axis.dtypes(info)) {
          for (const layout of axis.layouts) {
            const mode: Mode = oracle === 'compile' ? 'compile' : 'eager';
            const id = instanceId(oracle, info.name, axis.device, dtype, layout, mode);
            const key = { oracle, device: axis.device, dtype, layout, mode };
            const rule = info.skips.find((r) => ruleMatches(r, key)) ?? null;
            const inst: MatrixInstance = {
              id,
              oracle,
              info,
              op: info.name,
              device: axis.device,
              dtype,
              layout,
              mode,
              seed: hashString(id),
              rule,
            };
            if (passes(filters, inst)) out.push(inst);
          }
        }
      }
    }
  }
  return out;
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
