/**
 * `opgate report --target <name>`: what a foreign runtime's newest run found, per op and per dtype, in the classes
 * a runtime maintainer acts on: agree (PyTorch's recorded result), differ (values, dtype, shape or output count),
 * error-mismatch (refuses what PyTorch computes, or accepts what PyTorch refuses), documented (a declared departure
 * of the target), unmapped (no counterpart), unsupported (a dtype it has no tensors of, or samples its API cannot
 * express), error (could not be judged).
 */
import { targetOf } from '../targets/index.ts';
import type { ResultsSource } from './store/connection.ts';
import { latestTargetRun, type TargetResultRow, type TargetRun, targetResults } from './store/views/index.ts';

export const DEPARTURE_CLASSES = [
  'agree',
  'differ',
  'error-mismatch',
  'documented',
  'unmapped',
  'unsupported',
  'error',
] as const;
export type DepartureClass = (typeof DEPARTURE_CLASSES)[number];

/** A result's class (the golden oracle on a target opens each failure with its kind: [values], [refuses], ...). */
export function classOf(r: Pick<TargetResultRow, 'status' | 'message'>): DepartureClass {
  const m = r.message ?? '';
  if (r.status === 'pass') return 'agree';
  if (r.status === 'xfail') return 'documented';
  if (r.status === 'fail' || r.status === 'xpass')
    return /\[(refuses|accepts|known-bug)\]/.test(m) ? 'error-mismatch' : 'differ';
  if (r.status === 'skip') return m.startsWith('unmapped on') ? 'unmapped' : 'unsupported';
  return 'error';
}

export type Counts = Record<DepartureClass, number>;
const zero = (): Counts => Object.fromEntries(DEPARTURE_CLASSES.map((c) => [c, 0])) as Counts;

export interface Departure {
  readonly id: string;
  readonly op: string;
  readonly dtype: string;
  readonly cls: DepartureClass;
  readonly sample: number | null;
  readonly message: string;
}

export interface TargetReport {
  readonly target: string;
  readonly packages: readonly string[];
  readonly run: TargetRun;
  /** op_db ops with a row that calls the target / declared unmapped / no row yet (from the target's rows). */
  readonly ops: { readonly mapped: number; readonly unmapped: number };
  readonly total: Counts;
  readonly byOp: Readonly<Record<string, Counts>>;
  readonly byDtype: Readonly<Record<string, Counts>>;
  /** Agreement among the instances judged (agree / (agree + differ + error-mismatch)). */
  readonly agreePct: number;
  readonly departures: readonly Departure[];
}

export function targetReport(db: ResultsSource, target: string): TargetReport | null {
  const run = latestTargetRun(db, target);
  if (!run) return null;
  const rows = targetResults(db, run.runId, target);
  const total = zero();
  const byOp: Record<string, Counts> = {};
  const byDtype: Record<string, Counts> = {};
  const departures: Departure[] = [];
  for (const r of rows) {
    const cls = classOf(r);
    total[cls]++;
    for (const [by, key] of [
      [byOp, r.op],
      [byDtype, r.dtype],
    ] as const) {
      by[key] ??= zero();
      by[key][cls]++;
    }
    if (cls === 'differ' || cls === 'error-mismatch')
      departures.push({
        id: r.id,
        op: r.op,
        dtype: r.dtype,
        cls,
        sample: r.sample,
        message: r.message ?? '',
      });
  }
  const t = targetOf(target);
  const rowsOf = Object.values(t.ops);
  const judged = total.agree + total.differ + total['error-mismatch'];
  return {
    target,
    packages: t.adapter.packages,
    run,
    ops: {
      mapped: rowsOf.filter((x) => 'call' in x).length,
      unmapped: rowsOf.filter((x) => 'unmapped' in x).length,
    },
    total,
    byOp,
    byDtype,
    agreePct: judged ? (100 * total.agree) / judged : 0,
    departures,
  };
}

function table(title: string, rows: Readonly<Record<string, Counts>>, only: (c: Counts) => boolean): string {
  const names = Object.keys(rows).filter((k) => only(rows[k]));
  const w = Math.max(title.length, ...names.map((n) => n.length));
  const head = [title.padEnd(w), ...DEPARTURE_CLASSES.map((c) => c.padStart(c.length))].join('  ');
  const lines = names.map((n) =>
    [n.padEnd(w), ...DEPARTURE_CLASSES.map((c) => String(rows[n][c]).padStart(c.length))].join('  '),
  );
  return [head, '-'.repeat(head.length), ...lines].join('\n');
}

export function formatTargetReport(r: TargetReport, allOps = false): string {
  const judged = (c: Counts) =>
    allOps || c.agree + c.differ + c['error-mismatch'] + c.documented + c.error > 0;
  const d = (cls: DepartureClass) => r.departures.filter((x) => x.cls === cls).length;
  return [
    `${r.target} (${r.packages.join(', ')}): run ${r.run.runId} at ${r.run.commitSha.slice(0, 12)}, ${r.run.tier} tier`,
    `op rows: ${r.ops.mapped} mapped, ${r.ops.unmapped} unmapped with a reason (op_db's other ops have no row yet)`,
    `instances: ${Object.values(r.total).reduce((a, b) => a + b, 0)}; judged ${r.total.agree + r.total.differ + r.total['error-mismatch']}: ${r.agreePct.toFixed(1)}% agree; departures: ${d('differ')} differ, ${d('error-mismatch')} error-mismatch; ${r.total.documented} documented`,
    '',
    table('op', r.byOp, judged),
    '',
    table('dtype', r.byDtype, () => true),
    '',
    ...r.departures.slice(0, 40).map((x) => `${x.cls.padEnd(14)} ${x.message.split('\n')[0]}`),
  ].join('\n');
}
