/**
 * The coverage view's schema coverage section: the totals (`opgate coverage`'s), then per op its PyTorch 1.13
 * aten overloads with status (implemented / unsupported with the reason / uncovered) and exercised arguments.
 */
import type { SchemaData } from '../../data/schema.ts';
import { fmtPct, h } from '../dom.ts';

/** A search box that hides the rows whose text does not contain what is typed. */
function textFilter(label: string, rows: readonly HTMLElement[], placeholder = label): HTMLInputElement {
  const filter = h('input', { type: 'search', placeholder, 'aria-label': label });
  filter.addEventListener('input', () => {
    const q = filter.value.toLowerCase();
    for (const r of rows) r.hidden = !(r.textContent ?? '').toLowerCase().includes(q);
  });
  return filter;
}

export function schemaSection(s: SchemaData): HTMLElement {
  const o = s.overloads;
  const a = s.arguments;
  const rows = s.ops.flatMap((op) =>
    op.overloads.map((x) =>
      h(
        'tr',
        { 'data-overload': x.name, 'data-status': x.status },
        h('th', {}, op.infos.join(', ')),
        h('td', {}, h('code', {}, x.name)),
        h('td', {}, h('span', { class: `badge ${x.status === 'uncovered' ? 'fail' : ''}` }, x.status)),
        h('td', { class: 'num' }, x.status === 'unsupported' ? '' : x.calls),
        h('td', { class: 'num' }, x.args.total ? `${x.args.exercised} / ${x.args.total}` : ''),
        h(
          'td',
          { class: 'reason-text' },
          x.reason ?? (x.args.missing.length ? `unexercised: ${x.args.missing.join(', ')}` : ''),
        ),
      ),
    ),
  );
  const filter = textFilter('filter overloads', rows);
  return h(
    'section',
    { 'data-testid': 'schema-coverage' },
    h('h2', {}, 'Schema coverage (PyTorch 1.13 aten overloads)'),
    h(
      'p',
      { 'data-testid': 'schema-totals' },
      `${o.total} overloads: ${o.implemented} implemented, ${o.unsupported} unsupported, `,
      h('strong', {}, `${o.uncovered} uncovered`),
      `; arguments exercised ${a.exercised} / ${a.total} (${fmtPct(a.total ? a.exercised / a.total : 0)}); `,
      `${s.torchScriptOnlyExcluded} TorchScript-only overloads left out.`,
    ),
    h('div', { class: 'toolbar' }, filter),
    h(
      'table',
      { class: 'list', 'data-testid': 'schema-overloads' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['op', 'overload', 'status', 'calls', 'arguments', 'reason'].map((t) => h('th', {}, t)),
        ),
      ),
      h('tbody', {}, rows),
    ),
  );
}

/** The Python surface: totals, then each signature with status, calls and the keywords no sample passes. */
export function pythonSection(s: SchemaData): HTMLElement {
  const { signatures: g, keywords: k, rows } = s.python;
  const trs = rows.map((x) =>
    h(
      'tr',
      { 'data-spelling': x.spelling, 'data-status': x.status },
      h('td', {}, h('code', {}, `${x.spelling}${x.signature}`)),
      h('td', {}, h('span', { class: `badge ${x.status === 'uncovered' ? 'fail' : ''}` }, x.status)),
      h('td', { class: 'num' }, x.status === 'unsupported' ? '' : x.calls),
      h(
        'td',
        { class: 'reason-text' },
        x.reason ??
          (x.uncoveredKeywords.length ? `keywords uncovered: ${x.uncoveredKeywords.join(', ')}` : ''),
      ),
    ),
  );
  const filter = textFilter('filter Python signatures', trs, 'filter signatures');
  return h(
    'section',
    { 'data-testid': 'python-coverage' },
    h('h2', {}, 'Python signature coverage (PyTorch 1.13 torch.*, Tensor.*, torch.nn.functional.*)'),
    h(
      'p',
      { 'data-testid': 'python-totals' },
      `${g.total} signatures: ${g.covered} covered, ${g.unsupported} unsupported, `,
      h('strong', {}, `${g.uncovered} uncovered`),
      `; ${k.total} keywords: ${k.covered} covered, ${k.unsupported} unsupported, `,
      h('strong', {}, `${k.uncovered} uncovered`),
      '.',
    ),
    h('div', { class: 'toolbar' }, filter),
    h(
      'table',
      { class: 'list', 'data-testid': 'python-signatures' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['signature', 'status', 'calls', 'reason'].map((t) => h('th', {}, t)),
        ),
      ),
      h('tbody', {}, trs),
    ),
  );
}
