/** View 6: test search by id pattern (substring, `*` wildcards or /regex/), with each match's history. */
import type { TestsData } from '../../data/tests.ts';
import { matcher, SEARCH_LIMIT } from '../../shared.ts';
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
export async function searchView(
  root: HTMLElement,
  _args: readonly string[],
  query: URLSearchParams,
): Promise<void> {
  // The static site's document holds every id (filtered here); the live server answers each pattern itself.
  const head = await load<TestsData>('data/tests.json', true);
  const ask = (q: string): Promise<TestsData> =>
    head.complete
      ? Promise.resolve(head)
      : load<TestsData>(`data/tests.json?q=${encodeURIComponent(q)}`, true);
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
  let asked = 0;
  const run = async () => {
    const q = input.value.trim();
    const mine = ++asked;
    results.replaceChildren();
    if (!q) {
      history.replaceState(null, '', '#/search');
      status.textContent = `${head.total} tests over ${head.commits.length} commits; type a pattern.`;
      return;
    }
    let match: (id: string) => boolean;
    try {
      match = matcher(q);
    } catch (e) {
      status.textContent = `invalid pattern: ${String(e)}`;
      return;
    }
    let t: TestsData;
    try {
      t = await ask(q);
    } catch (e) {
      if (mine === asked) status.textContent = `search failed: ${String(e)}`;
      return;
    }
    // A newer pattern was typed while this one was asked: its answer wins.
    if (mine !== asked) return;
    const hits = t.complete ? t.tests.filter(([id]) => match(id)) : t.tests;
    const total = t.complete ? hits.length : t.total;
    const titles = (hist: string) =>
      [...hist].map(
        (c, i) =>
          `${short(t.commits[i]?.sha ?? '')} ${fmtDate(t.commits[i]?.startedAt ?? '')}: ${NAMES[c] ?? c}`,
      );
    status.textContent = `${total} match${total === 1 ? '' : 'es'}${total > SEARCH_LIMIT ? ` (first ${SEARCH_LIMIT} shown)` : ''}`;
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
          hits.slice(0, SEARCH_LIMIT).map(([id, hist]) => {
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
    // The address names the pattern once its results are on the page.
    history.replaceState(null, '', `#/search?q=${encodeURIComponent(q)}`);
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => void run(), 120);
  });
  await run();
}
