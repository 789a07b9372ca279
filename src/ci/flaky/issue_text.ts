/** The text of DISABLED issues and of the bot's comments. */
import type { FlakeStats } from './history.ts';
import {
  EXCERPT_LIMIT,
  type IssueText,
  LABEL_MODULE,
  LABEL_SKIPPED,
  MARKER,
  REENABLE_LINE,
} from './issues_api.ts';
import { TITLE_PREFIX } from './scope.ts';

const shortSha = (s: string) => s.slice(0, 12);

/** A code fence that the text cannot close. */
function fenced(text: string, lang = 'text'): string {
  const run = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(run + 1);
  return `${fence}${lang}\n${text}\n${fence}`;
}

/** At most `limit` characters of a failure message (the start, where the assertion is). */
export function excerpt(message: string, limit = EXCERPT_LIMIT): string {
  const m = message.replace(/\r\n/g, '\n').trimEnd();
  return m.length <= limit ? m : `${m.slice(0, limit)}\n… (${m.length - limit} more characters)`;
}

const MAX_ROWS = 50;

function statsTable(stats: readonly FlakeStats[]): string {
  const rows = stats
    .slice(0, MAX_ROWS)
    .map(
      (s) =>
        `| \`${s.id}\` | ${s.runs} | ${s.passes} | ${s.fails} | ${s.flakyRuns} | ${s.flipScore} | ${s.firstSeen ?? '-'} | ${s.lastSeen ?? '-'} |`,
    );
  const more = stats.length > MAX_ROWS ? [`\n… and ${stats.length - MAX_ROWS} more instance(s)`] : [];
  return [
    '| test | runs | passes | fails | flaky runs | flip score | first seen | last seen |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    ...more,
  ].join('\n');
}

function failureSection(stats: readonly FlakeStats[]): string {
  const last = [...stats]
    .filter((s) => s.lastFailure)
    .sort((a, b) => ((a.lastSeen ?? '') < (b.lastSeen ?? '') ? 1 : -1))[0];
  if (!last?.lastFailure) return 'No failure message was recorded.';
  return `Last failure (\`${last.id}\`, ${last.lastSeen ?? 'unknown time'}):\n\n${fenced(excerpt(last.lastFailure))}`;
}

function reproSection(key: string, stats: readonly FlakeStats[], aggregate: boolean): string {
  const lines = stats.slice(0, 5).map((s) => `npx opgate repro ${s.id}`);
  if (aggregate) {
    const s = stats[0];
    lines.push(`npx opgate run --op ${s.op} --oracle ${s.oracle} --device ${s.device} --tier full`);
  }
  return `Reproduce${aggregate ? ` (\`${key}\` covers every dtype, layout and mode)` : ''}:\n\n${fenced(lines.join('\n'), 'sh')}`;
}

function historyFacts(stats: readonly FlakeStats[], window: number): string {
  const sum = (f: (s: FlakeStats) => number) => stats.reduce((n, s) => n + f(s), 0);
  const first =
    stats
      .map((s) => s.firstSeen)
      .filter((x): x is string => !!x)
      .sort()[0] ?? '-';
  const last =
    stats
      .map((s) => s.lastSeen)
      .filter((x): x is string => !!x)
      .sort()
      .at(-1) ?? '-';
  const commits = [...new Set(stats.flatMap((s) => s.commits))];
  const shown = commits.slice(-20).map((c) => `\`${shortSha(c)}\``);
  return [
    `Over the last ${window} run(s): ${sum((s) => s.runs)} result(s), ${sum((s) => s.passes)} pass(es), ${sum((s) => s.fails)} failure(s), ${sum((s) => s.flakyRuns)} flaky run(s) (failed, then passed on a retry).`,
    `First seen: ${first}. Last seen: ${last}.`,
    `Both outcomes on one commit: ${stats.some((s) => s.bothOnOneCommit) ? 'yes' : 'no'}.`,
    `Commits with a flake (${commits.length}${commits.length > 20 ? ', the last 20 shown' : ''}): ${shown.join(', ')}`,
  ].join('\n');
}

/** The DISABLED issue for `key` (an instance id, or an op-level key with several flaky instances). */
export function issueText(
  key: string,
  stats: readonly FlakeStats[],
  family: string,
  o: { window: number; dashboardUrl: string },
): IssueText {
  const aggregate = stats.length > 1 || stats[0]?.id !== key;
  const what = aggregate
    ? `${stats.length} instances of \`${key}\` are flaky, so the whole op-level key is disabled (every dtype, layout and mode of this oracle × op × device).`
    : `\`${key}\` is flaky.`;
  const body = [
    MARKER,
    `${what} The runner skips disabled tests, except in rerun-disabled mode, which keeps collecting evidence.`,
    '',
    historyFacts(stats, o.window),
    '',
    statsTable(stats),
    '',
    failureSection(stats),
    '',
    reproSection(key, stats, aggregate),
    '',
    // The dashboards' test search (docs/dashboards.md) shows the key's outcome per commit.
    `Flake history: ${o.dashboardUrl.replace(/\/+$/, '')}/#/search?q=${encodeURIComponent(key)}`,
    '',
    `${REENABLE_LINE} The bot closes it itself once rerun-disabled runs show enough passes and no failure. To disable it on some platforms only, edit this description and add a line such as \`Platforms: linux, webgpu\`.`,
  ].join('\n');
  return {
    title: `${TITLE_PREFIX}${key}`,
    body,
    labels: [LABEL_SKIPPED, LABEL_MODULE, `family: ${family}`],
  };
}

export function commentText(stats: readonly FlakeStats[], since: string, window: number): string {
  return [
    MARKER,
    `Still flaky: new flaky results since this issue was last updated (${since}).`,
    '',
    historyFacts(stats, window),
    '',
    statsTable(stats),
    '',
    failureSection(stats),
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------------------
