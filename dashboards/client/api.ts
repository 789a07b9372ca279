/** Fetching the data documents (relative paths, so the static site works under any base path). */
import type { SiteMeta } from '../data/index.ts';
import { safeUrl } from '../shared.ts';

const cache = new Map<string, Promise<unknown>>();

export function load<T>(path: string, fresh = false): Promise<T> {
  if (fresh || !cache.has(path))
    cache.set(
      path,
      fetch(path).then(async (r) => {
        if (!r.ok) throw new Error(`${path}: HTTP ${r.status}`);
        return r.json();
      }),
    );
  return cache.get(path) as Promise<T>;
}

export const meta = (): Promise<SiteMeta> => load<SiteMeta>('data/meta.json');

/** `#12` or a URL -> a link target on GitHub (null when there is no repo to resolve `#12` against). */
export function issueHref(issue: string, repo: string | null): string | null {
  const n = /^#(\d+)$/.exec(issue);
  if (n) return repo ? `https://github.com/${repo}/issues/${n[1]}` : null;
  return safeUrl(issue);
}
