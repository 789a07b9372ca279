/** View 5: shard balance for one commit, time to signal over commits, the slowest instances. */
import type { ShardsData } from '../../data/shards.ts';
import { load } from '../api.ts';
import { lineChart } from '../chart.ts';
import { fmtS, h, short, testLink } from '../dom.ts';
import { commitPicker, docPath } from '../picker.ts';

export async function shardsView(root: HTMLElement, args: readonly string[]): Promise<void> {
  const s = await load<ShardsData>(docPath('shards', args[0]), true);
  // A commit's own document leaves the time-to-signal history to the newest commit's.
  const history = args[0] ? (await load<ShardsData>('data/shards.json', true)).history : s.history;
  root.append(
    h('h1', {}, 'Shards & time', s.sha ? [' at ', h('code', { title: s.sha }, short(s.sha))] : ''),
    await commitPicker('shards', s.sha),
  );
  if (!s.sha) {
    root.append(h('p', { class: 'empty' }, 'No runs yet.'));
    return;
  }
  root.append(
    h(
      'p',
      { class: 'summary' },
      `time to signal ${fmtS(s.timeToSignalS)} · ${s.shards.length} shards · imbalance ${s.imbalance === null ? '—' : s.imbalance.toFixed(2)} (slowest shard's test time over its device's mean)`,
    ),
  );
  const max = Math.max(1e-9, ...s.shards.map((x) => x.testS));
  root.append(
    h(
      'div',
      { class: 'bars', 'data-testid': 'shards' },
      s.shards.map((x) =>
        h(
          'div',
          { class: 'bar-row', 'data-shard': x.shard, 'data-devices': x.devices },
          h('span', { class: 'bar-label' }, x.devices ? `${x.devices} ${x.shard}` : x.shard),
          h('span', { class: 'bar', style: `width:${(60 * x.testS) / max}%` }),
          h(
            'span',
            { class: 'bar-value' },
            `${x.testS.toFixed(1)} s in tests · wall ${fmtS(x.wallS)} · ${x.instances} instances${x.status === 'passed' || x.status === 'failed' ? '' : ` · ${x.status}`}`,
          ),
        ),
      ),
    ),
  );
  root.append(h('h2', {}, 'Time to signal per commit'));
  lineChart(root, {
    label: 'time to signal (s)',
    shas: history.map((x) => x.sha),
    values: history.map((x) => x.timeToSignalS),
    height: 160,
  });
  root.append(
    h('h2', {}, 'Slowest instances'),
    h(
      'table',
      { class: 'list' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['test id', 'shard', 'device', 'time', 'status'].map((t) => h('th', {}, t)),
        ),
      ),
      h(
        'tbody',
        {},
        s.slowest.map((r) =>
          h(
            'tr',
            {},
            h('td', {}, testLink(r.id)),
            h('td', {}, r.shard),
            h('td', {}, r.device),
            h('td', { class: 'num' }, `${(r.durationMs / 1000).toFixed(2)} s`),
            h('td', {}, r.status),
          ),
        ),
      ),
    ),
  );
}
