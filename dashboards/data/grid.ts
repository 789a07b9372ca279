/**
 * View 1, the commit grid (PyTorch HUD's main page): commits × jobs, a job being one shard's results on one
 * device. A cell is red when anything failed, running while its run is going, interrupted or aborted when its
 * run stopped short (Ctrl-C or a cancelled job; a process that died), flaky when something failed and then
 * passed on a retry, green otherwise: a run that did not finish is never green. Failures are also grouped by
 * test id across the commits.
 */
import {
  type CellFailureRow,
  cellFailures,
  commitStamps,
  failingResults,
  gridCounts,
  recentCommits,
  reproCommand,
  unfinishedRuns,
} from '../../src/ci/index.ts';
import { jobKey } from '../shared.ts';
import type { ReadDb } from './db.ts';
import { byCommit, CommitMemo, KeyedMemo, windowKey } from './memo.ts';

/** A run that did not finish (see RunStatus): its cell says how, whatever it has reported. */
type Unfinished = 'running' | 'interrupted' | 'aborted';

export type CellStatus = 'red' | Unfinished | 'flaky' | 'green';

export interface GridCell {
  readonly status: CellStatus;
  readonly pass: number;
  readonly fail: number;
  readonly flaky: number;
  readonly skip: number;
  readonly total: number;
}

export interface GridData {
  readonly commits: readonly { sha: string; branch: string; startedAt: string }[];
  readonly jobs: readonly string[];
  /** Keyed by `${sha} ${job}`. */
  readonly cells: Record<string, GridCell>;
  /** Failing test ids over the shown commits, most frequent first (at most `maxGroups`). */
  readonly failures: readonly { id: string; commits: number; jobs: readonly string[]; lastSha: string }[];
  readonly failureGroups: number;
}

/** A failing or flaky result of a cell, as stored, with its repro command. */
export interface CellFailure extends CellFailureRow {
  readonly repro: string;
}

export interface CellData {
  readonly sha: string;
  readonly job: string;
  readonly failures: readonly CellFailure[];
  /** How many more failures the cell has than it lists. */
  readonly more: number;
}

const DEVICE_ORDER = ['cpu', 'meta', 'webgpu'];

function shardOrder(a: string, b: string): number {
  const [ai, an] = a.split('/').map(Number);
  const [bi, bn] = b.split('/').map(Number);
  return an - bn || ai - bi;
}

function jobOrder(a: string, b: string): number {
  const [as, ad] = a.split(' ');
  const [bs, bd] = b.split(' ');
  return shardOrder(as, bs) || DEVICE_ORDER.indexOf(ad) - DEVICE_ORDER.indexOf(bd) || (ad < bd ? -1 : 1);
}

export function gridData(db: ReadDb, limit = 50, maxGroups = 200): GridData {
  const commits = recentCommits(db, limit);
  const shas = commits.map((c) => c.sha);
  if (shas.length === 0) return { commits, jobs: [], cells: {}, failures: [], failureGroups: 0 };
  // One read of the window's stamps serves the per-commit memo and the window's.
  const stamps = commitStamps(db, shas);
  const per = perCommitGrid(db, shas, stamps);
  const rows = shas.flatMap((s) => per.get(s)?.counts ?? []);
  const counts = new Map<
    string,
    { pass: number; fail: number; flaky: number; skip: number; total: number }
  >();
  const unfinished = new Map<string, Unfinished>();
  const devicesOf = new Map<string, Set<string>>();
  for (const r of rows) {
    const key = `${r.sha} ${jobKey(r.shard, r.device)}`;
    const c = counts.get(key) ?? { pass: 0, fail: 0, flaky: 0, skip: 0, total: 0 };
    c.total += r.n;
    if (r.status === 'pass' || r.status === 'xfail') c.pass += r.n;
    else if (r.status === 'flaky') c.flaky += r.n;
    else if (r.status === 'skip') c.skip += r.n;
    else c.fail += r.n;
    counts.set(key, c);
    devicesOf.set(r.shard, (devicesOf.get(r.shard) ?? new Set()).add(r.device));
  }
  // A run that has not finished covers the devices it was asked for (`--device`), or else every device its
  // shard has had, whether or not it has reported results for them yet.
  const open = unfinishedRuns(db, shas);
  for (const r of open) {
    const asked = r.devices ? (JSON.parse(r.devices) as string[]) : null;
    for (const d of asked ?? devicesOf.get(r.shard) ?? ['cpu']) {
      const key = `${r.sha} ${jobKey(r.shard, d)}`;
      if (!counts.has(key)) counts.set(key, { pass: 0, fail: 0, flaky: 0, skip: 0, total: 0 });
      if (unfinished.get(key) !== 'running') unfinished.set(key, r.status);
    }
  }
  const cells: Record<string, GridCell> = {};
  const jobs = new Set<string>();
  for (const [key, c] of counts) {
    jobs.add(key.slice(key.indexOf(' ') + 1));
    const status: CellStatus =
      c.fail > 0 ? 'red' : (unfinished.get(key) ?? (c.flaky > 0 ? 'flaky' : 'green'));
    cells[key] = { status, ...c };
  }
  // The failure groups of the whole window, remembered per window (its commits and their stamps).
  const groups = GROUPS.get(windowKey(db, shas, stamps), () =>
    failureGroups(
      shas,
      shas.flatMap((s) => per.get(s)?.failing ?? []),
    ),
  );
  return {
    commits,
    jobs: [...jobs].sort(jobOrder),
    cells,
    failures: groups.slice(0, maxGroups),
    failureGroups: groups.length,
  };
}

type CountRow = ReturnType<typeof gridCounts>[number];
type FailingRow = ReturnType<typeof failingResults>[number];

/**
 * Each commit's result counts per job and its failing results, remembered per commit stamp (memo.ts): a warm
 * request reads only the commits whose runs changed, whatever the window holds.
 */
const GRID = new CommitMemo<{ counts: CountRow[]; failing: FailingRow[] }>(200);
const GROUPS = new KeyedMemo<GridData['failures']>();

function perCommitGrid(db: ReadDb, shas: readonly string[], stamps: ReadonlyMap<string, string>) {
  return GRID.of(
    db,
    shas,
    (missing) => {
      const counts = byCommit(missing, gridCounts(db, missing));
      const failing = byCommit(missing, failingResults(db, missing));
      return new Map(missing.map((s) => [s, { counts: counts.get(s) ?? [], failing: failing.get(s) ?? [] }]));
    },
    stamps,
  );
}

function failureGroups(shas: readonly string[], rows: readonly FailingRow[]): GridData['failures'] {
  const age = new Map(shas.map((s, i) => [s, i]));
  const byId = new Map<string, { commits: Set<string>; jobs: Set<string>; lastSha: string }>();
  for (const r of rows) {
    const g = byId.get(r.id) ?? { commits: new Set(), jobs: new Set(), lastSha: r.sha };
    g.commits.add(r.sha);
    g.jobs.add(jobKey(r.shard, r.device));
    if ((age.get(r.sha) ?? 0) < (age.get(g.lastSha) ?? 0)) g.lastSha = r.sha;
    byId.set(r.id, g);
  }
  return [...byId]
    .map(([id, g]) => ({ id, commits: g.commits.size, jobs: [...g.jobs].sort(jobOrder), lastSha: g.lastSha }))
    .sort((a, b) => b.commits - a.commits || (a.id < b.id ? -1 : 1));
}

/** The failing and flaky instances of one grid cell, with message, sample, seed and repro command. */
export function cellData(db: ReadDb, sha: string, job: string, limit = 500): CellData {
  const [shard, device] = job.split(' ');
  const rows = cellFailures(db, sha, shard, device);
  return {
    sha,
    job,
    failures: rows.slice(0, limit).map((r) => ({
      ...r,
      message: r.message && r.message.length > 8000 ? `${r.message.slice(0, 8000)}…` : r.message,
      repro: reproCommand(r.id, r.sample),
    })),
    more: Math.max(0, rows.length - limit),
  };
}
