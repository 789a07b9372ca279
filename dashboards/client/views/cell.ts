/** A grid cell's failing and flaky instances: message, sample, seed and the repro command. */
import type { CellData } from '../../data/grid.ts';
import { cellPath } from '../../shared.ts';
import { load } from '../api.ts';
import { h, short, testLink } from '../dom.ts';

export async function cellView(root: HTMLElement, args: readonly string[]): Promise<void> {
  const [sha = '', job = ''] = args;
  root.append(h('p', {}, h('a', { href: '#/grid' }, '← grid')));
  root.append(h('h1', {}, 'Failures at ', h('code', { title: sha }, short(sha)), ` · ${job}`));
  const cell = await load<CellData>(cellPath(sha, job), true);
  if (cell.failures.length === 0) root.append(h('p', { class: 'empty' }, 'Nothing failed in this job.'));
  for (const f of cell.failures)
    root.append(
      h(
        'article',
        { class: `failure ${f.status}`, 'data-id': f.id },
        h('h3', {}, testLink(f.id), ' ', h('span', { class: `badge ${f.status}` }, f.status)),
        h(
          'dl',
          {},
          h('dt', {}, 'sample'),
          h('dd', {}, f.sample ?? '—'),
          h('dt', {}, 'seed'),
          h('dd', {}, f.seed ?? '—'),
          h('dt', {}, 'attempts'),
          h('dd', {}, f.attempts),
        ),
        h('pre', { class: 'message' }, f.message ?? '(no message)'),
        h('p', { class: 'repro-line' }, 'repro: ', h('code', { class: 'repro' }, f.repro)),
      ),
    );
  if (cell.more) root.append(h('p', {}, `… and ${cell.more} more.`));
}
