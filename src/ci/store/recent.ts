/**
 * Each instance's recent history, kept as runs end: its last RECENT_OUTCOMES outcomes in normal runs and its last
 * RECENT_DURATIONS durations in complete runs, each entry tagged with its run. Flake detection (`flaky list`,
 * `file-issues`, the flaky view) and shard planning read this table, one row per instance, instead of every
 * result ever stored: their cost follows the number of instances, not the length of the history.
 *
 * What counts (the definition: store/flaky.ts's outcomeRows, store/durations.ts's durationRows): a run's outcomes once it has finished (passed, failed,
 * interrupted or aborted; a run in progress is not history yet), skips excluded; its durations once it is
 * complete (passed or failed), skips and errors excluded. A run folded again (resumed, or replaced by a fuller
 * copy in a merge) replaces its entries; runs dropped by retention leave. Derived data: `rebuildRecent`
 * recomputes the table from the results, and a test checks that the maintained table equals a rebuild.
 *
 * Entry format (compact text, oldest first, comma-separated): `<run id><letter>[<message id>]` for outcomes (P
 * pass, X xfail, K flaky, F fail, E error, U xpass; a failure's message id in `messages`), `<run id>:<ms>` for
 * durations.
 */
import { type ResultsSource, SQL, type Sql } from './connection.ts';
import { STATUS_NAME_SQL, statusCode } from './result_columns.ts';

/**
 * As many outcomes as flake detection's default window (`--window 30`, the flaky view's): the table is full once
 * the history is that long, so what a reader decodes stops growing there. A longer window reads the results.
 */
export const RECENT_OUTCOMES = 30;
export const RECENT_DURATIONS = 5;

const LETTER: Record<string, string> = {
  pass: 'P',
  xfail: 'X',
  flaky: 'K',
  fail: 'F',
  error: 'E',
  xpass: 'U',
};
const STATUS: Record<string, string> = Object.fromEntries(Object.entries(LETTER).map(([s, l]) => [l, s]));
const BAD = new Set(['F', 'E', 'U', 'K']);
const TIMED = new Set(['pass', 'fail', 'xfail', 'xpass', 'flaky']);

export interface RecentOutcome {
  readonly run: number;
  readonly status: string;
  /** A failing or flaky outcome's message. */
  readonly message: string | null;
}

export interface RecentRow {
  readonly id: string;
  readonly op: string;
  readonly oracle: string;
  readonly device: string;
  /** Oldest first. */
  readonly outcomes: readonly RecentOutcome[];
  /** [run, ms], oldest first. */
  readonly durations: readonly (readonly [number, number])[];
}

interface Stored {
  id: string;
  op: string;
  oracle: string;
  device: string;
  outcomes: string;
  durations: string;
}

type Entry = [run: number, text: string];

/** Entries of a stored list (a hot path: `flaky list` parses tens of thousands of 50-entry lists). */
function parse(s: string): Entry[] {
  const out: Entry[] = [];
  if (s === '') return out;
  for (const e of s.split(',')) {
    let i = 0;
    while (i < e.length && e.charCodeAt(i) >= 48 && e.charCodeAt(i) <= 57) i++;
    out.push([Number(e.slice(0, i)), e.slice(i)]);
  }
  return out;
}
const show = (es: readonly Entry[]): string => es.map(([r, t]) => `${r}${t}`).join(',');

/** `entries` with run `run`'s entry set to `text` (or removed), in run order, the newest `keep`. */
function put(entries: Entry[], run: number, text: string | null, keep: number): Entry[] {
  const out = entries.filter(([r]) => r !== run);
  if (text !== null) {
    out.push([run, text]);
    out.sort((a, b) => a[0] - b[0]);
  }
  return out.slice(-keep);
}

/**
 * Folds run `runId`'s results into the table (inside the caller's write transaction): its outcomes once it has
 * finished, its durations once it is complete. Idempotent: folding a run again replaces its entries.
 */
export function foldRun(db: Sql, runId: number): void {
  const run = db.prepare('SELECT kind, status FROM runs WHERE run_id = ?').get(runId) as
    | { kind: string; status: string }
    | undefined;
  if (run?.kind !== 'normal' || run.status === 'running') return;
  foldCells(db, runId);
  const complete = run.status === 'passed' || run.status === 'failed';
  const get = db.prepare('SELECT * FROM instance_recent WHERE id = ?');
  const upsert = db.prepare(
    `INSERT INTO instance_recent (id, op, oracle, device, outcomes, durations, bad)
     VALUES (@id, @op, @oracle, @device, @outcomes, @durations, @bad)
     ON CONFLICT (id) DO UPDATE SET outcomes = excluded.outcomes, durations = excluded.durations, bad = excluded.bad`,
  );
  const rows = db
    .prepare(
      `SELECT i.id, i.op, i.oracle, i.device, ${STATUS_NAME_SQL('r.status')} AS status, r.dur_us / 1000.0 AS ms, r.msg
       FROM result_rows r JOIN instances i ON i.inst = r.inst WHERE r.run_id = ?`,
    )
    .all(runId) as {
    id: string;
    op: string;
    oracle: string;
    device: string;
    status: string;
    ms: number;
    msg: number | null;
  }[];
  for (const r of rows) {
    const had = get.get(r.id) as Stored | undefined;
    const letter = LETTER[r.status];
    const outcome =
      letter === undefined ? null : BAD.has(letter) && r.msg !== null ? `${letter}${r.msg}` : letter;
    const outcomes = show(put(parse(had?.outcomes ?? ''), runId, outcome, RECENT_OUTCOMES));
    const timed = complete && TIMED.has(r.status) ? `:${r.ms}` : null;
    const durations = show(put(parse(had?.durations ?? ''), runId, timed, RECENT_DURATIONS));
    if (!had && outcomes === '' && durations === '') continue;
    upsert.run({
      id: r.id,
      op: r.op,
      oracle: r.oracle,
      device: r.device,
      outcomes,
      durations,
      bad: hasBad(outcomes),
    });
  }
}

/**
 * Takes a run out of the derived tables (it is running again: resumed), so that it counts through its results,
 * like any run in progress, until it ends and is folded anew.
 */
export function unfoldRun(db: Sql, runId: number): void {
  db.prepare('DELETE FROM run_cells WHERE run_id = ?').run(runId);
  db.prepare('DELETE FROM run_counts WHERE run_id = ?').run(runId);
  const get = db.prepare('SELECT id, outcomes, durations FROM instance_recent WHERE id = ?');
  const ids = db.prepare('SELECT id FROM results WHERE run_id = ?').pluck().all(runId) as string[];
  dropEntries(
    db,
    ids.flatMap((id) => (get.get(id) as Stored | undefined) ?? []),
    (run) => run === runId,
  );
}

/** Removes the entries of the runs `gone` names from `rows` (stored back, or deleted once empty). */
function dropEntries(
  db: Sql,
  rows: readonly Pick<Stored, 'id' | 'outcomes' | 'durations'>[],
  gone: (run: number) => boolean,
): void {
  const update = db.prepare('UPDATE instance_recent SET outcomes = ?, durations = ?, bad = ? WHERE id = ?');
  const del = db.prepare('DELETE FROM instance_recent WHERE id = ?');
  for (const r of rows) {
    const outcomes = show(parse(r.outcomes).filter(([run]) => !gone(run)));
    const durations = show(parse(r.durations).filter(([run]) => !gone(run)));
    if (outcomes === r.outcomes && durations === r.durations) continue;
    if (outcomes === '' && durations === '') del.run(r.id);
    else update.run(outcomes, durations, hasBad(outcomes), r.id);
  }
}

/**
 * A finished run's result counts per cell (run_cells) and per (device, status) (run_counts, the grid's), replacing
 * what an earlier fold of it counted.
 */
function foldCells(db: Sql, runId: number): void {
  db.prepare('DELETE FROM run_cells WHERE run_id = ?').run(runId);
  db.prepare('DELETE FROM run_counts WHERE run_id = ?').run(runId);
  const skipOrXfail = `r.status IN (${statusCode('skip')}, ${statusCode('xfail')})`;
  db.prepare(
    `INSERT INTO run_cells (run_id, op, device, dtype, status, msg, n)
     SELECT r.run_id, i.op, i.device, i.dtype, ${STATUS_NAME_SQL('r.status')},
            CASE WHEN ${skipOrXfail} THEN COALESCE(r.msg, 0) ELSE 0 END, COUNT(*)
     FROM result_rows r JOIN instances i ON i.inst = r.inst
     WHERE r.run_id = ? GROUP BY 1, 2, 3, 4, 5, 6`,
  ).run(runId);
  db.prepare(
    `INSERT INTO run_counts (run_id, device, status, n)
     SELECT run_id, device, status, SUM(n) FROM run_cells WHERE run_id = ? GROUP BY 1, 2, 3`,
  ).run(runId);
}

const BAD_LETTER = new RegExp(`[${[...BAD].join('')}]`);
const hasBad = (outcomes: string): number => (BAD_LETTER.test(outcomes) ? 1 : 0);

/** Removes the entries of runs that no longer exist (after retention dropped them). */
export function dropGoneRuns(db: Sql, gone: ReadonlySet<number>): void {
  if (gone.size === 0) return;
  for (const table of ['run_cells', 'run_counts'])
    db.prepare(`DELETE FROM ${table} WHERE run_id IN (SELECT value FROM json_each(?))`).run(
      JSON.stringify([...gone]),
    );
  const rows = db.prepare('SELECT id, outcomes, durations FROM instance_recent').all() as Stored[];
  dropEntries(db, rows, (run) => gone.has(run));
}

/** Recomputes the whole table from the results (a migration, `opgate db rebuild`, and the tests' check). */
export function rebuildRecent(db: Sql): void {
  db.prepare('DELETE FROM instance_recent').run();
  db.prepare('DELETE FROM run_cells').run();
  db.prepare('DELETE FROM run_counts').run();
  const runs = db.prepare('SELECT run_id FROM runs ORDER BY run_id').pluck().all() as number[];
  for (const run of runs) foldRun(db, run);
}

function decode(db: ResultsSource, r: Stored, messages: Map<number, string | null>): RecentRow {
  const text = (id: number) => {
    if (!messages.has(id))
      messages.set(
        id,
        (db[SQL].prepare('SELECT text FROM messages WHERE msg = ?').pluck().get(id) as string) ?? null,
      );
    return messages.get(id) ?? null;
  };
  return {
    id: r.id,
    op: r.op,
    oracle: r.oracle,
    device: r.device,
    outcomes: parse(r.outcomes).map(([run, t]) => ({
      run,
      status: STATUS[t[0]],
      message: t.length > 1 ? text(Number(t.slice(1))) : null,
    })),
    durations: parse(r.durations).map(([run, t]) => [run, Number(t.slice(1))] as const),
  };
}

/** The instances whose kept outcomes include a failure (`all`: every instance), with their recent history. */
export function recentRows(
  db: ResultsSource,
  o: { all?: boolean; ids?: readonly string[] } = {},
): RecentRow[] {
  return [...recentRowPages(db, o)].flat();
}

/** How many instances a page of recentRowPages holds. */
const PAGE = 4096;

/**
 * recentRows a page at a time, by id (keyset paging): a caller that reduces each page holds one page, not every
 * instance's history.
 */
export function* recentRowPages(
  db: ResultsSource,
  o: {
    all?: boolean;
    ids?: readonly string[];
    /** Keeps a row by its stored outcomes (`<run><letter>[<msg>]`, comma-separated) before decoding it. */
    keep?: (outcomes: string) => boolean;
  } = {},
): Generator<RecentRow[]> {
  const messages = new Map<number, string | null>();
  const where = [
    o.ids ? 'id IN (SELECT value FROM json_each(@ids))' : '',
    o.all || o.ids ? '' : 'bad = 1',
    'id > @after',
  ]
    .filter(Boolean)
    .join(' AND ');
  const page = db[SQL].prepare(`SELECT * FROM instance_recent WHERE ${where} ORDER BY id LIMIT ${PAGE}`);
  const ids = o.ids ? JSON.stringify(o.ids) : undefined;
  let after = '';
  for (;;) {
    const rows = page.all({ after, ...(ids === undefined ? {} : { ids }) }) as Stored[];
    if (rows.length === 0) return;
    const kept = o.keep ? rows.filter((r) => o.keep?.(r.outcomes)) : rows;
    if (kept.length) yield kept.map((r) => decode(db, r, messages));
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1].id;
  }
}

/** Every instance's kept durations (ms), oldest first: what shard planning reads. */
export function recentDurations(db: ResultsSource): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const r of db[SQL]
    .prepare(`SELECT id, durations FROM instance_recent WHERE durations != ''`)
    .iterate() as Iterable<{ id: string; durations: string }>)
    out.set(
      r.id,
      parse(r.durations).map(([, t]) => Number(t.slice(1))),
    );
  return out;
}

/** The derived tables as stored (what a test compares with a rebuild). */
export function recentTable(db: ResultsSource): Record<string, unknown>[] {
  return [
    ...(db[SQL].prepare('SELECT * FROM instance_recent ORDER BY id').all() as Record<string, unknown>[]),
    ...(db[SQL]
      .prepare(
        `SELECT c.run_id, c.op, c.device, c.dtype, c.status, m.text, c.n FROM run_cells c
         LEFT JOIN messages m ON m.msg = c.msg ORDER BY 1, 2, 3, 4, 5, 6`,
      )
      .all() as Record<string, unknown>[]),
    ...(db[SQL].prepare('SELECT * FROM run_counts ORDER BY 1, 2, 3').all() as Record<string, unknown>[]),
  ];
}
