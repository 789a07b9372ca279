/**
 * A Markdown summary for `$GITHUB_STEP_SUMMARY`: totals, the per-(oracle, device) table and the first failures
 * with their repro commands. Ids and messages are put in code spans/blocks so their text renders inert.
 */
import { reproCommand } from '../../oracles/index.ts';
import type { ResultRow } from '../store/store.ts';
import type { Summary } from './summary.ts';

const code = (s: string) => `\`${s.replace(/`/g, "'")}\``;

export function toMarkdown(
  s: Summary,
  rows: readonly ResultRow[],
  title = 'opgate conformance matrix',
  maxFailures = 20,
): string {
  const status = s.failed + s.xpassed + s.errors > 0 ? '❌' : '✅';
  const lines = [
    `## ${status} ${title}`,
    '',
    `${s.total} instances: **${s.passed} passed**, ${s.failed} failed, ${s.skipped} skipped, ${s.flaky} flaky, ${s.xfailed} xfailed, ${s.xpassed} xpassed, ${s.errors} errors — ${s.checks} checks in ${s.durationS} s`,
    '',
    '| oracle | device | total | pass | fail | skip | xfail | xpass |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
    ...s.byOracleDevice.map(
      (g) =>
        `| ${g.oracle} | ${g.device} | ${g.total} | ${g.passed} | ${g.failed} | ${g.skipped} | ${g.xfailed} | ${g.xpassed} |`,
    ),
  ];
  const bad = rows.filter((r) => r.status === 'fail' || r.status === 'xpass' || r.status === 'error');
  if (bad.length) {
    lines.push(
      '',
      `### Failures (${bad.length}${bad.length > maxFailures ? `, first ${maxFailures}` : ''})`,
      '',
    );
    for (const r of bad.slice(0, maxFailures)) {
      lines.push(
        `<details><summary>${code(r.id)} (${r.status})</summary>`,
        '',
        '```',
        (r.message ?? '').replace(/```/g, "'''").slice(0, 2000),
        '```',
        '',
        `repro: ${code(reproCommand(r.id, r.sample))}`,
        '</details>',
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
