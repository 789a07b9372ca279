/**
 * What the server and the browser client both need (no Node imports here: the client bundle includes it).
 * Skip and disable reasons carry their issue in the message text; these parse it back out.
 */

/** A grid job: one shard's results on one device (`1/4 cpu`). */
export const jobKey = (shard: string, device: string): string => `${shard} ${device}`;

/** The client's route to a grid cell's failures. */
export const cellHref = (sha: string, job: string): string =>
  `#/cell/${encodeURIComponent(sha)}/${encodeURIComponent(job)}`;

/** Safe file-name part for a sha or job (static build paths): letters, digits, `-` and `_` only. */
export const slug = (s: string): string => s.replace(/[^A-Za-z0-9]+/g, '_').slice(0, 80);

/** Where a grid cell's failures live, relative to the site root (a file in the static build). */
export const cellPath = (sha: string, job: string): string => `data/cell/${slug(sha)}/${slug(job)}.json`;

/** A per-commit document (coverage or shards at one commit), relative to the site root. */
export const commitDocPath = (name: string, sha: string): string => `data/${name}/${slug(sha)}.json`;

/** A mutation run's document (the mutation view at that run), relative to the site root. */
export const mutationRunPath = (mrunId: number): string => `data/mutation/${mrunId}.json`;

export interface Reason {
  readonly reason: string;
  readonly issue: string | null;
}

/**
 * `reason (issue #12)` (an op_db rule) or `disabled by issue #34 https://…` (quarantine) -> reason + issue.
 */
export function parseReason(message: string | null): Reason {
  const text = message ?? '(no reason recorded)';
  const disabled = /^disabled by issue #(\d+)\s*(\S*)/.exec(text);
  if (disabled) return { reason: 'disabled (flaky quarantine)', issue: disabled[2] || `#${disabled[1]}` };
  const rule = /^(.*) \(issue #(\d+)\)$/s.exec(text);
  if (rule) return { reason: rule[1], issue: `#${rule[2]}` };
  return { reason: text, issue: null };
}

/** An http(s) URL, or null: issue links come from the database and must never become `javascript:`. */
export function safeUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null;
  } catch {
    return null;
  }
}

/** How many matches test search shows (and the live server's answer carries). */
export const SEARCH_LIMIT = 200;

/**
 * Test search's pattern language (the client filters with it, the live server answers with it): a substring,
 * `*` wildcards over the whole id, or /regex/. An invalid regex throws.
 */
export function matcher(pattern: string): (id: string) => boolean {
  const re = /^\/(.*)\/$/.exec(pattern);
  if (re) {
    const r = new RegExp(re[1]);
    return (id) => r.test(id);
  }
  if (pattern.includes('*')) {
    const r = new RegExp(
      `^${pattern
        .split('*')
        .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    );
    return (id) => r.test(id);
  }
  return (id) => id.includes(pattern);
}
