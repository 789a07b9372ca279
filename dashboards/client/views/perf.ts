/** View 4: instruction counts and wall-clock per scenario over commits, change points marked. */
import type { PerfData, PerfSeries } from '../../data/perf.ts';
import { load } from '../api.ts';
import { lineChart } from '../chart.ts';
import { fmtVal, h, short } from '../dom.ts';

const signed = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(2)}%`;

function describe(c: PerfSeries['changes'][number]): string {
  return `${c.state} at ${short(c.sha)}: ${fmtVal(c.before)} → ${fmtVal(c.after)} (${signed(c.relative)})`;
}

export async function perfView(root: HTMLElement): Promise<void> {
  const p = await load<PerfData>('data/perf.json', true);
  root.append(h('h1', {}, 'Perf over commits'));
  if (p.series.length === 0) {
    root.append(h('p', { class: 'empty' }, 'No perf samples yet: `npx opgate perf record`.'));
    return;
  }
  const flagged = p.series.filter((s) => s.changes.some((c) => c.state === 'regression'));
  root.append(
    h(
      'p',
      { class: 'legend' },
      `${p.series.length} series; ${flagged.length} with a regression. Markers: `,
      ['regression', 'improvement', 'suspicious'].map((s) => h('span', { class: `badge marker-${s}` }, s)),
    ),
  );
  // Regressions first: that is what someone opening this page is looking for.
  const order = [...p.series].sort((a, b) => Number(flagged.includes(b)) - Number(flagged.includes(a)));
  for (const s of order) {
    const card = h('section', { class: 'series', 'data-scenario': s.scenario, 'data-metric': s.metric });
    root.append(card);
    card.append(
      h('h3', {}, h('code', {}, s.scenario), ` · ${s.metric} · ${s.platform} · node ${s.nodeVersion}`),
    );
    lineChart(card, {
      label: `${s.scenario} ${s.metric}`,
      shas: s.points.map((x) => x.sha),
      values: s.points.map((x) => x.value),
      markers: s.changes.map((c) => ({ index: c.index, state: c.state, title: describe(c) })),
    });
    if (s.changes.length)
      card.append(
        h(
          'ul',
          { class: 'changes' },
          s.changes.map((c) =>
            h('li', { class: `change marker-${c.state}`, 'data-state': c.state }, describe(c)),
          ),
        ),
      );
    else
      card.append(
        h('p', { class: 'quiet' }, `latest ${fmtVal(s.points[s.points.length - 1].value)}; no change point.`),
      );
  }
}
