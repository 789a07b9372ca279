/**
 * How a result is stored since migration 10 (compact rows): `result_rows` references its instance (`instances`:
 * id, op, oracle, device, dtype, layout, mode once) and its message (`messages`) by integer, keeps its status as a
 * small code and its duration in whole microseconds. The `results` view shows the old columns; this file holds
 * the mapping both ways, for the migration, the view, the writers and the row check.
 */

/** Status codes, the commonest first (0 and 1 take no bytes in a SQLite record). */
export const STATUS_CODES = ['pass', 'skip', 'fail', 'xfail', 'xpass', 'flaky', 'error'] as const;

export const statusCode = (s: string): number => {
  const k = (STATUS_CODES as readonly string[]).indexOf(s);
  return k < 0 ? -1 : k;
};

/** SQL: a status name from the code in `col` (NULL for a code opgate never writes). */
export const STATUS_NAME_SQL = (col: string): string =>
  `CASE ${col} ${STATUS_CODES.map((s, k) => `WHEN ${k} THEN '${s}'`).join(' ')} END`;

/** SQL: the code of the status name in `col` (-1 for a name opgate never writes). */
export const STATUS_CODE_SQL = (col: string): string =>
  `CASE ${col} ${STATUS_CODES.map((s, k) => `WHEN '${s}' THEN ${k}`).join(' ')} ELSE -1 END`;

/** SQL: `col` (a status code) is one of `names`. */
export const STATUS_IN = (col: string, names: readonly string[]): string =>
  `${col} IN (${names.map(statusCode).join(', ')})`;

/**
 * The results that need a look (fail, xpass, flaky, error): the partial index `result_rows_notable` holds only
 * their rows, and a query uses it when its WHERE has this very term (SQLite matches the expression).
 */
export const NOTABLE = (alias: string): string =>
  STATUS_IN(`${alias}.status`, ['fail', 'xpass', 'flaky', 'error']);

/** Milliseconds as stored: whole microseconds. */
export const toMicros = (ms: number): number => Math.round(ms * 1000);

/** The `results` columns over `result_rows r`, `instances i` and `messages m`. */
export const RESULT_VIEW_COLUMNS = `r.run_id AS run_id, i.id AS id, i.op AS op, i.oracle AS oracle, i.device AS device,
  i.dtype AS dtype, i.layout AS layout, i.mode AS mode, ${STATUS_NAME_SQL('r.status')} AS status,
  r.dur_us / 1000.0 AS duration_ms, r.attempts AS attempts, m.text AS message, r.sample AS sample, r.seed AS seed,
  r.checks AS checks, r.rerun_passes AS rerun_passes, r.rerun_failures AS rerun_failures, r.max_ulp AS max_ulp`;
