/**
 * The DISABLED-issue bot. GitHub issues are the source of truth for the disabled list:
 *  - `fileIssues` files `DISABLED <key>` issues for flaky tests (one per instance, or one per op when more than K
 *    instances of it are flaky), comments on an issue that already exists instead of filing a duplicate, and
 *    never files a broken test;
 *  - `syncDisabled` reads the open DISABLED issues back into the disabled list;
 *  - `closeFixed` closes an issue when rerun-disabled runs show it passing (and issues naming no test).
 *
 * Finding existing issues: the open issues labelled `skipped` (listed page by page: consistent, includes what
 * this bot filed seconds ago), plus a title search for issues a person opened without the label (search is
 * indexed with a lag, so a search hit is confirmed by reading the issue).
 */
import { CiError } from '../errors.ts';
import { expandMatrix, type MatrixInstance } from '../matrix.ts';
import type { ResultsStore } from '../store/store.ts';
import { listDisabled, replaceDisabled } from './disabled.ts';
import type { GitHubClient, Repo } from './github.ts';
import { type FlakeStats, flakeStats, rerunEvidence } from './history.ts';
import { commentText, issueText } from './issue_text.ts';
import {
  createIssue,
  DEFAULT_DASHBOARD_URL,
  type IssueRef,
  LABEL_MODULE,
  LABEL_SKIPPED,
  type Log,
  listLabelled,
  listOpenDisabled,
  MARKER,
  openIssue,
  REENABLE_LINE,
  repo,
  searchOpen,
} from './issues_api.ts';
import { keyOfTitle, kindOfKey, opKeyOf, platformsOfBody, TITLE_PREFIX } from './scope.ts';

export interface FileIssuesOptions {
  readonly repo: Repo;
  /** More than `k` flaky instances of one op-level key -> one aggregate issue. Default 5. */
  readonly k?: number;
  /** At most this many new issues per run. Default 10. */
  readonly maxIssues?: number;
  readonly dryRun?: boolean;
  /** Normal runs of history considered. Default 30. */
  readonly window?: number;
  readonly dashboardUrl?: string;
  /** The full matrix (default `expandMatrix('full')`). */
  readonly instances?: readonly MatrixInstance[];
  readonly log?: Log;
}

export type BotAction =
  | {
      readonly action: 'file';
      readonly key: string;
      readonly title: string;
      readonly labels: readonly string[];
      readonly body: string;
      readonly ids: readonly string[];
    }
  | {
      readonly action: 'comment';
      readonly issue: number;
      readonly keys: readonly string[];
      readonly body: string;
    }
  | { readonly action: 'label'; readonly issue: number; readonly labels: readonly string[] }
  | { readonly action: 'close'; readonly issue: number; readonly key: string; readonly comment: string };

export interface FileIssuesReport {
  readonly dryRun: boolean;
  /** New issues (number and url are 0 and '' in a dry run). */
  readonly filed: { key: string; number: number; url: string; ids: string[] }[];
  /** Existing issues commented on (new flaky results since the issue was last updated). */
  readonly commented: { issue: number; keys: string[] }[];
  /** Existing issues with nothing new to say. */
  readonly upToDate: { issue: number; keys: string[] }[];
  /** Keys not filed because the per-run cap was reached. */
  readonly skippedByCap: string[];
  /** Always-failing instances: broken, never quarantined. */
  readonly broken: string[];
  /** Flaky ids that name no instance of the current matrix (not filed). */
  readonly unknown: string[];
  /** Every write, in order (in a dry run: what would have been written). */
  readonly actions: BotAction[];
}

interface Candidate {
  readonly key: string;
  readonly opKey: string;
  readonly family: string;
  readonly stats: FlakeStats[];
}

const newest = (stats: readonly FlakeStats[]) =>
  stats
    .map((s) => s.lastSeen ?? '')
    .sort()
    .at(-1) ?? '';

export async function fileIssues(
  store: ResultsStore,
  client: GitHubClient,
  o: FileIssuesOptions,
): Promise<FileIssuesReport> {
  const k = o.k ?? 5;
  const maxIssues = o.maxIssues ?? 10;
  const window = o.window ?? 30;
  const dryRun = o.dryRun ?? false;
  const dashboardUrl = o.dashboardUrl ?? DEFAULT_DASHBOARD_URL;
  const log = o.log ?? ((l: string) => console.error(l));
  if (!dryRun && !client.authenticated)
    throw new CiError('E_GITHUB_TOKEN_MISSING', 'GITHUB_TOKEN is not set: filing issues needs a token');
  const instances = o.instances ?? expandMatrix('full');
  const byId = new Map(instances.map((i) => [i.id, i]));

  const stats = flakeStats(store, window);
  const broken = stats.filter((s) => s.verdict === 'broken').map((s) => s.id);
  const unknown: string[] = [];
  const groups = new Map<string, { family: string; stats: FlakeStats[] }>();
  for (const s of stats) {
    if (s.verdict !== 'flaky') continue;
    const inst = byId.get(s.id);
    if (!inst) {
      unknown.push(s.id);
      continue;
    }
    const key = opKeyOf(inst);
    const g = groups.get(key) ?? { family: inst.info.family, stats: [] };
    g.stats.push(s);
    groups.set(key, g);
  }
  const candidates: Candidate[] = [];
  for (const [opKey, g] of groups) {
    if (g.stats.length > k) candidates.push({ key: opKey, opKey, family: g.family, stats: g.stats });
    else for (const s of g.stats) candidates.push({ key: s.id, opKey, family: g.family, stats: [s] });
  }
  const score = (c: Candidate) => Math.max(...c.stats.map((s) => s.flipScore));
  candidates.sort((a, b) => score(b) - score(a) || (a.key < b.key ? -1 : 1));

  const open = new Map<string, IssueRef>();
  for (const i of await listLabelled(client, repo(o))) {
    const key = keyOfTitle(i.title);
    if (key && !open.has(key)) open.set(key, i);
  }

  const actions: BotAction[] = [];
  const filed: FileIssuesReport['filed'] = [];
  const skippedByCap: string[] = [];
  /** Existing issue number -> the candidates it covers. */
  const existing = new Map<number, { issue: IssueRef; cands: Candidate[] }>();
  const toFile: Candidate[] = [];
  for (const c of candidates) {
    let issue = open.get(c.key) ?? open.get(c.opKey) ?? null;
    if (!issue && toFile.length >= maxIssues) {
      skippedByCap.push(c.key);
      continue;
    }
    if (!issue) {
      // An issue a person opened without the `skipped` label.
      const hits = (await searchOpen(client, repo(o), `${TITLE_PREFIX}${c.key}`))
        .filter((i) => keyOfTitle(i.title) === c.key)
        .sort((a, b) => a.number - b.number);
      for (const h of hits) {
        issue = await openIssue(client, repo(o), h.number);
        if (issue) break;
      }
      if (issue) open.set(c.key, issue);
    }
    if (issue) {
      const e = existing.get(issue.number) ?? { issue, cands: [] };
      e.cands.push(c);
      existing.set(issue.number, e);
    } else toFile.push(c);
  }

  for (const c of toFile) {
    const text = issueText(c.key, c.stats, c.family, { window, dashboardUrl });
    actions.push({ action: 'file', key: c.key, ...text, ids: c.stats.map((s) => s.id) });
    if (dryRun) {
      filed.push({ key: c.key, number: 0, url: '', ids: c.stats.map((s) => s.id) });
      continue;
    }
    const issue = await createIssue(client, repo(o), text, log);
    open.set(c.key, issue);
    filed.push({ key: c.key, number: issue.number, url: issue.url, ids: c.stats.map((s) => s.id) });
  }

  const commented: FileIssuesReport['commented'] = [];
  const upToDate: FileIssuesReport['upToDate'] = [];
  for (const { issue, cands } of existing.values()) {
    const keys = cands.map((c) => c.key);
    const all = cands.flatMap((c) => c.stats);
    const missing = [LABEL_SKIPPED, LABEL_MODULE].filter((l) => !issue.labels.includes(l));
    if (missing.length) {
      actions.push({ action: 'label', issue: issue.number, labels: missing });
      if (!dryRun)
        await client.octokit.rest.issues.addLabels({
          ...repo(o),
          issue_number: issue.number,
          labels: missing,
        });
    }
    if (!(Date.parse(newest(all)) > Date.parse(issue.updatedAt))) {
      upToDate.push({ issue: issue.number, keys });
      continue;
    }
    const body = commentText(all, issue.updatedAt, window);
    actions.push({ action: 'comment', issue: issue.number, keys, body });
    if (!dryRun)
      await client.octokit.rest.issues.createComment({ ...repo(o), issue_number: issue.number, body });
    commented.push({ issue: issue.number, keys });
  }

  return { dryRun, filed, commented, upToDate, skippedByCap, broken, unknown, actions };
}

// ---------------------------------------------------------------------------------------------------------
// sync

export interface SyncReport {
  readonly entries: { key: string; issueNumber: number; issueUrl: string; platforms: string[] }[];
  readonly added: string[];
  readonly removed: string[];
  /** Open DISABLED issues whose key names nothing in the matrix (ignored). */
  readonly unknown: { key: string; issue: number }[];
  /** DISABLED titles without a valid key (ignored). */
  readonly malformed: { title: string; issue: number }[];
  /** Keys with more than one open issue (the oldest wins). */
  readonly duplicates: { key: string; issues: number[] }[];
}

/** Replaces the disabled list with what the open DISABLED issues say. */
export async function syncDisabled(
  store: ResultsStore,
  client: GitHubClient,
  o: { repo: Repo; instances?: readonly MatrixInstance[] },
): Promise<SyncReport> {
  const instances = o.instances ?? expandMatrix('full');
  const issues = await listOpenDisabled(client, repo(o));
  const byKey = new Map<string, IssueRef[]>();
  const unknown: SyncReport['unknown'] = [];
  const malformed: SyncReport['malformed'] = [];
  for (const i of issues) {
    const key = keyOfTitle(i.title);
    if (!key) malformed.push({ title: i.title, issue: i.number });
    else if (!kindOfKey(key, instances)) unknown.push({ key, issue: i.number });
    else byKey.set(key, [...(byKey.get(key) ?? []), i]);
  }
  const entries = [...byKey].map(([key, is]) => ({
    key,
    issueNumber: is[0].number,
    issueUrl: is[0].url,
    platforms: platformsOfBody(is[0].body),
  }));
  const duplicates = [...byKey]
    .filter(([, is]) => is.length > 1)
    .map(([key, is]) => ({ key, issues: is.map((i) => i.number) }));
  const { added, removed } = replaceDisabled(store, entries);
  return { entries, added, removed, unknown, malformed, duplicates };
}

// ---------------------------------------------------------------------------------------------------------
// close-fixed

export interface CloseFixedOptions {
  readonly repo: Repo;
  /** Rerun-disabled runs considered. Default 30. */
  readonly window?: number;
  /** Passes needed (with no failure) to re-enable. Default 150. */
  readonly minPasses?: number;
  readonly dryRun?: boolean;
  readonly instances?: readonly MatrixInstance[];
}

export interface Evidence {
  readonly passes: number;
  readonly failures: number;
  readonly runs: number;
}

export interface CloseFixedReport {
  readonly dryRun: boolean;
  readonly closed: ({ key: string; issue: number } & Evidence)[];
  /** Issues whose key names no test any more: closed as stale. */
  readonly stale: { key: string; issue: number }[];
  readonly keptOpen: ({ key: string; issue: number } & Evidence)[];
  readonly actions: BotAction[];
}

export async function closeFixed(
  store: ResultsStore,
  client: GitHubClient,
  o: CloseFixedOptions,
): Promise<CloseFixedReport> {
  const window = o.window ?? 30;
  const minPasses = o.minPasses ?? 150;
  const dryRun = o.dryRun ?? false;
  if (!dryRun && !client.authenticated)
    throw new CiError('E_GITHUB_TOKEN_MISSING', 'GITHUB_TOKEN is not set: closing issues needs a token');
  const instances = o.instances ?? expandMatrix('full');
  const issues = await listOpenDisabled(client, repo(o));
  const actions: BotAction[] = [];
  const closed: CloseFixedReport['closed'] = [];
  const stale: CloseFixedReport['stale'] = [];
  const keptOpen: CloseFixedReport['keptOpen'] = [];

  const close = async (issue: number, key: string, comment: string, reason: 'completed' | 'not_planned') => {
    actions.push({ action: 'close', issue, key, comment });
    if (dryRun) return;
    await client.octokit.rest.issues.createComment({ ...repo(o), issue_number: issue, body: comment });
    await client.octokit.rest.issues.update({
      ...repo(o),
      issue_number: issue,
      state: 'closed',
      state_reason: reason,
    });
  };

  for (const i of issues) {
    const key = keyOfTitle(i.title);
    if (!key) continue;
    const kind = kindOfKey(key, instances);
    if (!kind) {
      await close(
        i.number,
        key,
        `${MARKER}\n\`${key}\` names no test in the current matrix (its op, oracle, device, dtype, layout or mode was removed or renamed), so this issue disables nothing. Closing it as stale.`,
        'not_planned',
      );
      stale.push({ key, issue: i.number });
      continue;
    }
    const ids = kind === 'instance' ? [key] : instances.filter((x) => opKeyOf(x) === key).map((x) => x.id);
    const ev = rerunEvidence(store, ids, window);
    if (ev.passes >= minPasses && ev.failures === 0) {
      await close(
        i.number,
        key,
        [
          MARKER,
          `Re-enabling \`${key}\`: over the last ${ev.runs} rerun-disabled run(s) (window ${window}) it passed ${ev.passes} time(s) and failed ${ev.failures} time(s)${ids.length > 1 ? ` across its ${ids.length} instances` : ''}.`,
          `The threshold is at least ${minPasses} passes and no failure. ${REENABLE_LINE} Reopen it to disable the test again.`,
        ].join('\n'),
        'completed',
      );
      closed.push({ key, issue: i.number, ...ev });
    } else keptOpen.push({ key, issue: i.number, ...ev });
  }

  if (!dryRun) {
    // Issues are the source of truth: what was just closed no longer disables anything.
    const gone = new Set([...closed, ...stale].map((c) => c.issue));
    if (gone.size)
      replaceDisabled(
        store,
        listDisabled(store).filter((e) => !gone.has(e.issueNumber)),
      );
  }
  return { dryRun, closed, stale, keptOpen, actions };
}
