/** View 1: commits × jobs, failures grouped by test id; a red cell links to its failures. */
import type { GridCell, GridData } from '../../data/grid.ts';
import { cellHref } from '../../shared.ts';
import { load, meta } from '../api.ts';
import { fmtDate, h, short, testLink } from '../dom.ts';

function cellTitle(job: string, c: GridCell): string {
  const parts = [`${job}: ${c.status}`, `${c.pass} passed`];
  if (c.fail) parts.push(`${c.fail} failed`);
  if (c.flaky) parts.push(`${c.flaky} flaky`);
  if (c.skip) parts.push(`${c.skip} skipped`);
  return parts.join(' · ');
}

/** While a run is going, the live grid reloads itself this often. */
const REFRESH_MS = 30_000;

export async function gridView(root: HTMLElement): Promise<void> {
  const [g, m] = await Promise.all([load<GridData>('data/grid.json', true), meta()]);
  if (m.mode === 'live' && Object.values(g.cells).some((c) => c.status === 'running'))
    setTimeout(() => {
      if (root.isConnected) dispatchEvent(new HashChangeEvent('hashchange'));
    }, REFRESH_MS);
  root.append(h('h1', {}, 'Commits × jobs'));
  if (g.commits.length === 0) {
    root.append(h('p', { class: 'empty' }, 'No runs in this database yet: run `npx opgate run`.'));
    return;
  }
  root.append(
    h(
      'p',
      { class: 'legend' },
      ['green', 'red', 'flaky', 'running', 'interrupted', 'aborted'].map((s) =>
        h('span', { class: `cell ${s}` }, s),
      ),
      ` ${g.commits.length} commits × ${g.jobs.length} jobs (shard × device); click a cell for its failures.`,
    ),
  );
  const head = h(
    'tr',
    {},
    h('th', {}, 'commit'),
    g.jobs.map((j) => h('th', { class: 'job', title: j }, h('span', {}, j))),
  );
  const body = g.commits.map((c) =>
    h(
      'tr',
      { 'data-sha': c.sha },
      h(
        'th',
        { class: 'commit', title: c.sha },
        h('code', {}, short(c.sha)),
        ' ',
        h('small', {}, `${c.branch} · ${fmtDate(c.startedAt)}`),
      ),
      g.jobs.map((job) => {
        const cell = g.cells[`${c.sha} ${job}`];
        if (!cell) return h('td', { class: 'none' });
        const label = cell.fail || cell.flaky || '';
        return h(
          'td',
          {},
          cell.status === 'green'
            ? h('span', { class: 'cell green', title: cellTitle(job, cell), 'data-status': 'green' })
            : h(
                'a',
                {
                  class: `cell ${cell.status}`,
                  href: cellHref(c.sha, job),
                  title: cellTitle(job, cell),
                  'data-status': cell.status,
                },
                String(label),
              ),
        );
      }),
    ),
  );
  root.append(
    h('table', { class: 'grid', 'data-testid': 'grid' }, h('thead', {}, head), h('tbody', {}, body)),
  );
  root.append(h('h2', {}, `Failures by test id (${g.failureGroups})`));
  if (g.failures.length === 0) root.append(h('p', { class: 'empty' }, 'No failures in these commits.'));
  else
    root.append(
      h(
        'table',
        { class: 'list failures-by-id' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', {}, 'test id'),
            h('th', {}, 'commits failing'),
            h('th', {}, 'jobs'),
            h('th', {}, 'latest'),
          ),
        ),
        h(
          'tbody',
          {},
          g.failures.map((f) =>
            h(
              'tr',
              {},
              h('td', {}, testLink(f.id)),
              h('td', { class: 'num' }, f.commits),
              h('td', {}, f.jobs.join(', ')),
              h('td', {}, h('a', { href: cellHref(f.lastSha, f.jobs[0]) }, short(f.lastSha))),
            ),
          ),
        ),
      ),
    );
}
