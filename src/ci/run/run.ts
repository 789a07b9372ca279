/**
 * `opgate run`: records the caller's selection as the run's plan, runs the templates through vitest's Node API with the
 * OpgateReporter, stores results in SQLite and returns the summary. SIGINT and SIGTERM end the run as
 * 'interrupted' with everything reported so far; `resume` continues an aborted or interrupted run instead of
 * starting one (see resume.ts).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startVitest } from 'vitest/node';
import { ENV_FILTERS, ENV_TIER } from '../env.ts';
import { CiError } from '../errors.ts';
import { expandMatrix, type Filters, resultAxes, type Tier } from '../matrix.ts';
import { type ResultRow, ResultsStore, type RunInfo } from '../store/store.ts';
import { OpgateReporter } from './reporter.ts';
import { resumePoint } from './resume.ts';
import { type Summary, summarize } from './summary.ts';

export const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface RunOptions {
  readonly tier: Tier;
  readonly filters: Filters;
  /** The ids the filters select, expanded once by the caller: a new run's plan. */
  readonly planned: readonly string[];
  readonly db: string;
  readonly progress: boolean;
  readonly shard?: string;
  /** Reruns of a failing instance (vitest retry); failed-then-passed is recorded as flaky. */
  readonly retries?: number;
  /** 'normal' or 'rerun-disabled'. */
  readonly kind?: string;
  /** Continue the latest aborted or interrupted run of this job instead of starting one (resume.ts). */
  readonly resume?: boolean;
}

export interface RunOutcome {
  readonly runId: number;
  readonly summary: Summary;
  readonly reporter: OpgateReporter;
}

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return 'unknown';
  }
}

const EXIT_CODE: Record<'SIGINT' | 'SIGTERM', number> = { SIGINT: 130, SIGTERM: 143 };

interface Started {
  readonly runId: number;
  readonly filters: Filters;
  /** The ids the run set out to run (a resumed run's original plan). */
  readonly planned: readonly string[];
  readonly total: number;
  readonly done: readonly ResultRow[];
  /** A temporary folder to remove at the end. */
  readonly tmp: string | null;
}

/** Starts a run with its plan, or takes over the run to resume with a filter of what it has left. */
function startOrResume(store: ResultsStore, info: RunInfo, o: RunOptions): Started {
  if (!o.resume) {
    return {
      runId: store.startRun(info, o.planned),
      filters: o.filters,
      planned: o.planned,
      total: o.planned.length,
      done: [],
      tmp: null,
    };
  }
  const p = resumePoint(store, info);
  // The plan decides what is left; an ids file (the shard's, TD's) recomputed for this invocation does not.
  const tmp = mkdtempSync(join(tmpdir(), 'opgate-resume-'));
  const idsFile = join(tmp, 'unfinished.ids');
  writeFileSync(idsFile, p.unfinished.join('\n'));
  store.resumeRun(p.run.runId);
  process.stderr.write(
    `resuming run ${p.run.runId}: ${p.unfinished.length} of ${p.planned.length} instances left\n`,
  );
  return {
    runId: p.run.runId,
    filters: { ...o.filters, idsFile },
    planned: p.planned,
    total: p.planned.length,
    done: p.done,
    tmp,
  };
}

/**
 * A planned instance that reported nothing (its template file failed to load, its worker died) is an `error`,
 * never a silent gap: a run that lost instances must not pass.
 */
function noResultRows(tier: Tier, planned: readonly string[], rows: readonly ResultRow[]): ResultRow[] {
  const have = new Set(rows.map((r) => r.id));
  const lost = new Set(planned.filter((id) => !have.has(id)));
  if (lost.size === 0) return [];
  return expandMatrix(tier)
    .filter((i) => lost.has(i.id))
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
        commitSha: process.env.GITHUB_SHA ?? git(['rev-parse', 'HEAD']),
        branch: process.env.GITHUB_REF_NAME ?? git(['rev-parse', '--abbrev-ref', 'HEAD']),
        platform: `${process.platform}-${process.arch} node${process.versions.node}`,
        shard: o.shard,
        tier: o.tier,
        filters: JSON.stringify(o.filters),
        kind: o.kind ?? 'normal',
      },
      o,
    );
  } catch (e) {
    store.close();
    throw e;
  }
  const { runId, filters, planned, total, done, tmp } = started;
  const reporter = new OpgateReporter(store, runId, total, o.progress, done);
  // Ctrl-C or a CI cancellation: keep what was reported and end the run as interrupted, then exit as a signal
  // would. Registered before vitest's own handlers, so this runs first.
  const onSignal = (signal: 'SIGINT' | 'SIGTERM') => {
    reporter.stop();
    reporter.flush();
    store.endRun(runId, 'interrupted');
    store.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
    process.stderr.write(
      `\nopgate: ${signal}: run ${runId} interrupted with ${reporter.rows.length} of ${total} results stored; \`opgate run --resume\` (same flags) continues it\n`,
    );
    process.exit(EXIT_CODE[signal]);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  process.env[ENV_TIER] = o.tier;
  process.env[ENV_FILTERS] = JSON.stringify(filters);
  const t0 = performance.now();
  let status: 'passed' | 'failed' | 'interrupted' = 'interrupted';
  reporter.start();
  try {
    // A resumed run killed right after its last result has nothing left to run, only to end.
    if (reporter.rows.length < total || total === 0) {
      const vitest = await startVitest('test', ['tests/templates/'], {
        root: PACKAGE_ROOT,
        watch: false,
        reporters: [reporter],
        passWithNoTests: true,
        retry: o.retries ?? 2,
      });
      await vitest.close();
    }
    reporter.record(noResultRows(o.tier, planned, reporter.rows));
    reporter.flush();
    const summary = summarize(reporter.rows, (performance.now() - t0) / 1000);
    status = summary.failed + summary.xpassed + summary.errors > 0 ? 'failed' : 'passed';
    return { runId, summary, reporter };
  } finally {
    reporter.stop();
    reporter.flush();
    store.endRun(runId, status);
    store.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
    // Only now: with no listener left, a signal kills the process at once, even in the middle of the above.
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
