/** The dashboards' client: a hash router over the views. */
import 'uplot/dist/uPlot.min.css';
import './style.css';
import { h } from './dom.ts';
import { cellView } from './views/cell.ts';
import { coverageView } from './views/coverage.ts';
import { flakyView } from './views/flaky.ts';
import { gridView } from './views/grid.ts';
import { mutationView } from './views/mutation.ts';
import { numericsView } from './views/numerics.ts';
import { perfView } from './views/perf.ts';
import { searchView } from './views/search.ts';
import { shardsView } from './views/shards.ts';
import { targetsView } from './views/targets.ts';

type View = (root: HTMLElement, args: readonly string[], query: URLSearchParams) => Promise<void>;

const VIEWS: Record<string, { title: string; view: View; nav: boolean }> = {
  grid: { title: 'Grid', view: gridView, nav: true },
  cell: { title: 'Failures', view: cellView, nav: false },
  coverage: { title: 'Coverage', view: coverageView, nav: true },
  flaky: { title: 'Flaky & disabled', view: flakyView, nav: true },
  perf: { title: 'Perf', view: perfView, nav: true },
  shards: { title: 'Shards & time', view: shardsView, nav: true },
  search: { title: 'Test search', view: searchView, nav: true },
  numerics: { title: 'Numerics', view: numericsView, nav: true },
  mutation: { title: 'Mutation', view: mutationView, nav: true },
  targets: { title: 'Targets', view: targetsView, nav: true },
};

let generation = 0;

async function route(): Promise<void> {
  const [path, q] = location.hash.replace(/^#\/?/, '').split('?');
  const [name, ...args] = path.split('/').map(decodeURIComponent);
  const entry = VIEWS[name] ?? VIEWS.grid;
  const root = document.getElementById('view') as HTMLElement;
  const mine = ++generation;
  for (const a of document.querySelectorAll('#nav a'))
    a.classList.toggle('active', a.getAttribute('data-view') === (VIEWS[name] ? name : 'grid'));
  document.title = `${entry.title} · opgate`;
  const next = h('div', { class: 'view', 'data-view': VIEWS[name] ? name : 'grid' });
  root.replaceChildren(next);
  try {
    await entry.view(next, args, new URLSearchParams(q ?? ''));
    if (mine === generation) {
      next.setAttribute('data-ready', '');
      // For bench/dashboard.bench.ts: time from navigation to a rendered view.
      performance.mark(`opgate:ready:${name || 'grid'}`);
    }
  } catch (e) {
    next.appendChild(h('p', { class: 'error' }, `Could not load this view: ${String(e)}`));
    next.setAttribute('data-ready', 'error');
  }
}

function start(): void {
  const nav = document.getElementById('nav') as HTMLElement;
  for (const [name, v] of Object.entries(VIEWS))
    if (v.nav) nav.appendChild(h('a', { href: `#/${name}`, 'data-view': name }, v.title));
  addEventListener('hashchange', () => void route());
  void route();
}

start();
