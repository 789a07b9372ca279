/**
 * The targets page: per foreign runtime (src/targets), its newest run's classes (agree, differ, error-mismatch,
 * documented, unmapped, unsupported) and each departure with the sample, PyTorch's value and the target's side by
 * side, and the command that repeats it. One run's results per target (its newest), whatever the history.
 */
import { type DepartureClass, type TargetReport, targetReport } from '../../src/ci/index.ts';
import { targetNames } from '../../src/targets/index.ts';
import type { ReadDb } from './db.ts';

export interface TargetDeparture {
  readonly id: string;
  readonly op: string;
  readonly dtype: string;
  readonly cls: DepartureClass;
  /** The kind the oracle named: values, dtype, shape, outputs, refuses, accepts, known-bug. */
  readonly kind: string;
  readonly sample: string;
  readonly pytorch: string;
  readonly target: string;
  readonly repro: string;
}

export interface TargetSummary extends Omit<TargetReport, 'departures' | 'byOp' | 'byDtype'> {
  readonly byDtype: TargetReport['byDtype'];
  readonly departures: readonly TargetDeparture[];
}

export interface TargetsData {
  readonly targets: readonly TargetSummary[];
  /** Targets opgate knows that no run in the database has judged yet. */
  readonly notRun: readonly string[];
}

/** PyTorch's side and the target's, as the failure message gives them. */
function sides(kind: string, detail: string, target: string): { pytorch: string; target: string } {
  const m =
    /gives (.+), PyTorch (\S+) \(rtol/.exec(detail) ??
    /(?:dtype|shape) (.+) on \S+, PyTorch gives (.+)$/.exec(detail) ??
    /gives (\d+) outputs, PyTorch (\d+)/.exec(detail);
  if (m) return { target: m[1], pytorch: m[2] };
  if (kind === 'refuses')
    return {
      pytorch: 'a result',
      target: detail.replace(`${target} raised `, 'raises ').replace(/; PyTorch returns a result$/, ''),
    };
  if (kind === 'accepts') {
    const a = /PyTorch raises (.+); \S+ returned (.+)$/.exec(detail);
    if (a) return { pytorch: `raises ${a[1]}`, target: `returned ${a[2]}` };
  }
  return { pytorch: '', target: detail };
}

export function targetsData(db: ReadDb): TargetsData {
  const targets: TargetSummary[] = [];
  const notRun: string[] = [];
  for (const name of targetNames()) {
    const r = targetReport(db, name);
    if (!r) {
      notRun.push(name);
      continue;
    }
    const departures = r.departures.map((d): TargetDeparture => {
      const first = d.message.split('\n')[0];
      const m = /\(seed \d+\): \[([a-z-]+)\] (.*)$/.exec(first);
      const kind = m?.[1] ?? '';
      const detail = m?.[2] ?? first;
      const sample = /: (sample #\d+.*?) failed \(seed/.exec(first)?.[1] ?? '';
      const repro = /repro: (.+)$/m.exec(d.message)?.[1] ?? '';
      return {
        id: d.id,
        op: d.op,
        dtype: d.dtype,
        cls: d.cls,
        kind,
        sample,
        ...sides(kind, detail, name),
        repro,
      };
    });
    const { byOp: _byOp, ...rest } = r;
    targets.push({ ...rest, departures });
  }
  return { targets, notRun };
}
