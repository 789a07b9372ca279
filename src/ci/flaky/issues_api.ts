/**
 * The GitHub issue calls the bot makes, and how it finds existing DISABLED issues: the open issues labelled
 * `skipped` (listed page by page: consistent, includes what the bot filed seconds ago), plus a title search for
 * issues a person opened without the label (search is indexed with a lag, so a hit is confirmed by reading it).
 */
import { type GitHubClient, isUncertain, type Repo } from './github.ts';
import { hasDisabledPrefix, TITLE_PREFIX } from './scope.ts';

export const LABEL_SKIPPED = 'skipped';
export const LABEL_MODULE = 'module: flaky-tests';
export const DEFAULT_DASHBOARD_URL = 'https://dashboard.opgate.invalid';
export const EXCERPT_LIMIT = 1500;
export const REENABLE_LINE = 'Closing this issue re-enables the test(s).';
export const MARKER = '<!-- opgate-flaky-bot -->';

/** An issue as the bot sees it. */
export interface IssueRef {
  readonly number: number;
  readonly title: string;
  readonly body: string;
  readonly url: string;
  readonly updatedAt: string;
  readonly labels: readonly string[];
}

/** What an issue is made of. */
export interface IssueText {
  readonly title: string;
  readonly body: string;
  readonly labels: readonly string[];
}

export type Log = (line: string) => void;

export interface RawIssue {
  number: number;
  title: string;
  body?: string | null;
  html_url: string;
  updated_at: string;
  state?: string;
  pull_request?: unknown;
  labels?: (string | { name?: string })[];
}

export const refOf = (i: RawIssue): IssueRef => ({
  number: i.number,
  title: i.title,
  body: i.body ?? '',
  url: i.html_url,
  updatedAt: i.updated_at,
  labels: (i.labels ?? []).map((l) => (typeof l === 'string' ? l : (l.name ?? ''))),
});

export const repo = (o: { repo: Repo }): Repo => ({ owner: o.repo.owner, repo: o.repo.repo });

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------------------
// Reading issues

/** Open issues labelled `skipped` whose title is a DISABLED title (all pages). */
export async function listLabelled(client: GitHubClient, repo: Repo): Promise<IssueRef[]> {
  const items = (await client.octokit.paginate(client.octokit.rest.issues.listForRepo, {
    ...repo,
    state: 'open',
    labels: LABEL_SKIPPED,
    per_page: 100,
  })) as RawIssue[];
  return items.filter((i) => !i.pull_request && hasDisabledPrefix(i.title)).map(refOf);
}

/** Open issues whose title contains `phrase` (search; all pages). */
export async function searchOpen(client: GitHubClient, repo: Repo, phrase: string): Promise<IssueRef[]> {
  const q = `repo:${repo.owner}/${repo.repo} is:issue is:open in:title "${phrase}"`;
  const items = (await client.octokit.paginate(client.octokit.rest.search.issuesAndPullRequests, {
    q,
    per_page: 100,
  })) as RawIssue[];
  return items
    .filter((i) => !i.pull_request && (i.state ?? 'open') === 'open' && i.title.startsWith(TITLE_PREFIX))
    .map(refOf);
}

/** Reads one issue (consistent, unlike search): the issue if it is open, else null. */
export async function openIssue(client: GitHubClient, repo: Repo, number: number): Promise<IssueRef | null> {
  const r = await client.octokit.rest.issues.get({ ...repo, issue_number: number });
  const i = r.data as RawIssue;
  return i.state === 'open' && !i.pull_request ? refOf(i) : null;
}

/** Every open DISABLED issue: the labelled ones, plus unlabelled ones found by search and confirmed open. */
export async function listOpenDisabled(client: GitHubClient, repo: Repo): Promise<IssueRef[]> {
  const labelled = await listLabelled(client, repo);
  const seen = new Set(labelled.map((i) => i.number));
  const out = [...labelled];
  for (const hit of await searchOpen(client, repo, TITLE_PREFIX.trim())) {
    if (seen.has(hit.number)) continue;
    seen.add(hit.number);
    const confirmed = await openIssue(client, repo, hit.number);
    if (confirmed) out.push(confirmed);
  }
  return out.sort((a, b) => a.number - b.number);
}

// ---------------------------------------------------------------------------------------------------------
// Issue text

// Writing

/**
 * Creates an issue. A 5xx reply (or none) leaves it unknown whether the issue exists, so instead of blindly
 * retrying (which can file a duplicate) it looks for the title among the newest open labelled issues first.
 */
export async function createIssue(
  client: GitHubClient,
  repo: Repo,
  text: IssueText,
  log: Log,
): Promise<IssueRef> {
  const attempts = 4;
  for (let attempt = 1; ; attempt++) {
    try {
      const r = await client.octokit.rest.issues.create({
        ...repo,
        title: text.title,
        body: text.body,
        labels: [...text.labels],
        request: { retries: 0 },
      });
      return refOf(r.data as RawIssue);
    } catch (e) {
      if (!isUncertain(e) || attempt >= attempts) throw e;
      log(`${client.describe(e)}; checking whether "${text.title}" was filed anyway`);
      const newest = await client.octokit.rest.issues.listForRepo({
        ...repo,
        state: 'open',
        labels: LABEL_SKIPPED,
        sort: 'created',
        direction: 'desc',
        per_page: 100,
      });
      const found = (newest.data as RawIssue[]).find((i) => !i.pull_request && i.title === text.title);
      if (found) return refOf(found);
      await sleep(client.retryBaseMs * attempt * attempt);
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// file-issues
