/**
 * docs/deviations.md: where the runtime knowingly differs from PyTorch 1.13, read from op_db (each OpInfo's
 * goldenDeviations and goldenTolerances, declared in op_db/deviations.ts and op_db/deviation_kinds.ts, and the
 * golden oracle's skip / xfail rules). Entries that share a reason are one table; tables and rows are sorted by
 * content, never by op_db's order, so moving an OpInfo changes no byte.
 */
import type { GoldenDeviation, OpInfo, SkipRule } from '../../../op_db/index.ts';
import { byText, code, GENERATED_NOTE, groupBy, prose, table } from './markdown.ts';

type Row = readonly string[];

/** The sections of declared deviations, by which golden comparison differs. */
const KINDS: readonly { kind: GoldenDeviation['kind'] | 'any'; title: string; says: string }[] = [
  {
    kind: 'any',
    title: 'Every comparison of the matching samples',
    says: 'outputs, raised errors and gradients of the matching samples are all expected to differ',
  },
  { kind: 'sample', title: 'Outputs', says: 'the outputs of the matching samples are expected to differ' },
  {
    kind: 'error',
    title: 'Errors',
    says: 'PyTorch raises where the runtime returns, or the other way round, on the matching error inputs',
  },
  { kind: 'grad', title: 'Gradients', says: 'the gradients of the matching samples are expected to differ' },
  {
    kind: 'layout',
    title: 'Output memory layouts',
    says: 'only the strides of the outputs a sample allocates differ (values are still compared), on the layouts listed',
  },
];

const list = (xs: readonly string[] | undefined) => (xs?.length ? xs.join(', ') : 'all');

/** Groups sorted by size (largest first), then by reason; rows sorted as text. */
function sortedGroups<T extends { reason: string }>(items: readonly T[]): [string, T[]][] {
  return [...groupBy(items, (t) => t.reason)].sort(
    ([ra, a], [rb, b]) => b.length - a.length || byText(ra, rb),
  );
}

/** Rows sorted by their text, inline-code backticks aside (`norm` before `norm.fro`). */
const sortKey = (r: Row) => r.join('\u0000').replace(/`/g, '');
const sortRows = (rows: Row[]): Row[] => rows.sort((a, b) => byText(sortKey(a), sortKey(b)));

/** One table per reason under `**Why.**`, a row that repeats (the same op and scope) once. */
function reasonTables(groups: [string, Row[]][], head: readonly string[]): string[] {
  return groups.flatMap(([reason, rows]) => [
    '',
    `**Why.** ${prose(reason)}${/[.!?]$/.test(reason.trim()) ? '' : '.'}`,
    '',
    ...table(head, sortRows([...new Map(rows.map((r) => [r.join('\u0000'), r])).values()])),
  ]);
}

function deviationSections(db: readonly OpInfo[]): string[] {
  const all = db.flatMap((info) =>
    info.goldenDeviations.map((d) => ({ op: info.name, d, reason: d.reason })),
  );
  return KINDS.flatMap(({ kind, title, says }) => {
    const mine = all.filter(({ d }) => (d.kind ?? 'any') === kind);
    if (mine.length === 0) return [];
    const groups = sortedGroups(mine).map(([reason, ds]): [string, Row[]] => [
      reason,
      ds.map(({ op, d }) => [
        code(op),
        list(d.dtypes),
        d.sample === undefined ? 'all' : code(d.sample),
        list(d.layouts),
      ]),
    ]);
    return [
      '',
      `### ${title}`,
      '',
      `${mine.length} declarations: ${says}.`,
      ...reasonTables(groups, ['op', 'dtypes', 'samples whose name contains', 'layouts']),
    ];
  });
}

function toleranceSection(db: readonly OpInfo[]): string[] {
  const all = db.flatMap((info) =>
    Object.entries(info.goldenTolerances).map(([dtype, t]) => ({
      op: info.name,
      dtype,
      t: t!,
      reason: t!.reason,
    })),
  );
  const groups = sortedGroups(all).map(([reason, ts]): [string, Row[]] => [
    reason,
    ts.map(({ op, dtype, t }) => [code(op), dtype, String(t.rtol), String(t.atol)]),
  ]);
  return [
    '',
    '## Loosened golden tolerances',
    '',
    `Where PyTorch 1.13's own result is the less accurate one, the golden comparison of that dtype is loosened ` +
      `(\`goldenTolerances\`; never the runtime's own tolerance, which the reference oracle judges). Each ` +
      `loosening must be earned like every tolerance (see [the matrix](matrix.md#tolerances)). ${all.length} ` +
      'loosened tolerances:',
    ...reasonTables(groups, ['op', 'dtype', 'rtol', 'atol']),
  ];
}

function ruleSection(db: readonly OpInfo[]): string[] {
  const all = db.flatMap((info) =>
    info.skips
      .filter((s: SkipRule) => s.oracle === 'golden')
      .map((s) => ({ op: info.name, s, reason: s.reason })),
  );
  if (all.length === 0) return [];
  // The issue column only where some rule links one.
  const issues = all.some(({ s }) => s.issue !== undefined);
  const groups = sortedGroups(all).map(([reason, rs]): [string, Row[]] => [
    reason,
    rs.map(({ op, s }) => [
      code(op),
      s.kind,
      s.device ?? 'all',
      s.dtype ?? 'all',
      s.layout ?? 'all',
      s.mode ?? 'all',
      ...(issues ? [s.issue === undefined ? '' : `#${s.issue}`] : []),
    ]),
  ]);
  return [
    '',
    '## Golden instances skipped or expected to fail',
    '',
    "Where PyTorch 1.13 crashes, or reads memory in a way no recording can pin down, the golden oracle's " +
      `instances are skipped or expected to fail (skip rules in the OpInfo; an xfail that passes fails the run). ` +
      `${all.length} rules:`,
    ...reasonTables(groups, [
      'op',
      'rule',
      'device',
      'dtype',
      'layout',
      'mode',
      ...(issues ? ['issue'] : []),
    ]),
  ];
}

/** The deviations page (Markdown) of an op database. */
export function renderDeviations(db: readonly OpInfo[]): string {
  const ops = db.filter((o) => o.goldenDeviations.length > 0 || Object.keys(o.goldenTolerances).length > 0);
  const count = db.reduce((n, o) => n + o.goldenDeviations.length, 0);
  const lines = [
    '# Deliberate deviations from PyTorch 1.13',
    '',
    GENERATED_NOTE('op_db (op_db/deviations*.ts, op_db/deviation_kinds.ts and the OpInfos)'),
    '',
    'The golden oracle compares every op with results recorded from real PyTorch 1.13 ' +
      '([the golden oracle](matrix.md#the-golden-oracle-real-pytorch-113-as-the-spec)). Where the runtime ' +
      'knowingly differs, the difference is data in `op_db/deviations.ts` (nn ops in `op_db/deviations_nn.ts`, ' +
      'output layouts in `op_db/deviations_layout.ts`, the kinds many ops share in `op_db/deviation_kinds.ts`): the matching golden comparisons are expected to differ, and a declared ' +
      'deviation that stops differing on all of its samples fails, like an unexpected pass. Each entry says why; ' +
      'none hides a runtime bug (those are fixed, not declared).',
    '',
    `Now: ${ops.length} OpInfos, ${count} declared deviations. A deviation applies on every device the golden ` +
      'oracle runs (cpu, and webgpu for the dtypes it claims), to the dtypes, samples (by a part of the sample ' +
      "name) and layouts its row names; 'all' where it names none. To add one, declare it in " +
      '`op_db/deviations.ts` (`deviations_nn.ts` for an nn op) and run `npx opgate docs`.',
    '',
    '## Declared deviations',
    ...deviationSections(db),
    ...toleranceSection(db),
    ...ruleSection(db),
  ];
  return `${lines.join('\n')}\n`;
}
