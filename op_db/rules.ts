/** Whether a skip or xfail rule applies to an instance: each field the rule leaves out matches anything. */
import type { Layout, Mode, Oracle, SkipRule } from './types.ts';

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
