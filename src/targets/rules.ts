/**
 * What a target's instance is before it runs, as data: a dtype its tensors cannot hold and an op it has no row for
 * are skips (unsupported, unmapped: they count against its coverage, never as departures); a declared departure
 * (the target's documented semantics) is an xfail, whose unexpected agreement fails.
 */
import type { DType } from '../runtime/index.ts';
import { isTargetName, targetOf } from './registry.ts';
import { isMapped } from './target.ts';

export interface TargetRule {
  readonly kind: 'skip' | 'xfail';
  readonly reason: string;
}

export function targetRule(op: string, device: string, dtype: DType): TargetRule | null {
  if (!isTargetName(device)) return null;
  const t = targetOf(device);
  if (!t.adapter.dtypes.includes(dtype))
    return { kind: 'skip', reason: `unsupported on ${device}: it has no ${dtype} tensors` };
  const row = t.ops[op];
  if (row === undefined) return { kind: 'skip', reason: `unmapped on ${device}: no op row for ${op} yet` };
  if (!isMapped(row)) return { kind: 'skip', reason: `unmapped on ${device}: ${row.unmapped}` };
  const d = t.departures.find((x) => x.op === op && (!x.dtypes || x.dtypes.includes(dtype)));
  return d ? { kind: 'xfail', reason: `documented departure of ${device}: ${d.reason}` } : null;
}
