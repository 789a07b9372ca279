/** JUnit XML for CI systems that render test reports (one testsuite per oracle). */
import type { ResultRow } from '../store/store.ts';

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function toJUnit(rows: readonly ResultRow[]): string {
  const suites = new Map<string, ResultRow[]>();
  for (const r of rows) suites.set(r.oracle, [...(suites.get(r.oracle) ?? []), r]);
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', '<testsuites name="opgate">'];
  for (const [oracle, rs] of suites) {
    const failures = rs.filter((r) => r.status === 'fail' || r.status === 'xpass').length;
    const errors = rs.filter((r) => r.status === 'error').length;
    const skipped = rs.filter((r) => r.status === 'skip' || r.status === 'xfail').length;
    const time = rs.reduce((a, r) => a + r.durationMs, 0) / 1000;
    out.push(
      `  <testsuite name="${esc(oracle)}" tests="${rs.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${time.toFixed(3)}">`,
    );
    for (const r of rs) {
      out.push(
        `    <testcase classname="opgate.${esc(r.oracle)}.${esc(r.op)}" name="${esc(r.id)}" time="${(r.durationMs / 1000).toFixed(4)}">`,
      );
      if (r.status === 'fail' || r.status === 'xpass')
        out.push(
          `      <failure message="${esc((r.message ?? r.status).split('\n')[0])}">${esc(r.message ?? '')}</failure>`,
        );
      else if (r.status === 'error')
        out.push(
          `      <error message="${esc((r.message ?? '').split('\n')[0])}">${esc(r.message ?? '')}</error>`,
        );
      else if (r.status === 'skip' || r.status === 'xfail')
        out.push(`      <skipped message="${r.status}"/>`);
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}
