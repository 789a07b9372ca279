/**
 * View 8: a mutation run's score, its kill matrix (oracle × mutation operator), the survivors with their diff
 * and the equivalents with their reasons; the score over runs.
 */
import type { ListedMutant, MutationData } from '../../data/mutation.ts';
import { mutationRunPath } from '../../shared.ts';
import { load } from '../api.ts';
import { lineChart } from '../chart.ts';
import { fmtDate, fmtPct, h, short } from '../dom.ts';

const OUTCOMES = ['mutants', 'killed', 'survived', 'timeout', 'equivalent', 'error'] as const;

function runPicker(m: MutationData): HTMLElement {
  const newest = m.history.at(-1)?.mrunId;
  const select = h(
    'select',
    { 'aria-label': 'mutation run', 'data-testid': 'mutation-run-picker' },
    [...m.history]
      .reverse()
      .map((r) =>
        h(
          'option',
          { value: r.mrunId === newest ? '' : String(r.mrunId), selected: r.mrunId === m.run?.mrunId },
          `#${r.mrunId} · ${short(r.sha)} · ${r.mode} · ${fmtDate(r.at)} · ${fmtPct(r.score.score)}${r.mrunId === newest ? ' (newest)' : ''}`,
        ),
      ),
  );
  select.addEventListener('change', () => {
    location.hash = select.value ? `#/mutation/${encodeURIComponent(select.value)}` : '#/mutation';
  });
  return h('label', { class: 'picker' }, 'run ', select);
}

/** The mutant's one-line edit as a diff (a deleted line has no `+`); both are text nodes, whatever they hold. */
const diff = (m: ListedMutant): HTMLElement =>
  h(
    'pre',
    { class: 'diff' },
    h('span', { class: 'del' }, `- ${m.original}`),
    m.mutated.trim() !== '' && ['\n', h('span', { class: 'ins' }, `+ ${m.mutated}`)],
  );

function mutantList(
  kind: 'survivor' | 'equivalent',
  list: readonly ListedMutant[],
  why: string,
): HTMLElement {
  return h(
    'div',
    { 'data-testid': `${kind}s` },
    list.map((m) =>
      h(
        'article',
        { class: `mutant ${kind}`, 'data-id': m.mutantId },
        h(
          'p',
          {},
          h('code', { class: 'where' }, `${m.file}:${m.line}`),
          ' ',
          h('span', { class: 'badge' }, m.operator),
          ' ',
          h('code', { class: 'quiet' }, m.mutantId),
        ),
        diff(m),
        h(
          'p',
          { class: 'reason' },
          `${why}: `,
          h('span', { class: 'reason-text' }, m.reason ?? '(none recorded)'),
        ),
      ),
    ),
  );
}

function killMatrix(m: MutationData): HTMLElement {
  return h(
    'table',
    { class: 'list matrix', 'data-testid': 'kill-matrix' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', {}, 'killer'),
        m.operators.map((o) => h('th', { class: 'op', 'data-operator': o }, h('code', {}, o))),
        ['kills', 'first', 'only'].map((t) => h('th', { class: 'total' }, t)),
      ),
    ),
    h(
      'tbody',
      {},
      m.matrix.map((r) =>
        h(
          'tr',
          { 'data-killer': r.killer },
          h('th', {}, r.killer),
          m.operators.map((o) => {
            const n = r.byOperator[o] ?? 0;
            return h('td', { class: n ? 'num' : 'num zero', 'data-operator': o }, n || '·');
          }),
          h('td', { class: 'num total', 'data-col': 'kills' }, r.kills),
          h('td', { class: 'num total', 'data-col': 'first' }, r.first),
          h('td', { class: `num total${r.only ? ' only' : ''}`, 'data-col': 'only' }, r.only),
        ),
      ),
    ),
  );
}

function operatorTable(m: MutationData): HTMLElement {
  const cols = ['total', 'killed', 'survived', 'timeout', 'equivalent', 'error'] as const;
  return h(
    'table',
    { class: 'list', 'data-testid': 'operators' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', {}, 'operator'),
        cols.map((c) => h('th', {}, c)),
      ),
    ),
    h(
      'tbody',
      {},
      m.perOperator.map((o) =>
        h(
          'tr',
          { 'data-operator': o.operator },
          h('td', {}, h('code', {}, o.operator)),
          cols.map((c) => h('td', { class: 'num', 'data-col': c }, o[c])),
        ),
      ),
    ),
  );
}

export async function mutationView(root: HTMLElement, args: readonly string[]): Promise<void> {
  const m = await load<MutationData>(args[0] ? mutationRunPath(Number(args[0])) : 'data/mutation.json', true);
  const run = m.run;
  root.append(
    h('h1', {}, 'Mutation testing', run ? [' at ', h('code', { title: run.sha }, short(run.sha))] : ''),
  );
  if (!run) {
    root.append(h('p', { class: 'empty' }, 'No mutation runs yet: `npx opgate mutate`.'));
    return;
  }
  root.append(
    runPicker(m),
    h(
      'dl',
      { class: 'score', 'data-testid': 'mutation-score' },
      h('dt', {}, 'score'),
      h('dd', { 'data-key': 'score', title: String(run.score.score) }, fmtPct(run.score.score)),
      OUTCOMES.map((k) => [h('dt', {}, k), h('dd', { 'data-key': k }, run.score[k])]),
    ),
    h(
      'p',
      { class: 'legend' },
      `run #${run.mrunId} · ${run.mode} on ${run.branch} · ${fmtDate(run.at)} · `,
      h('code', {}, JSON.stringify(run.args)),
      ' · score = (killed + timeout) / (mutants − equivalent − error)',
    ),
  );
  root.append(h('h2', {}, `Score over mutation runs (${m.history.length})`));
  lineChart(root, {
    label: 'score %',
    shas: m.history.map((r) => r.sha),
    values: m.history.map((r) => +(r.score.score * 100).toFixed(2)),
    height: 160,
  });
  root.append(
    h('h2', {}, 'Kill matrix'),
    h(
      'p',
      { class: 'legend' },
      'Mutants each oracle (or unit test) kills, per mutation operator. first: it failed first; only: no other killer has a kill row for the mutant (meaningful in a --per-oracle run, where every killing oracle gets one).',
    ),
    m.matrix.length ? killMatrix(m) : h('p', { class: 'empty' }, 'Nothing was killed.'),
    h('h2', {}, 'Per operator'),
    operatorTable(m),
    h('h2', {}, `Survivors (${m.survivors.length})`),
    m.survivors.length
      ? mutantList('survivor', m.survivors, 'why')
      : h('p', { class: 'empty' }, 'Every mutant was killed or declared equivalent.'),
    h('h2', {}, `Equivalents (${m.equivalents.length})`),
    m.equivalents.length
      ? mutantList('equivalent', m.equivalents, 'reason')
      : h('p', { class: 'empty' }, 'No mutant was declared equivalent.'),
  );
}
