/**
 * Deterministic fault injection at the store's write points, like SQLite's own I/O-error tests: every write the
 * store makes passes `writePoint(label)` inside its transaction, and a fault plan makes the k-th one throw the
 * error better-sqlite3 throws for that SQLite code (so SQLite rolls the transaction back, as after a real full
 * disk); `boundary(name)` kills the process with SIGKILL at a named moment of a run or a merge. With no plan
 * (every real run) a write point is one comparison. Tests set a plan in-process (`setDbFaults`), or for a child
 * process through the environment:
 *
 *   OPGATE_DB_FAULT=SQLITE_FULL@3      the 3rd write point fails
 *   OPGATE_DB_FAULT=SQLITE_IOERR@3+    the 3rd and every later one (a disk that stays broken)
 *   OPGATE_DB_FAULT=kill@run-started   SIGKILL at that boundary (see BOUNDARIES)
 */
import Database from 'better-sqlite3';
import { CiError } from '../errors.ts';

/** The SQLite failures a plan can inject, with the message and extended code SQLite gives each. */
export const INJECTABLE = {
  SQLITE_FULL: { code: 'SQLITE_FULL', message: 'database or disk is full' },
  SQLITE_IOERR: { code: 'SQLITE_IOERR_WRITE', message: 'disk I/O error' },
  SQLITE_READONLY: { code: 'SQLITE_READONLY', message: 'attempt to write a readonly database' },
  SQLITE_CORRUPT: { code: 'SQLITE_CORRUPT', message: 'database disk image is malformed' },
} as const;

export type InjectableCode = keyof typeof INJECTABLE;

/**
 * The moments a kill is aimed at: a run's start committed but no result stored yet; a result reported but not
 * committed; every result committed but the run not ended; a merge with one source copied and the next not.
 */
export const BOUNDARIES = ['run-started', 'result-reported', 'before-end', 'merge-source'] as const;

export type Boundary = (typeof BOUNDARIES)[number];

export type FaultPlan =
  | { readonly kind: 'fail'; readonly code: InjectableCode; readonly at: number; readonly sticky: boolean }
  | { readonly kind: 'kill'; readonly at: Boundary; readonly nth?: number }
  /** Counts the write points (`writePointsSeen`) and fails none: how a test learns how many there are. */
  | { readonly kind: 'count' };

interface State {
  plan: FaultPlan | null;
  /** The labels of the write points passed so far, in order. */
  readonly points: string[];
  boundaries: number;
}

const state: State = { plan: parseFaultPlan(process.env.OPGATE_DB_FAULT), points: [], boundaries: 0 };

/** Parses OPGATE_DB_FAULT's syntax (undefined or '' is no plan); throws on anything else. */
export function parseFaultPlan(spec: string | undefined): FaultPlan | null {
  if (!spec) return null;
  if (spec === 'count') return { kind: 'count' };
  const kill = /^kill@([a-z-]+)(?:#(\d+))?$/.exec(spec);
  if (kill && (BOUNDARIES as readonly string[]).includes(kill[1]))
    return { kind: 'kill', at: kill[1] as Boundary, nth: kill[2] ? Number(kill[2]) : undefined };
  const fail = /^(SQLITE_[A-Z]+)@(\d+)(\+?)$/.exec(spec);
  if (fail && Object.hasOwn(INJECTABLE, fail[1]) && Number(fail[2]) >= 1)
    return { kind: 'fail', code: fail[1] as InjectableCode, at: Number(fail[2]), sticky: fail[3] === '+' };
  throw new CiError(
    'E_INVALID_ARGUMENT',
    `OPGATE_DB_FAULT: got '${spec}', expected <${Object.keys(INJECTABLE).join('|')}>@<k>[+] or kill@<${BOUNDARIES.join('|')}>[#n]`,
  );
}

/** Replaces the plan and forgets the points counted so far (tests, in-process). */
export function setDbFaults(plan: FaultPlan | null): void {
  state.plan = plan;
  state.points.length = 0;
  state.boundaries = 0;
}

/** The write points passed since the last `setDbFaults`, by label. */
export const writePointsSeen = (): readonly string[] => state.points;

/** Called by every write of the store, inside its transaction, before the statement. */
export function writePoint(label: string): void {
  const plan = state.plan;
  if (plan === null) return;
  state.points.push(label);
  if (plan.kind !== 'fail') return;
  const k = state.points.length;
  if (k === plan.at || (plan.sticky && k > plan.at)) {
    const { code, message } = INJECTABLE[plan.code];
    throw new Database.SqliteError(`${message} (injected at write point ${k}: ${label})`, code);
  }
}

/** A named moment of a run or merge: a kill plan aimed at it ends the process here, as `kill -9` would. */
export function boundary(name: Boundary): void {
  const plan = state.plan;
  if (plan === null || plan.kind !== 'kill' || plan.at !== name) return;
  state.boundaries++;
  if (state.boundaries >= (plan.nth ?? 1)) process.kill(process.pid, 'SIGKILL');
}
