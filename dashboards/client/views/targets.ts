/**
 * The targets page (`#/targets`, one runtime: `#/targets/<name>`): how a foreign runtime departs from PyTorch 1.13
 * by op_db, from its newest run: the classes, the agreement, and each departure with the sample, PyTorch's value
 * and the target's side by side, and the command that repeats it.
 */
import type { TargetSummary, TargetsData } from '../../data/targets.ts';
import { load } from '../api.ts';
import { h, short } from '../dom.ts';

const CLASSES = [
  'agree',
  'differ',
  'error-mismatch',
  'documented',
  'unmapped',
  'unsupported',
  'error',
] as const;

function section(t: TargetSummary): HTMLElement {
  const judged = t.total.agree + t.total.differ + t.total['error-mismatch'];
  return h(
    'section',
    { 'data-target': t.target },
    h('h2', {}, h('a', { href: `#/targets/${encodeURIComponent(t.target)}` }, t.target)),
    h(
      'p',
      { class: 'summary', 'data-testid': 'target-summary' },
      `${t.packages.join(', ')} · run ${t.run.runId} at `,
      h('code', { title: t.run.commitSha }, short(t.run.commitSha)),
      ` · ${t.ops.mapped} ops mapped, ${t.ops.unmapped} unmapped · ${judged} instances judged: ${t.agreePct.toFixed(1)}% agree`,
    ),
    h(
      'table',
      { class: 'list', 'data-testid': 'target-classes' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', {}, 'dtype'),
          CLASSES.map((c) => h('th', {}, c)),
        ),
      ),
      h(
        'tbody',
        {},
        [['all', t.total] as const, ...Object.entries(t.byDtype)].map(([d, c]) =>
          h(
            'tr',
            {},
            h('td', {}, d),
            CLASSES.map((k) => h('td', { class: 'num' }, String(c[k]))),
          ),
        ),
      ),
    ),
    h('h3', {}, `Departures (${t.departures.length})`),
    t.departures.length === 0
      ? h('p', { class: 'empty' }, 'No departures: every judged instance agrees with PyTorch.')
      : h(
          'table',
          { class: 'list', 'data-testid': 'departures' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ['op', 'dtype', 'class', 'sample', 'PyTorch', t.target, 'repro'].map((x) => h('th', {}, x)),
            ),
          ),
          h(
            'tbody',
            {},
            t.departures.map((d) =>
              h(
                'tr',
                { 'data-id': d.id, 'data-kind': d.kind },
                h('td', { title: d.id }, d.op),
                h('td', {}, d.dtype),
                h('td', {}, `${d.cls} (${d.kind})`),
                h('td', {}, d.sample),
                h('td', { class: 'pytorch' }, d.pytorch),
                h('td', { class: 'target' }, d.target),
                h('td', {}, h('code', {}, d.repro)),
              ),
            ),
          ),
        ),
  );
}

export async function targetsView(root: HTMLElement, args: readonly string[]): Promise<void> {
  const data = await load<TargetsData>('data/targets.json', true);
  const shown = args[0] ? data.targets.filter((t) => t.target === args[0]) : data.targets;
  root.append(
    h('h1', {}, args[0] ? `Target ${args[0]}` : 'Other runtimes, judged by op_db and PyTorch 1.13'),
  );
  if (shown.length === 0)
    root.append(
      h(
        'p',
        { class: 'empty' },
        `No target run in this database yet: \`npx opgate run --target ${args[0] ?? data.notRun.join(',')}\`.`,
      ),
    );
  for (const t of shown) root.append(section(t));
}
