/**
 * Runs mutants: `jobs` workspaces in parallel, each taking the next mutant, writing it, running its matrix
 * instances in a worker process (killed and called a timeout when one instance makes no progress), then, unless
 * killed (or in per-oracle mode), its unit tests through vitest; then undoing it. At the end every killing
 * check runs once on the unmutated source: one that fails there too does not count as a kill (a mutant left
 * with no kill is an error, never killed).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Tier } from '../matrix.ts';
import type { MutantKill, MutantRow } from '../store/mutation.ts';
import { equivalenceOf } from './equivalents.ts';
import type { Mutant } from './generate.ts';
import { runProcess } from './process.ts';
import type { ReachMap } from './reach.ts';
import { type Selection, Selector } from './select.ts';
import type { WorkerJob, WorkerKill } from './worker.ts';
import { Workspace } from './workspace.ts';

export interface MutateOptions {
  readonly root: string;
  readonly tier: Tier;
  readonly jobs: number;
  /** Cap on matrix instances per mutant (a stratified sample beyond it). */
  readonly maxInstances: number;
  /** Keep going after a kill, to find every oracle that kills (the kill matrix). */
  readonly perOracle: boolean;
  /** Run the unit tests that import the mutated file. */
  readonly unit: boolean;
  /** An instance that makes no progress for this long: the mutant is a timeout. */
  readonly instanceTimeoutMs: number;
  /** Stop starting mutants after this long (a nightly's time bound); null: no bound. */
  readonly budgetMs: number | null;
  /** Which instances execute each line (reach.ts): they run first; a line none executes runs none. */
  readonly reach?: ReachMap | null;
  /** Each mutant as it finishes (before the kills are checked against the unmutated source). */
  readonly onProgress?: (row: MutantRow) => void;
}

const parse = <T>(line: string): T => JSON.parse(line.slice(2)) as T;

class Slot {
  private readonly scratch = mkdtempSync(join(tmpdir(), 'opgate-mutate-job-'));
  constructor(
    readonly ws: Workspace,
    private readonly o: MutateOptions,
  ) {}

  /** Matrix instances in the worker: kills, how many ran, whether it hung. */
  async matrix(
    sel: Pick<Selection, 'ids' | 'ops'>,
    stop: WorkerJob['stop'] = this.o.perOracle ? 'oracle' : 'first',
  ): Promise<{ kills: MutantKill[]; ran: number; timedOut: boolean }> {
    if (sel.ids.length === 0) return { kills: [], ran: 0, timedOut: false };
    const job: WorkerJob = { tier: this.o.tier, ops: sel.ops, ids: sel.ids, stop };
    const jobFile = join(this.scratch, 'job.json');
    writeFileSync(jobFile, JSON.stringify(job));
    const r = await runProcess(
      process.execPath,
      ['--import', 'tsx', 'src/ci/mutate/worker.ts', jobFile],
      this.ws.dir,
      this.o.instanceTimeoutMs,
      this.o.instanceTimeoutMs * 20,
    );
    const kills = r.lines
      .filter((l) => l.startsWith('K '))
      .map((l) => parse<WorkerKill>(l))
      .map((k) => ({ killer: k.oracle, testId: k.id, message: k.message }));
    const done = r.lines.find((l) => l.startsWith('D '));
    const ran = done ? parse<{ ran: number }>(done).ran : r.lines.filter((l) => l === 'P').length;
    if (!done && !r.timedOut && kills.length === 0)
      kills.push({
        killer: 'crash',
        testId: '(worker)',
        message: `worker exited ${r.code}: ${r.stderr.slice(-1500)}`,
      });
    return { kills, ran, timedOut: r.timedOut };
  }

  /** The unit test files through vitest (one fork, stop at the first failure): kills, or a timeout. */
  async unit(files: readonly string[], bail = true): Promise<{ kills: MutantKill[]; timedOut: boolean }> {
    if (files.length === 0) return { kills: [], timedOut: false };
    const out = join(this.scratch, 'vitest.json');
    rmSync(out, { force: true });
    const r = await runProcess(
      process.execPath,
      [
        'node_modules/vitest/vitest.mjs',
        'run',
        ...(bail ? ['--bail=1'] : []),
        '--maxWorkers=1',
        '--reporter=json',
        `--outputFile=${out}`,
        ...files,
      ],
      this.ws.dir,
      10 * 60_000,
      10 * 60_000,
    );
    if (r.timedOut) return { kills: [], timedOut: true };
    let report: {
      testResults?: {
        name: string;
        message?: string;
        assertionResults: { status: string; fullName: string; failureMessages: string[] }[];
      }[];
    };
    try {
      report = JSON.parse(readFileSync(out, 'utf8'));
    } catch {
      return {
        kills: [
          {
            killer: 'unit',
            testId: files.join(','),
            message: `vitest exited ${r.code}: ${r.stderr.slice(-1500)}`,
          },
        ],
        timedOut: false,
      };
    }
    const kills: MutantKill[] = [];
    for (const f of report.testResults ?? []) {
      const file = f.name.startsWith(this.ws.dir) ? f.name.slice(this.ws.dir.length + 1) : f.name;
      const failed = f.assertionResults.find((a) => a.status === 'failed');
      const message = (failed ? failed.failureMessages.join('\n') : (f.message ?? '')).slice(0, 2000);
      if (failed) kills.push({ killer: 'unit', testId: `${file} > ${failed.fullName}`, message });
      else if (f.message) kills.push({ killer: 'unit', testId: file, message });
      if (kills.length && bail) break;
    }
    return { kills, timedOut: false };
  }

  dispose(): void {
    rmSync(this.scratch, { recursive: true, force: true });
    this.ws.dispose();
  }
}

const testFileOf = (k: MutantKill) => k.testId.split(' > ')[0];

/**
 * The kills' checks run once more on the unmutated source, all in one batch: a check that fails there too
 * proves nothing. Returns the failing instance ids and unit test files.
 */
async function cleanFailures(
  slot: Slot,
  rows: readonly MutantRow[],
  ops: readonly string[],
): Promise<Set<string>> {
  const kills = rows.flatMap((r) => r.kills).filter((k) => k.killer !== 'load' && k.killer !== 'crash');
  const ids = [...new Set(kills.filter((k) => k.killer !== 'unit').map((k) => k.testId))];
  const files = [...new Set(kills.filter((k) => k.killer === 'unit').map(testFileOf))];
  const failing = new Set<string>();
  for (const k of (await slot.matrix({ ids, ops }, 'never')).kills) failing.add(k.testId);
  for (const k of (await slot.unit(files, false)).kills) failing.add(testFileOf(k));
  return failing;
}

export async function runMutants(mutants: readonly Mutant[], o: MutateOptions): Promise<MutantRow[]> {
  if (mutants.length === 0) return [];
  const selector = new Selector(o.root, o.tier, o.maxInstances, o.reach ?? null);
  const started = Date.now();
  const queue = [...mutants];
  const usedOps = new Set<string>();
  const rows: MutantRow[] = [];
  const runOne = async (slot: Slot, m: Mutant): Promise<MutantRow> => {
    const t0 = Date.now();
    const sel = selector.select(m);
    for (const op of sel.ops) usedOps.add(op);
    const row = (
      outcome: MutantRow['outcome'],
      kills: MutantKill[],
      reason: string | null,
      ran: number,
    ): MutantRow => ({
      mutantId: m.id,
      file: m.file,
      line: m.line,
      operator: m.operator,
      original: m.original,
      mutated: m.mutated,
      outcome,
      killedBy: kills[0]?.killer ?? null,
      reason,
      selected: sel.selected,
      ran,
      durationMs: Date.now() - t0,
      kills,
    });
    const eq = equivalenceOf(m);
    if (eq) return row('equivalent', [], eq, 0);
    const undo = slot.ws.apply(m.file, m.line, m.original, m.mutated);
    let matrix: Awaited<ReturnType<Slot['matrix']>>;
    let unit: Awaited<ReturnType<Slot['unit']>> = { kills: [], timedOut: false };
    try {
      matrix = await slot.matrix(sel);
      if (!matrix.timedOut && o.unit && (o.perOracle || matrix.kills.length === 0))
        unit = await slot.unit(sel.unitTests);
    } finally {
      undo();
    }
    const coverage = `${matrix.ran} of ${sel.selected} selected instances${sel.reached ? ` (${sel.reached} reaching the line)` : ''}${sel.unitTests.length ? `, ${sel.unitTests.length} unit test file(s)` : ''}`;
    if (matrix.timedOut || unit.timedOut)
      return row(
        'timeout',
        [],
        `no progress for ${o.instanceTimeoutMs / 1000} s (${matrix.timedOut ? 'matrix' : 'unit tests'})`,
        matrix.ran,
      );
    const kills = [...matrix.kills, ...unit.kills];
    if (kills.length === 0)
      return row(
        'survived',
        [],
        sel.unreached
          ? `unreached: no ${o.tier} matrix instance executes this line${sel.unitTests.length ? ` (${sel.unitTests.length} unit test file(s) ran)` : ''}`
          : sel.ids.length + sel.unitTests.length === 0
            ? 'nothing selected'
            : `survived ${coverage}`,
        matrix.ran,
      );
    return row('killed', kills, null, matrix.ran);
  };
  const slots = Array.from(
    { length: Math.max(1, Math.min(o.jobs, mutants.length)) },
    () => new Slot(new Workspace(o.root), o),
  );
  try {
    await Promise.all(
      slots.map(async (slot) => {
        for (let m = queue.shift(); m; m = queue.shift()) {
          if (o.budgetMs !== null && Date.now() - started > o.budgetMs) break;
          const r = await runOne(slot, m);
          rows.push(r);
          o.onProgress?.(r);
        }
      }),
    );
    const failing = await cleanFailures(slots[0], rows, [...usedOps]);
    return rows.map((r) => {
      if (r.outcome !== 'killed') return r;
      const kills = r.kills.filter((k) => !failing.has(k.testId) && !failing.has(testFileOf(k)));
      if (kills.length) return { ...r, kills, killedBy: kills[0].killer };
      // Not a kill: nothing is stored as one (the kill matrix counts kills).
      return {
        ...r,
        outcome: 'error',
        killedBy: null,
        kills: [],
        reason: `${r.kills[0].testId} fails without the mutant too`,
      };
    });
  } finally {
    for (const s of slots) s.dispose();
  }
}
