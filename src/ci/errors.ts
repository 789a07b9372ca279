/**
 * Typed ci errors: a stable `code` and one line saying what was wrong (the flag or file, got vs expected). The
 * CLI prints `opgate: <message>` and exits 2 for any of them, without a stack trace (OPGATE_DEBUG=1 shows it).
 */
export type CiErrorCode =
  /** A flag's value is malformed or out of range (a number, a shard spec, a regex). */
  | 'E_INVALID_ARGUMENT'
  /** An op, device, dtype, oracle, layout, mode or instance name that does not exist. */
  | 'E_UNKNOWN_NAME'
  /** A run or list that selects 0 instances (allowed only with --allow-empty). */
  | 'E_EMPTY_SELECTION'
  /** An input file or directory that does not exist. */
  | 'E_FILE_NOT_FOUND'
  /** A file that is not an opgate results database (not SQLite, or SQLite without opgate's tables). */
  | 'E_DB_INVALID'
  /** A results database written by a newer opgate (schema version above this one's). */
  | 'E_DB_SCHEMA_NEWER'
  /** The results database's disk (or its size limit) is full: nothing more could be written. */
  | 'E_DB_FULL'
  /** The results database, its folder or its -wal cannot be written (permissions, a read-only mount). */
  | 'E_DB_READONLY'
  /** The results database is damaged: SQLite's check fails, a -wal would drop committed frames, a row is garbage. */
  | 'E_DB_CORRUPT'
  /** The operating system failed a read or write of the results database (an I/O error). */
  | 'E_DB_IO'
  /** Another process held the results database's write lock for longer than the busy timeout. */
  | 'E_DB_BUSY'
  /** The shards of one shard set disagree (different plans), or their merged runs are not its selection. */
  | 'E_SHARD_SET_MISMATCH'
  /** Nothing to resume: no unfinished run matching the request. */
  | 'E_NOTHING_TO_RESUME'
  | 'E_NOTHING_TO_REPORT'
  /** GitHub could not be reached (DNS, connection refused, timeout), as opposed to an HTTP error status. */
  | 'E_GITHUB_UNREACHABLE'
  /** A command that writes to GitHub was run without GITHUB_TOKEN. */
  | 'E_GITHUB_TOKEN_MISSING'
  /** `opgate perf diff`: no per-function profile recorded for the scenario at that commit. */
  | 'E_PERF_PROFILE_NOT_FOUND'
  /** valgrind/callgrind (or the scenario listing it runs) exited with an error. */
  | 'E_CALLGRIND_FAILED'
  /** An external tool a command needs (valgrind, git) is not installed or failed to run. */
  | 'E_TOOL_MISSING'
  /** An external tool ran and crashed (the golden recorder's PyTorch aborting on a sample). */
  | 'E_TOOL_FAILED'
  /** rerun-disabled: a quarantined instance failed some of its reruns (a test failure, stored as its message). */
  | 'E_RERUNS_FAILED'
  /** A committed data file (the schema snapshot, the BC allowlist) that does not parse or validate. */
  | 'E_FILE_INVALID'
  /** Two operator-table overloads with the same qualified name. */
  | 'E_DUPLICATE_OVERLOAD'
  /** A file a command writes (a generated documentation page) could not be written. */
  | 'E_WRITE_FAILED';

export class CiError extends Error {
  constructor(
    readonly code: CiErrorCode,
    message: string,
  ) {
    super(`${message} [${code}]`);
    this.name = 'CiError';
  }
}

/** True for any error that carries a stable code (ci, dashboards, runtime): the CLI prints it as one line. */
export function isCodedError(e: unknown): e is Error & { code: string } {
  const code = e instanceof Error ? (e as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^E_[A-Z0-9_]+$/.test(code);
}

/** The valid name nearest to `got` (edit distance), for "did you mean" hints. */
export function nearestNames(got: string, valid: readonly string[], max = 3): string[] {
  const d = (a: string, b: string): number => {
    const row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      let prev = row[0];
      row[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const cur = row[j];
        row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
        prev = cur;
      }
    }
    return row[b.length];
  };
  const g = got.toLowerCase();
  return [...valid]
    .map((v) => ({
      v,
      s: v.toLowerCase().includes(g) || g.includes(v.toLowerCase()) ? 0 : d(g, v.toLowerCase()),
    }))
    .sort((a, b) => a.s - b.s || a.v.localeCompare(b.v))
    .slice(0, max)
    .map((x) => x.v);
}
