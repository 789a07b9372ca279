/** View 3: flaky instances ranked by flip rate, the open DISABLED issues, disabled count over time. */
import type { FlakyData } from '../../data/flaky.ts';
import { safeUrl } from '../../shared.ts';
import { load } from '../api.ts';
import { lineChart } from '../chart.ts';
import { fmtDate, h, strip, testLink } from '../dom.ts';

export async function flakyView(root: HTMLElement): Promise<void> {
  const f = await load<FlakyData>('data/flaky.json', true);
  root.append(h('h1', {}, `Flaky tests (${f.flaky.length})`));
  if (f.flaky.length === 0)
    root.append(h('p', { class: 'empty' }, 'No instance flipped in the recent runs.'));
  else
    root.append(
      h(
        'table',
        { class: 'list', 'data-testid': 'flaky' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            [
              '#',
              'test id',
              'flip rate',
              'runs',
              'passed',
              'failed',
              'flaky',
              'history (oldest → newest)',
              'last failure',
            ].map((t) => h('th', {}, t)),
          ),
        ),
        h(
          'tbody',
          {},
          f.flaky.map((r, i) =>
            h(
              'tr',
              { 'data-id': r.id },
              h('td', { class: 'num' }, i + 1),
              h('td', {}, testLink(r.id)),
              h('td', { class: 'num' }, r.flipScore.toFixed(3)),
              h('td', { class: 'num' }, r.runs),
              h('td', { class: 'num' }, r.passes),
              h('td', { class: 'num' }, r.fails),
              h('td', { class: 'num' }, r.flakyRuns),
              h('td', {}, strip(r.history)),
              h(
                'td',
                {},
                r.lastFailure
                  ? h(
                      'details',
                      {},
                      h('summary', {}, r.lastSeen ? fmtDate(r.lastSeen) : 'message'),
                      h('pre', { class: 'message' }, r.lastFailure),
                    )
                  : '—',
              ),
            ),
          ),
        ),
      ),
    );
  root.append(h('h2', {}, `Disabled tests (${f.disabled.length} open DISABLED issues)`));
  if (f.disabled.length === 0) root.append(h('p', { class: 'empty' }, 'Nothing is quarantined.'));
  else
    root.append(
      h(
        'table',
        { class: 'list', 'data-testid': 'disabled' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['issue', 'title', 'platforms', 'updated'].map((t) => h('th', {}, t)),
          ),
        ),
        h(
          'tbody',
          {},
          f.disabled.map((d) => {
            const href = safeUrl(d.issueUrl);
            return h(
              'tr',
              { 'data-key': d.key },
              h(
                'td',
                {},
                href
                  ? h('a', { href, rel: 'noopener noreferrer', target: '_blank' }, `#${d.issueNumber}`)
                  : `#${d.issueNumber}`,
              ),
              h('td', { class: 'issue-title' }, d.title),
              h('td', {}, d.platforms.length ? d.platforms.join(', ') : 'all'),
              h('td', {}, fmtDate(d.updatedAt)),
            );
          }),
        ),
      ),
    );
  root.append(h('h2', {}, 'Disabled instances per commit'));
  if (f.disabledOverTime.length)
    lineChart(root, {
      label: 'disabled',
      shas: f.disabledOverTime.map((p) => p.sha),
      values: f.disabledOverTime.map((p) => p.count),
      height: 160,
    });
}
