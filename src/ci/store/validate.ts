/**
 * What a stored row may hold. SQLite's checks see pages, not meaning: a damaged byte inside a record (a commit
 * sha turned to garbage, an id that no longer names its instance) passes `quick_check`. Writers check the runs
 * table when they open a file, `merge` checks every row it copies, and `opgate db check` checks them all.
 */
import { instanceId } from '../../oracles/index.ts';
import type { Sql } from './connection.ts';
import { RUN_STATUSES } from './liveness.ts';
import { RESULT_VIEW_COLUMNS } from './result_columns.ts';

/** Printable ASCII without spaces: a commit sha, a tier, a kind (tests use short names like `c1`). */
const TOKEN = /^[\x21-\x7e]{1,128}$/;
/** A branch or a platform: printable, no control characters and no replacement characters from bad UTF-8. */
const isLabel = (v: string): boolean =>
  v.length <= 512 && [...v].every((c) => c.codePointAt(0)! >= 0x20 && c !== '\x7f' && c !== '\ufffd');
const SHARD = /^(\d{1,6})\/(\d{1,6})$/;
const STATUSES = new Set(['pass', 'fail', 'skip', 'xfail', 'xpass', 'flaky', 'error']);

/** A commit sha, scenario or other single-word label as opgate writes it. */
export const isToken = (v: unknown): boolean => typeof v === 'string' && TOKEN.test(v);

const isoTime = (v: unknown) =>
  typeof v === 'string' &&
  /^\d{4}-\d\d-\d\d[T ]\d\d:\d\d[\x20-\x7e]{0,24}$/.test(v) &&
  !Number.isNaN(Date.parse(v));

/** The first thing wrong with a runs row (its SQL column names), or null. */
export function runRowProblem(r: Record<string, unknown>): string | null {
  const shard = typeof r.shard === 'string' ? SHARD.exec(r.shard) : null;
  if (typeof r.commit_sha !== 'string' || !TOKEN.test(r.commit_sha)) return 'commit_sha';
  if (typeof r.branch !== 'string' || !isLabel(r.branch)) return 'branch';
  if (typeof r.platform !== 'string' || !isLabel(r.platform) || r.platform === '') return 'platform';
  if (!shard || Number(shard[1]) < 1 || Number(shard[1]) > Number(shard[2])) return 'shard';
  if (typeof r.tier !== 'string' || !TOKEN.test(r.tier)) return 'tier';
  // (A file from before runs had a kind, schema 1, has no such column.)
  if (r.kind !== undefined && (typeof r.kind !== 'string' || !TOKEN.test(r.kind))) return 'kind';
  if (!isoTime(r.started_at)) return 'started_at';
  if (r.ended_at !== null && !isoTime(r.ended_at)) return 'ended_at';
  if (!(RUN_STATUSES as readonly unknown[]).includes(r.status)) return 'status';
  if (r.shard_set != null && (typeof r.shard_set !== 'string' || !TOKEN.test(r.shard_set)))
    return 'shard_set';
  try {
    const f = JSON.parse(String(r.filters));
    if (f === null || typeof f !== 'object' || Array.isArray(f)) return 'filters';
  } catch {
    return 'filters';
  }
  return null;
}

const count = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const optionalCount = (v: unknown) => v === null || v === undefined || count(v);

/** The first thing wrong with a results row (its SQL column names), or null. */
export function resultRowProblem(r: Record<string, unknown>): string | null {
  const text = ['op', 'oracle', 'device', 'dtype', 'layout', 'mode'] as const;
  for (const k of text) if (typeof r[k] !== 'string' || !TOKEN.test(r[k] as string)) return k;
  const id = instanceId(
    r.oracle as never,
    r.op as string,
    r.device as string,
    r.dtype as string,
    r.layout as never,
    r.mode as never,
  );
  if (r.id !== id) return 'id';
  if (!STATUSES.has(r.status as string)) return 'status';
  if (typeof r.duration_ms !== 'number' || !(r.duration_ms >= 0) || !Number.isFinite(r.duration_ms))
    return 'duration_ms';
  if (!count(r.attempts)) return 'attempts';
  if (!count(r.checks)) return 'checks';
  if (!optionalCount(r.rerun_passes)) return 'rerun_passes';
  if (!optionalCount(r.rerun_failures)) return 'rerun_failures';
  if (r.message !== null && typeof r.message !== 'string') return 'message';
  // A compact row whose message is gone.
  if (r.msg !== undefined && r.msg !== null && r.message === null) return 'message';
  return null;
}

/** A stored row that does not hold what opgate writes: its run, its result id (results rows), the column. */
export interface DamagedRow {
  readonly runId: unknown;
  /** The result's id, for a results row. */
  readonly id?: unknown;
  /** Its instance number (result_rows' key). */
  readonly inst?: unknown;
  readonly column: string;
}

/** `run 3: commit_sha`, `run 3 result "<id>": status`. */
export const describeDamage = (d: DamagedRow): string =>
  d.id === undefined
    ? `run ${d.runId}: ${d.column}`
    : `run ${d.runId} result ${JSON.stringify(d.id)}: ${d.column}`;

/**
 * The damaged rows of the runs table, and with `results` of the results table too, in table order. Lazy: a caller
 * may stop at the first; one that writes meanwhile collects them first (better-sqlite3 runs no other statement on
 * a connection while an iteration is open).
 */
export function* damagedRows(db: Sql, o: { results: boolean }): Generator<DamagedRow> {
  for (const r of db.prepare('SELECT * FROM runs').iterate() as Iterable<Record<string, unknown>>) {
    const column = runRowProblem(r);
    if (column) yield { runId: r.run_id, column };
  }
  if (!o.results) return;
  // Compact rows (schema 10 on) through the base tables, so that a row whose instance is gone shows (the view's
  // join would hide it); an older file's results table as it is (`opgate db check` reads without migrating).
  const compact = db.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'result_rows'`).get() !== undefined;
  const rows = db.prepare(
    compact
      ? `SELECT r.inst AS inst, r.msg AS msg, ${RESULT_VIEW_COLUMNS}
         FROM result_rows r LEFT JOIN instances i ON i.inst = r.inst LEFT JOIN messages m ON m.msg = r.msg`
      : 'SELECT * FROM results',
  );
  for (const r of rows.iterate() as Iterable<Record<string, unknown>>) {
    const column = resultRowProblem(r);
    if (column) yield { runId: r.run_id, id: r.id, inst: r.inst, column };
  }
}
