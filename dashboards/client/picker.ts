/** The commit a per-commit view (coverage, shards) shows: the newest by default, any recent one on request. */
import type { GridData } from '../data/grid.ts';
import { commitDocPath } from '../shared.ts';
import { load, meta } from './api.ts';
import { fmtDate, h, short } from './dom.ts';

/** The document for the view at `sha` (its route argument), or the newest commit's. */
export const docPath = (name: string, sha: string | undefined): string =>
  sha ? commitDocPath(name, sha) : `data/${name}.json`;

export async function commitPicker(view: string, current: string | null): Promise<HTMLElement> {
  const [grid, m] = await Promise.all([load<GridData>('data/grid.json'), meta()]);
  const offered = grid.commits.filter((c) => m.perCommit === null || m.perCommit.includes(c.sha));
  const select = h(
    'select',
    { 'aria-label': 'commit', 'data-testid': 'commit-picker' },
    offered.map((c, i) =>
      h(
        'option',
        { value: i === 0 ? '' : c.sha, selected: c.sha === current },
        `${short(c.sha)} · ${fmtDate(c.startedAt)}${i === 0 ? ' (newest)' : ''}`,
      ),
    ),
  );
  select.addEventListener('change', () => {
    location.hash = select.value ? `#/${view}/${encodeURIComponent(select.value)}` : `#/${view}`;
  });
  return h('label', { class: 'picker' }, 'commit ', select);
}
