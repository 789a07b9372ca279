/**
 * View 7: the numerics fingerprint at a commit — max ulp per op × device × dtype, now and at the previous commit
 * that has one — drifted cells first, each flagged.
 */
import type { NumericsData, NumericsRow, UlpValue } from '../../data/numerics.ts';
import { load } from '../api.ts';
import { h, short, testLink } from '../dom.ts';
import { commitPicker, docPath } from '../picker.ts';

/** Whole ulps as they are, fractions to 3 significant digits, `—` for none. */
export const fmtUlp = (u: UlpValue): string =>
  u === null ? '—' : u === 'inf' ? '∞' : Number.isInteger(u) ? String(u) : u.toPrecision(3);

/** The quiet flags; a drift (red) and an improvement (green) are badges. */
const QUIET: Record<NumericsRow['change'], string> = {
  drift: '',
  improved: '',
  same: '',
  new: 'new',
  gone: 'not measured',
};

function flag(change: NumericsRow['change']): HTMLElement {
  if (change === 'drift')
    return h('span', { class: 'badge marker-regression', 'data-flag': 'drift' }, 'drift');
  if (change === 'improved') return h('span', { class: 'badge marker-improvement' }, 'improved');
  return h('span', { class: 'quiet' }, QUIET[change]);
}

export async function numericsView(root: HTMLElement, args: readonly string[]): Promise<void> {
  const n = await load<NumericsData>(docPath('numerics', args[0]), true);
  root.append(
    h('h1', {}, 'Numerics fingerprint', n.sha ? [' at ', h('code', { title: n.sha }, short(n.sha))] : ''),
    await commitPicker('numerics', n.sha),
  );
  if (n.rows.length === 0) {
    root.append(
      h(
        'p',
        { class: 'empty' },
        n.sha
          ? 'No max ulp recorded at this commit or before it (the golden oracle records them).'
          : 'No runs yet.',
      ),
    );
    return;
  }
  root.append(
    h(
      'p',
      { class: 'summary', 'data-testid': 'numerics-summary' },
      `${n.drifts} drift(s) in ${n.rows.length} op × device × dtype cells · compared with `,
      n.baseline
        ? h('code', { title: n.baseline }, short(n.baseline))
        : 'nothing (no earlier commit has a fingerprint)',
      ` · drift: ${n.rule}`,
    ),
    h(
      'p',
      { class: 'legend' },
      'Max ulp: the largest error of a floating output against PyTorch’s recorded result, in units in the last place of the output dtype, over the cell’s instances (layouts, samples).',
    ),
    h(
      'table',
      { class: 'list', 'data-testid': 'numerics' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['op', 'device', 'dtype', 'max ulp', 'before', 'change', 'worst instance'].map((t) =>
            h('th', {}, t),
          ),
        ),
      ),
      h(
        'tbody',
        {},
        n.rows.map((r) =>
          h(
            'tr',
            { 'data-cell': `${r.op} ${r.device} ${r.dtype}`, 'data-change': r.change },
            h('td', {}, h('code', {}, r.op)),
            h('td', {}, r.device),
            h('td', {}, r.dtype),
            h('td', { class: 'num', 'data-col': 'now' }, fmtUlp(r.now)),
            h('td', { class: 'num', 'data-col': 'before' }, fmtUlp(r.before)),
            h('td', {}, flag(r.change)),
            h('td', {}, testLink(r.worst)),
          ),
        ),
      ),
    ),
  );
}
