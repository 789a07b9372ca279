import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { CliOptions } from 'vitest/node';
import { ORACLE_TABLE } from '../../oracles/index.ts';
import { CiError } from '../errors.ts';
import type { DisabledEntry } from '../flaky/index.ts';
import { type Filters, type MatrixInstance, resultAxes, type Tier } from '../matrix.ts';
import { DbError, dbError } from '../store/db_errors.ts';
import { boundary } from '../store/faults.ts';
import { type ResultRow, ResultsStore, type RunInfo } from '../store/store.ts';
import { PLAN_KEY, type RunPlan } from './channel.ts';
import { toRunPlan } from './plan.ts';
import { OpgateReporter } from './reporter.ts';
import { resumePoint } from './resume.ts';
import { COMPILED, commitUnderTest, gitOutput, PACKAGE_ROOT } from './root.ts';
import { isFailing, type Summary, summarize } from './summary.ts';

/** A run's filters as stored with it: they identify the job `--resume` continues. */
export interface JobFilters extends Filters {
  /** rerun-disabled mode's reruns per instance. */
  readonly reruns?: number;
}

export interface RunOptions {
  readonly tier: Tier;
  readonly filters: JobFilters;
  /** The one expansion of the filters: where a resumed run finds the instances it has left. */
  readonly selection: readonly MatrixInstance[];
  /** What a new run runs, in run order (narrowed from `selection`, see plan.ts); a resumed run runs its own. */
  readonly instances: readonly MatrixInstance[];
  /** The quarantine list: its instances are skipped with their issue, unless `reruns`. */
  readonly disabled: readonly DisabledEntry[];
  /** rerun-disabled mode: each instance runs this many times; 0 in a normal run. */
  readonly reruns: number;
  readonly db: string;
  readonly progress: boolean;
  readonly shard?: string;
  /** Reruns of a failing instance (vitest retry); failed-then-passed is recorded as flaky. */
  readonly retries?: number;
  /** 'normal' or 'rerun-disabled'. */
  readonly kind?: string;
  /** Continue the latest aborted or interrupted run of this job instead of starting one (resume.ts). */
  readonly resume?: boolean;
  /** The shard set of a sharded run (plan.ts), stored with the run for `opgate verify`. */
  readonly shardSet?: string | null;
  /** What runs the instances: vitest (the default), or a test's stand-in driving the reporter directly. */
  readonly engine?: RunEngine;
  /** A target run (--target): failures are findings, not run failures (summary.ts isFailing). */
  readonly findings?: boolean;
  /** The reporter's commit period (default FLUSH_MS; 0 commits at every result). */
  readonly flushMs?: number;
}

/** Runs a plan's instances, reporting each one's row to the reporter; resolves when all have run. */
export type RunEngine = (plan: RunPlan, reporter: OpgateReporter, o: { retries: number }) => Promise<void>;

/**
 * The installed package (dist/, inside another project's node_modules) has no vitest.config.ts: its settings are
 * given here. Its own files are run by vitest's module runner, not by Node, so that a project's opgate.config.ts
 * (TypeScript) loads in the workers, and its `import 'opgate'` is the same module instance as the templates'.
 */
const INSTALLED_CONFIG: CliOptions = {
  config: false,
  include: ['tests/templates/*.test.js'],
  pool: 'forks',
  maxWorkers: availableParallelism(),
  testTimeout: 90_000,
  hookTimeout: 60_000,
  // By package name: vitest's inline list matches a dependency's name (a path is not matched).
  server: { deps: { inline: ['opgate'] } },
};

/** The engine of every real run: vitest, on the templates of the planned oracles. */
const vitestEngine: RunEngine = async (plan, reporter, o) => {
  // Loaded here, not at the top: vitest/node costs a second of start-up that no other command needs.
  const { startVitest } = await import('vitest/node');
  const vitest = await startVitest('test', templatesOf(plan), {
    ...(COMPILED ? INSTALLED_CONFIG : {}),
    root: PACKAGE_ROOT,
    watch: false,
    reporters: [reporter],
    passWithNoTests: true,
    retry: o.retries,
    provide: { [PLAN_KEY]: plan },
    // Transformed modules cached on disk, keyed by a hash of each file's content and the config: a run, a shard
    // or a resume after the first transforms nothing again (about half of a small run's start-up).
    experimental: { fsModuleCache: true },
  });
  await vitest.close();
};

export interface RunOutcome {
  readonly runId: number;
  readonly summary: Summary;
  readonly reporter: OpgateReporter;
}

const EXIT_CODE: Record<'SIGINT' | 'SIGTERM', number> = { SIGINT: 130, SIGTERM: 143 };

interface Started {
  readonly runId: number;
  /** The ids the run set out to run (a resumed run's original plan). */
  readonly planned: readonly string[];
  /** What this invocation runs. */
  readonly instances: readonly MatrixInstance[];
  readonly done: readonly ResultRow[];
}

/** Starts a run with its plan, or takes over the run to resume with what it has left. */
function startOrResume(store: ResultsStore, info: RunInfo, o: RunOptions): Started {
  if (!o.resume) {
    const planned = o.instances.map((i) => i.id);
    return { runId: store.startRun(info, planned), planned, instances: o.instances, done: [] };
  }
  const p = resumePoint(store, info);
  // The stored plan decides what is left; a shard or TD selection recomputed for this invocation does not.
  const byId = new Map(o.selection.map((i) => [i.id, i]));
  const instances = p.unfinished.flatMap((id) => byId.get(id) ?? []);
  store.resumeRun(p.run.runId);
  process.stderr.write(
    `resuming run ${p.run.runId}: ${p.unfinished.length} of ${p.planned.length} instances left\n`,
  );
  return { runId: p.run.runId, planned: p.planned, instances, done: p.done };
}

/**
 * A planned instance that reported nothing (its template file failed to load, its worker died) is an `error`,
 * never a silent gap: a run that lost instances must not pass.
 */
function noResultRows(instances: readonly MatrixInstance[], rows: readonly ResultRow[]): ResultRow[] {
  const have = new Set(rows.map((r) => r.id));
  return instances
    .filter((i) => !have.has(i.id))
    .map((i) => ({
      ...resultAxes(i),
      status: 'error',
      durationMs: 0,
      attempts: 0,
      message:
        'no result: the instance was planned but never reported (its template file failed to load, or its worker died); see the run log',
      sample: null,
      seed: i.seed,
      checks: 0,
    }));
}

/** The template files of the oracles a plan runs (vitest's file filters). */
const templatesOf = (plan: RunPlan): string[] =>
  (Object.keys(plan.oracles) as (keyof typeof ORACLE_TABLE)[]).map((o) => ORACLE_TABLE[o].template);

export async function runMatrix(o: RunOptions): Promise<RunOutcome> {
  // Nothing to resume in a database that does not exist, and no reason to create it.
  if (o.resume && !existsSync(o.db))
    throw new CiError('E_NOTHING_TO_RESUME', `--resume: no results database at ${o.db}`);
  const store = new ResultsStore(o.db);
  let started: Started;
  try {
    // Runs of this database whose process died become 'aborted' (and so resumable) before anything reads them.
    store.reapAborted();
    started = startOrResume(
      store,
      {
        commitSha: commitUnderTest(),
        branch: process.env.GITHUB_REF_NAME ?? gitOutput(['rev-parse', '--abbrev-ref', 'HEAD']),
        platform: `${process.platform}-${process.arch} node${process.versions.node}`,
        shard: o.shard,
        tier: o.tier,
        filters: JSON.stringify(o.filters),
        kind: o.kind ?? 'normal',
        shardSet: o.shardSet ?? null,
      },
      o,
    );
  } catch (e) {
    store.close();
    throw e;
  }
  const { runId, planned, instances, done } = started;
  const total = planned.length;
  const plan = toRunPlan(instances, o.disabled, o.reruns);
  const reporter = new OpgateReporter(store, runId, total, {
    progress: o.progress,
    done,
    flushMs: o.flushMs,
  });
  // Ctrl-C or a CI cancellation: keep what was reported and end the run as interrupted, then exit as a signal
  // would. Registered before vitest's own handlers, so this runs first.
  const onSignal = (signal: 'SIGINT' | 'SIGTERM') => {
    reporter.stop();
    keepWhatCan(store, reporter, runId);
    store.close();
    process.stderr.write(
      `\nopgate: ${signal}: run ${runId} interrupted with ${reporter.stored} of ${total} results stored; \`opgate run --resume\` (same flags) continues it\n`,
    );
    process.exit(EXIT_CODE[signal]);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const t0 = performance.now();
  reporter.start();
  try {
    boundary('run-started');
    // A resumed run killed right after its last result has nothing left to run, only to end (and vitest given
    // no files would run every test file there is). A failed commit ends the wait at once: nothing the engine
    // still reports could be stored, and the process exits (its workers with it) once the run is ended below.
    if (instances.length > 0) {
      const engine = (o.engine ?? vitestEngine)(plan, reporter, { retries: o.retries ?? 2 });
      // An engine closed under a failed store may still reject later; the store's failure is what is reported.
      engine.catch(() => {});
      await Promise.race([engine, reporter.failed]);
    }
    if (reporter.failure) throw reporter.failure;
    reporter.record(noResultRows(instances, reporter.rows));
    reporter.flush();
    boundary('before-end');
    const summary = summarize(reporter.rows, (performance.now() - t0) / 1000);
    const status = isFailing(summary, o.findings) ? 'failed' : 'passed';
    store.endRun(runId, status);
    return { runId, summary, reporter };
  } catch (e) {
    // Nothing after a successful end can throw: the run did not end.
    keepWhatCan(store, reporter, runId);
    throw stopped(dbError(e, o.db, 'writing results'), o.db, runId, reporter.stored, total);
  } finally {
    reporter.stop();
    store.close();
    // Only now: with no listener left, a signal kills the process at once, even in the middle of the above.
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/**
 * A run that cannot go on: commit what is pending and end it `interrupted`, where the file still takes writes.
 * Where it does not (a full disk), the run keeps its stored plan and reads `aborted` once this process is gone:
 * resumable either way.
 */
function keepWhatCan(store: ResultsStore, reporter: OpgateReporter, runId: number): void {
  for (const step of [() => reporter.flush(), () => store.endRun(runId, 'interrupted')]) {
    try {
      step();
    } catch {
      return;
    }
  }
}

/** What to do before resuming a run stopped by a store failure. */
const FIRST_FIX: Record<string, string> = {
  E_DB_FULL: 'free space',
  E_DB_READONLY: 'make the file and its folder writable',
  E_DB_CORRUPT: 'run `opgate db repair <db>`',
  E_DB_IO: 'check the disk',
  E_DB_BUSY: 'stop the other writer',
};

/** A store failure as the one line the user reads: what failed, what is kept, how to go on. */
function stopped(e: Error, db: string, runId: number, stored: number, total: number): Error {
  if (!(e instanceof DbError)) return e;
  const fix = (FIRST_FIX[e.code] ?? 'fix the cause').replace('<db>', db);
  return new DbError(
    e.code,
    `${e.fact}; run ${runId} stopped with ${stored} of ${total} results stored`,
    `${fix}, then \`opgate run --resume\` (same flags) runs the rest`,
  );
}
