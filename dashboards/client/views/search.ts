/** View 6: test search by id pattern (substring, `*` wildcards or /regex/), with each match's history. */
import type { TestsData } from '../../data/tests.ts';
import { load } from '../api.ts';
import { fmtDate, h, short, strip } from '../dom.ts';

const NAMES: Record<string, string> = {
  P: 'pass',
  F: 'fail',
  K: 'flaky',
  S: 'skip',
  X: 'xfail',
  U: 'unexpected pass',
  E: 'error',
  '.': 'not run',
};
const LIMIT = 200;

/** The same pattern language as `opgate run --pattern`, plus `*` wildcards. */
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

export async function searchView(
  root: HTMLElement,
  _args: readonly string[],
  query: URLSearchParams,
): Promise<void> {
  const t = await load<TestsData>('data/tests.json', true);
  root.append(h('h1', {}, 'Test search'));
  const input = h('input', {
    type: 'search',
    value: query.get('q') ?? '',
    placeholder: 'id pattern: add_cpu, test_reference_*_float32_*, /^test_grad/',
    'aria-label': 'id pattern',
    class: 'wide',
  });
  const status = h('p', { class: 'quiet', 'data-testid': 'search-status' });
  const results = h('div', { class: 'results' });
  root.append(input, status, results);
  const titles = (history: string) =>
    [...history].map(
      (c, i) =>
        `${short(t.commits[i]?.sha ?? '')} ${fmtDate(t.commits[i]?.startedAt ?? '')}: ${NAMES[c] ?? c}`,
    );
  const run = () => {
    const q = input.value.trim();
    history.replaceState(null, '', `#/search${q ? `?q=${encodeURIComponent(q)}` : ''}`);
    results.replaceChildren();
    if (!q) {
      status.textContent = `${t.tests.length} tests over ${t.commits.length} commits; type a pattern.`;
      return;
    }
    let match: (id: string) => boolean;
    try {
      match = matcher(q);
    } catch (e) {
      status.textContent = `invalid pattern: ${String(e)}`;
      return;
    }
    const hits = t.tests.filter(([id]) => match(id));
    status.textContent = `${hits.length} match${hits.length === 1 ? '' : 'es'}${hits.length > LIMIT ? ` (first ${LIMIT} shown)` : ''}`;
    results.append(
      h(
        'table',
        { class: 'list', 'data-testid': 'search-results' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', {}, 'test id'),
            h('th', {}, 'history (oldest → newest)'),
            h('th', {}, 'latest'),
          ),
        ),
        h(
          'tbody',
          {},
          hits.slice(0, LIMIT).map(([id, hist]) => {
            const last = [...hist].reverse().find((c) => c !== '.') ?? '.';
            return h(
              'tr',
              { 'data-id': id },
              h('td', {}, h('code', {}, id)),
              h('td', {}, strip(hist, titles(hist))),
              h('td', { class: `h-${last}` }, NAMES[last]),
            );
          }),
        ),
      ),
    );
    // One test: its outcome per commit, newest first.
    if (hits.length === 1) {
      const [id, hist] = hits[0];
      results.append(
        h('h2', {}, 'History of ', h('code', {}, id)),
        h(
          'table',
          { class: 'list', 'data-testid': 'test-history' },
          h('thead', {}, h('tr', {}, h('th', {}, 'commit'), h('th', {}, 'started'), h('th', {}, 'outcome'))),
          h(
            'tbody',
            {},
            [...hist]
              .map((c, i) => ({ c, commit: t.commits[i] }))
              .reverse()
              .map(({ c, commit }) =>
                h(
                  'tr',
                  { 'data-sha': commit.sha },
                  h('td', {}, h('code', { title: commit.sha }, short(commit.sha))),
                  h('td', {}, fmtDate(commit.startedAt)),
                  h('td', { class: `h-${c === '.' ? 'none' : c}` }, NAMES[c] ?? c),
                ),
              ),
          ),
        ),
      );
    }
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(run, 120);
  });
  run();
}
