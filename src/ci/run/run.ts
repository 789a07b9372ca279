/**
 * `opgate run`: expands the matrix (to know the total), runs the templates through vitest's Node API with the
 * OpgateReporter, stores results in SQLite and returns the summary.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startVitest } from 'vitest/node';
import { ENV_FILTERS, ENV_TIER } from '../env.ts';
import { expandMatrix, type Filters, type Tier } from '../matrix.ts';
import { ResultsStore } from '../store/store.ts';
import { OpgateReporter } from './reporter.ts';
import { type Summary, summarize } from './summary.ts';

export const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface RunOptions {
  readonly tier: Tier;
  readonly filters: Filters;
  readonly db: string;
  readonly progress: boolean;
  readonly shard?: string;
  /** Reruns of a failing instance (vitest retry); failed-then-passed is recorded as flaky. */
  readonly retries?: number;
  /** 'normal' or 'rerun-disabled'. */
  readonly kind?: string;
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

export async function runMatrix(o: RunOptions): Promise<RunOutcome> {
  const total = expandMatrix(o.tier, o.filters).length;
  const store = new ResultsStore(o.db);
  const runId = store.startRun({
    commitSha: process.env.GITHUB_SHA ?? git(['rev-parse', 'HEAD']),
    branch: process.env.GITHUB_REF_NAME ?? git(['rev-parse', '--abbrev-ref', 'HEAD']),
    platform: `${process.platform}-${process.arch} node${process.versions.node}`,
    shard: o.shard,
    tier: o.tier,
    filters: JSON.stringify(o.filters),
    kind: o.kind ?? 'normal',
  });
  const reporter = new OpgateReporter(store, runId, total, o.progress);
  process.env[ENV_TIER] = o.tier;
  process.env[ENV_FILTERS] = JSON.stringify(o.filters);
  const started = performance.now();
  let status: 'passed' | 'failed' | 'interrupted' = 'interrupted';
  try {
    const vitest = await startVitest('test', ['tests/templates/'], {
      root: PACKAGE_ROOT,
      watch: false,
      reporters: [reporter],
      passWithNoTests: true,
      retry: o.retries ?? 2,
    });
    await vitest.close();
    reporter.flush();
    const summary = summarize(reporter.rows, (performance.now() - started) / 1000);
    status = summary.failed + summary.xpassed + summary.errors > 0 ? 'failed' : 'passed';
    return { runId, summary, reporter };
  } finally {
    reporter.flush();
    store.endRun(runId, status);
    store.close();
  }
}
