/**
 * The one channel between `opgate run` and its vitest workers. Down: the run's plan, given to vitest as
 * `provide: { opgatePlan }` and read in a worker with `inject('opgatePlan')`. Up: one InstanceRecord per
 * instance in the test's task meta, which the reporter turns into one results row. Both are typed here, so ci
 * depends on nothing under tests/.
 */

import type {} from 'vitest';
import type { Oracle } from '../../../op_db/index.ts';
import type { ResultRow, ResultStatus } from '../store/store.ts';

/** The key the plan travels under. */
export const PLAN_KEY = 'opgatePlan';

/**
 * One planned instance, compact: [OpInfo name, device, dtype, layout]. Its oracle is its group's and its mode the
 * oracle's; a worker looks the OpInfo up by name (it never expands the matrix).
 */
export type PlanEntry = readonly [op: string, device: string, dtype: string, layout: string];

export interface RunPlan {
  /** Per oracle, its instances in run order (target determination's `--td order` puts the affected first). */
  readonly oracles: Partial<Record<Oracle, readonly PlanEntry[]>>;
  /** Quarantine in a normal run: disabled instance id -> its skip message (the disabling issue). */
  readonly disabled: Readonly<Record<string, string>>;
  /** rerun-disabled mode: each instance runs this many times and records the counts; 0 in a normal run. */
  readonly reruns: number;
}

/** What a worker reports for one instance (the test's name is its id). */
export interface InstanceRecord {
  readonly op: string;
  readonly oracle: Oracle;
  readonly device: string;
  readonly dtype: string;
  readonly layout: string;
  readonly mode: string;
  readonly seed: number;
  /** The rules' verdict: an xfail is expected to fail, a skip never runs. */
  readonly expected: 'pass' | 'fail' | 'skip';
  /** Why a skip/xfail rule applies, with its issue (stored as the result's message). */
  readonly reason?: string;
  /** Sample-level checks made (the worker sets it). */
  checks: number;
  /** The sample a failure names, if any. */
  sample?: number | null;
  /** rerun-disabled mode: how many of the reruns passed / failed. */
  rerunPasses?: number;
  rerunFailures?: number;
  /**
   * The numerics fingerprint: the largest error of a floating output in ulps of its dtype (the golden oracle's
   * `OracleResult.maxUlp`), the largest over the attempts and reruns that measured one; absent when none did.
   */
  maxUlp?: number | null;
}

declare module 'vitest' {
  interface ProvidedContext {
    opgatePlan?: RunPlan;
  }
  interface TaskMeta {
    opgate?: InstanceRecord;
  }
}

/**
 * Folds one more measured max ulp into a record's: the larger one (retries and reruns keep the worst attempt),
 * a NaN reading as Infinity (an error that is not even a number is the worst); undefined measured nothing.
 */
export function foldMaxUlp(
  prev: number | null | undefined,
  next: number | undefined,
): number | null | undefined {
  if (next === undefined) return prev;
  const n = Number.isNaN(next) ? Number.POSITIVE_INFINITY : next;
  return prev === null || prev === undefined ? n : Math.max(prev, n);
}

/** How vitest finished a test, after its retries. */
export interface TestOutcome {
  readonly state: 'passed' | 'failed' | 'skipped' | 'pending';
  /** Declared with `fails` (an xfail). */
  readonly fails: boolean;
  readonly retryCount: number;
  /** Every attempt's errors, first attempt first. */
  readonly errors: readonly { readonly message: string }[];
  /** A skip's note (`ctx.skip(note)`). */
  readonly note?: string;
  readonly durationMs: number;
}

const XPASS = 'unexpected success: an xfail rule matched but the instance passed';

/**
 * The results row of one instance: one row however many attempts it took, with the first failing attempt's
 * message (later attempts of a broken instance repeat it; a flaky one's later attempts passed).
 */
export function resultRow(id: string, r: InstanceRecord, t: TestOutcome): ResultRow | null {
  const retried = t.retryCount > 0;
  let status: ResultStatus;
  if (t.state === 'skipped') status = 'skip';
  else if (t.state === 'passed') status = t.fails ? 'xfail' : retried || t.errors.length ? 'flaky' : 'pass';
  else if (t.state === 'failed') status = t.fails ? 'xpass' : 'fail';
  else return null;
  const failing = t.state === 'failed' || status === 'flaky' ? t.errors[0] : undefined;
  const message =
    status === 'xpass'
      ? XPASS
      : failing
        ? failing.message
        : status === 'skip' || status === 'xfail'
          ? (t.note ?? r.reason ?? null)
          : null;
  return {
    id,
    op: r.op,
    oracle: r.oracle,
    device: r.device,
    dtype: r.dtype,
    layout: r.layout,
    mode: r.mode,
    status,
    durationMs: t.durationMs,
    attempts: 1 + t.retryCount,
    message,
    sample: r.sample ?? null,
    seed: r.seed,
    checks: r.checks,
    rerunPasses: r.rerunPasses ?? null,
    rerunFailures: r.rerunFailures ?? null,
    maxUlp: r.maxUlp ?? null,
  };
}
