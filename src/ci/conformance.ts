/**
 * A device's conformance per op family, against the backend ruler: every (op, dtype) the cpu backend claims. A
 * cell of the ruler passes on a device when its instances there pass (fails when one fails); a registered device's
 * cells without a kernel or a dtype it computes are unsupported (skips whose reason says so, never failures), and
 * count against its score as much as a failing cell does. `opgate run --device <registered device>` prints it; the
 * dashboards' coverage view shows the same breakdown.
 */
import { type OpInfo, opDb } from '../../op_db/index.ts';

/** The reason a registered device's unsupported instance is skipped with starts with this. */
export const unsupportedPrefix = (device: string): string => `unsupported on ${device}:`;

export type CellOutcome = 'pass' | 'fail' | 'unsupported' | 'skip' | 'none';

/** A cell's outcome from its instances' statuses (`unsupported`: skips with the device's unsupported reason). */
export function cellOutcome(n: Readonly<Record<string, number>>): CellOutcome {
  if ((n.fail ?? 0) + (n.error ?? 0) + (n.xpass ?? 0) + (n.flaky ?? 0) > 0) return 'fail';
  if (n.pass) return 'pass';
  if (n.unsupported) return 'unsupported';
  if (n.skip || n.xfail) return 'skip';
  return 'none';
}

export interface FamilyConformance {
  readonly family: string;
  /** Ops of the family that ran, and those whose every ruler cell passed. */
  readonly ops: number;
  readonly opsPassing: number;
  /** Instances by outcome. */
  readonly instances: { pass: number; fail: number; unsupported: number; skip: number };
  /** (op, dtype) cells of the ruler, and how many passed. */
  readonly ruler: number;
  readonly pass: number;
  readonly score: number;
}

interface Row {
  readonly op: string;
  readonly device: string;
  readonly dtype: string;
  readonly status: string;
  readonly message: string | null;
}

const instanceBucket = (r: Row): keyof FamilyConformance['instances'] =>
  r.status === 'pass'
    ? 'pass'
    : r.status === 'skip' && r.message?.startsWith(unsupportedPrefix(r.device))
      ? 'unsupported'
      : r.status === 'skip' || r.status === 'xfail'
        ? 'skip'
        : 'fail';

/** The device's conformance per family over the ops of `rows` (a filtered run measures what it ran), then a total. */
export function deviceConformance(
  rows: readonly Row[],
  device: string,
  db: readonly OpInfo[] = opDb,
): FamilyConformance[] {
  const info = new Map(db.map((i) => [i.name, i]));
  const byOp = new Map<string, Map<string, Record<string, number>>>();
  const families = new Map<string, FamilyConformance & { instances: Record<string, number> }>();
  const familyOf = (op: string) => {
    const family = info.get(op)?.family ?? 'other';
    let f = families.get(family);
    if (!f) {
      f = {
        family,
        ops: 0,
        opsPassing: 0,
        instances: { pass: 0, fail: 0, unsupported: 0, skip: 0 },
        ruler: 0,
        pass: 0,
        score: 0,
      };
      families.set(family, f);
    }
    return f;
  };
  for (const r of rows) {
    if (r.device !== device) continue;
    const bucket = instanceBucket(r);
    familyOf(r.op).instances[bucket]++;
    const cells = byOp.get(r.op) ?? new Map<string, Record<string, number>>();
    byOp.set(r.op, cells);
    const n = cells.get(r.dtype) ?? {};
    cells.set(r.dtype, n);
    const status = bucket === 'unsupported' ? 'unsupported' : r.status;
    n[status] = (n[status] ?? 0) + 1;
  }
  for (const [op, cells] of byOp) {
    const f = familyOf(op) as { -readonly [K in keyof FamilyConformance]: FamilyConformance[K] };
    const ruler = info.get(op)?.dtypes.cpu ?? [...cells.keys()];
    const passing = ruler.filter((d) => cellOutcome(cells.get(d) ?? {}) === 'pass').length;
    f.ops++;
    f.ruler += ruler.length;
    f.pass += passing;
    if (ruler.length > 0 && passing === ruler.length) f.opsPassing++;
  }
  const out = [...families.values()]
    .map((f) => ({ ...f, score: f.ruler ? f.pass / f.ruler : 0 }))
    .sort((a, b) => a.family.localeCompare(b.family));
  const total = {
    family: 'total',
    ops: 0,
    opsPassing: 0,
    ruler: 0,
    pass: 0,
    score: 0,
    instances: { pass: 0, fail: 0, unsupported: 0, skip: 0 },
  };
  for (const f of out) {
    total.ops += f.ops;
    total.opsPassing += f.opsPassing;
    total.ruler += f.ruler;
    total.pass += f.pass;
    for (const k of ['pass', 'fail', 'unsupported', 'skip'] as const) total.instances[k] += f.instances[k];
  }
  return [...out, { ...total, score: total.ruler ? total.pass / total.ruler : 0 }];
}

/** The table `opgate run --device <device>` prints. */
export function formatConformance(device: string, table: readonly FamilyConformance[]): string {
  const head = [
    'family',
    'ops',
    'ops passing',
    'passed',
    'failed',
    'unsupported',
    'skipped',
    'pass / ruler',
    'score',
  ];
  const lines = table.map((f) => [
    f.family,
    String(f.ops),
    String(f.opsPassing),
    String(f.instances.pass),
    String(f.instances.fail),
    String(f.instances.unsupported),
    String(f.instances.skip),
    `${f.pass} / ${f.ruler}`,
    `${(100 * f.score).toFixed(1)}%`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells: readonly string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [
    `${device}: conformance per op family (instances; the ruler is every (op, dtype) cpu claims)`,
    fmt(head),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...lines.slice(0, -1).map(fmt),
    widths.map((w) => '-'.repeat(w)).join('  '),
    fmt(lines[lines.length - 1]),
  ].join('\n');
}
