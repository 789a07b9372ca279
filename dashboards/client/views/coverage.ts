/** View 2: op × device × dtype with the reason of every skip, xfail and unsupported cell; conformance scores. */
import type { CoverageCell, CoverageData, FamilyScore } from '../../data/coverage.ts';
import type { SchemaData } from '../../data/schema.ts';
import { issueHref, load, meta } from '../api.ts';
import { lineChart } from '../chart.ts';
import { fmtPct, h, short } from '../dom.ts';
import { commitPicker, docPath } from '../picker.ts';
import { pythonSection, schemaSection } from './schema.ts';

const LETTER: Record<string, string> = {
  pass: '✓',
  fail: '✗',
  flaky: '~',
  skip: 's',
  xfail: 'x',
  unsupported: '·',
  none: '',
};

const DTYPE_SHORT: Record<string, string> = {
  float16: 'f16',
  bfloat16: 'bf16',
  float32: 'f32',
  float64: 'f64',
  complex64: 'c64',
  complex128: 'c128',
  int8: 'i8',
  int16: 'i16',
  int32: 'i32',
  int64: 'i64',
  uint8: 'u8',
  bool: 'b',
};

const DEVICE_STROKE: Record<string, string> = { cpu: '#0969da', meta: '#8250df', webgpu: '#bf3989' };

export async function coverageView(root: HTMLElement, args: readonly string[]): Promise<void> {
  const [c, m, schema] = await Promise.all([
    load<CoverageData>(docPath('coverage', args[0]), true),
    meta(),
    load<SchemaData>('data/schema.json'),
  ]);
  root.append(
    h('h1', {}, 'Op coverage', c.sha ? [' at ', h('code', { title: c.sha }, short(c.sha))] : ''),
    await commitPicker('coverage', c.sha),
  );
  root.append(
    h(
      'table',
      { class: 'list scores', 'data-testid': 'scores' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['device', 'conformance', 'pass / ruler', 'fail', 'skip/xfail', 'unsupported', 'not run'].map((t) =>
            h('th', {}, t),
          ),
        ),
      ),
      h(
        'tbody',
        {},
        c.scores.map((s) =>
          h(
            'tr',
            { 'data-device': s.device },
            h('th', {}, s.device),
            h('td', { class: 'num score' }, fmtPct(s.score)),
            h('td', { class: 'num' }, `${s.pass} / ${s.ruler}`),
            h('td', { class: 'num' }, s.fail),
            h('td', { class: 'num' }, s.skip),
            h('td', { class: 'num' }, s.unsupported),
            h('td', { class: 'num' }, s.notRun),
          ),
        ),
      ),
    ),
    h(
      'p',
      { class: 'legend' },
      'The ruler is every (op, dtype) the cpu backend claims; a device scores the share of it that passes there.',
    ),
  );
  root.append(familyTable(c));
  if (c.trend.length > 1) {
    const [first, ...rest] = c.scores.map((x) => x.device);
    const line = (d: string) => c.trend.map((t) => (d in t.scores ? 100 * t.scores[d] : null));
    root.append(h('h2', {}, 'Conformance over commits (% of the ruler)'));
    lineChart(root, {
      label: first,
      shas: c.trend.map((t) => t.sha),
      values: line(first),
      more: rest.map((d) => ({ label: d, values: line(d), stroke: DEVICE_STROKE[d] ?? '#57606a' })),
      height: 160,
    });
  }
  const detail = h('aside', { class: 'detail', id: 'cov-detail' }, 'Click a cell for its reasons.');
  const filter = h('input', { type: 'search', placeholder: 'filter ops', 'aria-label': 'filter ops' });
  const rows = c.ops.map((op) =>
    h(
      'tr',
      { 'data-op': op.name },
      h('th', {}, op.name),
      c.devices.map((device) =>
        c.dtypes.map((dtype) => {
          const cell = op.cells[`${device} ${dtype}`];
          const s = cell?.s ?? 'none';
          const skips = (cell?.n?.skip ?? 0) + (cell?.n?.xfail ?? 0);
          const reasons = reasonsOf(cell, op.unsupported[device], device, dtype);
          const title = `${op.name} · ${device} · ${dtype}: ${s}${reasons.length ? ` — ${reasons.map((r) => r.reason).join('; ')}` : ''}`;
          return h(
            'td',
            {
              class: `cov s-${s}${skips && s !== 'skip' ? ' partial' : ''}`,
              'data-cell': `${device} ${dtype}`,
              'data-skips': skips || null,
              title,
              onclick: () => show(detail, `${op.name} · ${device} · ${dtype}`, cell, reasons, m.repo),
            },
            LETTER[s],
          );
        }),
      ),
    ),
  );
  filter.addEventListener('input', () => {
    const q = filter.value.toLowerCase();
    for (const r of rows) r.hidden = !(r.getAttribute('data-op') ?? '').toLowerCase().includes(q);
  });
  const head = [
    h(
      'tr',
      {},
      h('th', {}, ''),
      c.devices.map((d) => h('th', { colspan: c.dtypes.length, class: 'device' }, d)),
    ),
    h(
      'tr',
      {},
      h('th', {}, 'op'),
      c.devices.map(() => c.dtypes.map((t) => h('th', { class: 'dtype', title: t }, DTYPE_SHORT[t] ?? t))),
    ),
  ];
  root.append(
    h(
      'div',
      { class: 'toolbar' },
      filter,
      h(
        'span',
        { class: 'legend' },
        Object.entries(LETTER)
          .filter(([k]) => k !== 'none')
          .map(([k, v]) => h('span', { class: `cov s-${k}` }, `${v} ${k}`)),
      ),
    ),
    h(
      'div',
      { class: 'split' },
      h(
        'table',
        { class: 'coverage', 'data-testid': 'coverage' },
        h('thead', {}, head),
        h('tbody', {}, rows),
      ),
      detail,
    ),
    schemaSection(schema),
    pythonSection(schema),
  );
}

/** Conformance per op family: a row per family, a column per device (its share of the family's ruler). */
function familyTable(c: CoverageData): HTMLElement {
  const byKey = new Map<string, FamilyScore>((c.families ?? []).map((f) => [`${f.family} ${f.device}`, f]));
  const families = [...new Set((c.families ?? []).map((f) => f.family))];
  return h(
    'section',
    {},
    h('h2', {}, 'Conformance per op family (% of the ruler)'),
    h(
      'table',
      { class: 'list families', 'data-testid': 'families' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', {}, 'family'),
          c.devices.map((d) => h('th', {}, d)),
        ),
      ),
      h(
        'tbody',
        {},
        families.map((family) =>
          h(
            'tr',
            { 'data-family': family },
            h('th', {}, family),
            c.devices.map((device) => {
              const f = byKey.get(`${family} ${device}`);
              return h(
                'td',
                {
                  class: 'num',
                  'data-device': device,
                  title: f
                    ? `${family} on ${device}: ${f.pass} pass, ${f.fail} fail, ${f.unsupported} unsupported, ${f.skip} skip/xfail, ${f.notRun} not run of ${f.ruler}`
                    : null,
                },
                f ? [h('span', { class: 'score' }, fmtPct(f.score)), ` ${f.pass} / ${f.ruler}`] : '',
              );
            }),
          ),
        ),
      ),
    ),
  );
}

type Reasons = NonNullable<CoverageCell['reasons']>;

function reasonsOf(
  cell: CoverageCell | undefined,
  unsupported: string | undefined,
  device: string,
  dtype: string,
): Reasons {
  const own = cell?.reasons ?? [];
  // A registered device's unsupported cell ran: its skips say why (no kernel, a dtype it does not compute).
  if (cell?.s !== 'unsupported' || cell.n?.unsupported) return own;
  const why = unsupported ?? `the OpInfo does not claim ${dtype} on ${device}`;
  return [{ reason: `unsupported: ${why}`, issue: null, count: 0 }, ...own];
}

function show(
  detail: HTMLElement,
  title: string,
  cell: CoverageCell | undefined,
  reasons: Reasons,
  repo: string | null,
): void {
  const counts =
    Object.entries(cell?.n ?? {})
      .map(([k, v]) => `${v} ${k}`)
      .join(', ') || 'no instances ran';
  detail.replaceChildren(
    h('h3', {}, title),
    h('p', {}, h('span', { class: `badge s-${cell?.s ?? 'none'}` }, cell?.s ?? 'not run'), ` ${counts}`),
    reasons.length
      ? h(
          'ul',
          { class: 'reasons' },
          reasons.map((r) => {
            const href = r.issue ? issueHref(r.issue, repo) : null;
            return h(
              'li',
              { class: 'reason' },
              h('span', { class: 'reason-text' }, r.reason),
              r.count ? ` (${r.count})` : '',
              r.issue
                ? [
                    ' — issue ',
                    href ? h('a', { href, rel: 'noopener noreferrer', target: '_blank' }, r.issue) : r.issue,
                  ]
                : '',
            );
          }),
        )
      : h('p', {}, 'No skip or xfail rule applies.'),
  );
}
