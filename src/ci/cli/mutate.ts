/**
 * `opgate mutate`: mutation testing of the runtime against the matrix. Picks mutants (a stratified sample, the
 * changed lines of a git range, named ones or ids), runs each against the instances target determination maps
 * to its file plus the unit tests importing it, stores outcomes in the results database and prints a summary
 * (or `--json`). `--min-score` makes it a gate.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { type Command, Option } from 'commander';
import { CiError } from '../errors.ts';
import type { MatrixInstance } from '../matrix.ts';
import {
  buildReachMap,
  changedLines,
  generateMutants,
  type Mutant,
  NAMED_MUTANTS,
  OPERATORS,
  ReachMap,
  resolveNamed,
  runMutants,
  sampleMutants,
  saveReachMap,
} from '../mutate/index.ts';
import { gitOutput, PACKAGE_ROOT } from '../run/root.ts';
import {
  beginMutationRun,
  endMutationRun,
  insertMutant,
  type MutantRow,
  mutationScore,
} from '../store/mutation.ts';
import { DEFAULT_DB, ResultsStore } from '../store/store.ts';
import { intOption, listOption } from './options.ts';

interface MutateFlags {
  sample?: number;
  seed: number;
  changed?: string;
  only?: string[];
  named?: boolean;
  fast?: boolean;
  operator?: string[];
  file?: string[];
  list?: boolean;
  jobs: number;
  tier: 'pull' | 'full';
  maxInstances: number;
  perOracle?: boolean;
  unit: boolean;
  timeout: number;
  budget?: number;
  minScore?: string;
  db: string;
  json?: boolean;
  reach: string;
  buildReach?: boolean;
}

const DEFAULT_REACH = '.opgate/reach.json';

/** The reach map to select by: built first with --build-reach (over the whole catalogue), else the saved one. */
async function reachMap(o: MutateFlags, root: string): Promise<ReachMap | null> {
  const path = resolve(o.reach);
  if (o.buildReach) {
    const say = o.json ? () => {} : (s: string) => console.log(s);
    say(`opgate mutate: building the reach map (${o.tier} matrix under coverage, ${o.jobs} processes)`);
    let last = 0;
    // OPGATE_REACH_OPS=a,b: only those OpInfos' instances (a partial map, never exact: tests, quick looks).
    const ops = process.env.OPGATE_REACH_OPS?.split(',').filter(Boolean);
    const data = await buildReachMap(generateMutants(root), {
      root,
      tier: o.tier,
      ...(ops?.length && { only: (i: MatrixInstance) => ops.includes(i.info.name) }),
      jobs: o.jobs,
      instanceTimeoutMs: o.timeout * 1000,
      onProgress: (done, total) => {
        if (done - last < 2000 && done < total) return;
        last = done;
        say(`  reach: ${done}/${total} instances`);
      },
    });
    saveReachMap(path, data);
    say(`  reach map: ${Object.keys(data.hits).length} lines reached, in ${data.seconds} s -> ${o.reach}`);
  }
  if (!existsSync(path)) return null;
  const map = ReachMap.load(path, root);
  if (map.data.tier !== o.tier) return null;
  if (!map.fresh && !o.json)
    console.log(
      'opgate mutate: the reach map was built on another tree: an ordering hint only (--build-reach)',
    );
  return map;
}

function scoreOption(v: string): number {
  const n = Number(v);
  if (!/^\d*\.?\d+$/.test(v.trim()) || n > 1)
    throw new CiError(
      'E_INVALID_ARGUMENT',
      `--min-score: got '${v}', expected a fraction between 0 and 1 (0.9)`,
    );
  return n;
}

/** The mutants the flags pick, and the run's mode. */
function pick(o: MutateFlags, root: string): { mode: string; mutants: Mutant[] } {
  const unknownOps = (o.operator ?? []).filter((id) => !OPERATORS.some((x) => x.id === id));
  if (unknownOps.length)
    throw new CiError(
      'E_UNKNOWN_NAME',
      `--operator: no operator ${unknownOps.map((x) => `'${x}'`).join(', ')}; expected one of ${OPERATORS.map((x) => x.id).join(', ')}`,
    );
  const keep = (m: Mutant) =>
    (!o.operator || o.operator.includes(m.operator)) && (!o.file || o.file.some((f) => m.file.startsWith(f)));
  if (o.named || o.only) {
    const named = NAMED_MUTANTS.map((n) => resolveNamed(root, n));
    if (o.named)
      return { mode: 'only', mutants: named.filter((m, i) => keep(m) && !(o.fast && NAMED_MUTANTS[i].slow)) };
    const all = [...named, ...generateMutants(root)];
    const wanted = o.only!;
    const found = wanted.map((w) => all.find((m) => m.id === w || m.name === w));
    const missing = wanted.filter((_, i) => !found[i]);
    if (missing.length)
      throw new CiError(
        'E_UNKNOWN_NAME',
        `--only: no mutant ${missing.map((x) => `'${x}'`).join(', ')} (ids from --list, or a named mutant)`,
      );
    return { mode: 'only', mutants: found as Mutant[] };
  }
  let mutants = generateMutants(root).filter(keep);
  let mode = 'sample';
  if (o.changed) {
    const lines = changedLines(o.changed, root);
    mutants = mutants.filter((m) => lines.get(m.file)?.has(m.line));
    mode = 'changed';
  }
  if (o.sample !== undefined) mutants = sampleMutants(mutants, o.sample, o.seed);
  return { mode, mutants };
}

const line = (r: MutantRow) =>
  `${r.outcome.padEnd(10)} ${r.mutantId} ${r.file}:${r.line} ${r.operator}` +
  (r.killedBy ? ` by ${r.killedBy} (${r.kills[0].testId})` : r.reason ? ` (${r.reason})` : '') +
  ` ${(r.durationMs / 1000).toFixed(1)} s`;

export function registerMutateCommand(program: Command): void {
  program
    .command('mutate')
    .description(
      'mutation testing: apply catalogued one-line bugs to the runtime and check the matrix kills each',
    )
    .option('--sample <n>', 'a sample of n mutants, stratified by operator', intOption('--sample', 1))
    .option('--seed <n>', 'the sample seed', intOption('--seed', 0), 0)
    .option('--changed <range>', 'only mutants on lines a git range changed (a PR gate: main...HEAD)')
    .option('--only <ids>', 'only these mutant ids or named mutants', listOption)
    .option('--named', 'only the named mutants (bugs the matrix once missed, kept as data)')
    .option('--fast', 'with --named: leave out those whose proof is an end-to-end run (minutes)')
    .option('--operator <ids>', 'only these operators', listOption)
    .option('--file <prefixes>', 'only files under these paths', listOption)
    .option('--list', 'list the mutants and exit')
    .addOption(
      // Described, not printed: the help text (and docs/cli.md) must not depend on the machine.
      new Option('--jobs <n>', 'mutants run in parallel')
        .argParser(intOption('--jobs', 1))
        .default(Math.max(1, availableParallelism()), 'the core count'),
    )
    .addOption(
      new Option('--tier <tier>', 'matrix tier the instances come from')
        .choices(['pull', 'full'])
        .default('pull'),
    )
    .option(
      '--max-instances <n>',
      'matrix instances per mutant at most (a stratified sample beyond)',
      intOption('--max-instances', 1),
      400,
    )
    .option('--per-oracle', 'keep going after a kill to find every killing oracle (the kill matrix)')
    .option('--no-unit', 'skip the unit tests that import the mutated file')
    .option(
      '--timeout <s>',
      'seconds without progress before a mutant is a timeout',
      intOption('--timeout', 1),
      60,
    )
    .option('--budget <minutes>', 'start no mutant after this many minutes', intOption('--budget', 1))
    .option('--min-score <x>', 'exit 1 when the score is below x (0..1)')
    .option('--db <path>', 'results database', DEFAULT_DB)
    .option(
      '--reach <path>',
      'reach map: which instances execute each line (they run first; a line none executes is unreached)',
      DEFAULT_REACH,
    )
    .option('--build-reach', 'first run the matrix once under coverage to (re)build the reach map (minutes)')
    .option('--json', 'print {"mutants","killed","survived","equivalent","score",...} only')
    .action(async (o: MutateFlags) => {
      const minScore = o.minScore === undefined ? null : scoreOption(o.minScore);
      const root = PACKAGE_ROOT;
      const { mode, mutants } = pick(o, root);
      const reach = await reachMap(o, root);
      if (o.list) {
        for (const m of mutants)
          console.log(
            `${m.id} ${m.file}:${m.line} ${m.operator}${m.name ? ` [${m.name}]` : ''}\n  - ${m.original.trim()}\n  + ${m.mutated.trim()}`,
          );
        console.log(`${mutants.length} mutants`);
        return;
      }
      const store = new ResultsStore(o.db);
      const t0 = Date.now();
      try {
        const mrunId = beginMutationRun(store, {
          commitSha: process.env.GITHUB_SHA ?? gitOutput(['rev-parse', 'HEAD']),
          branch: process.env.GITHUB_REF_NAME ?? gitOutput(['rev-parse', '--abbrev-ref', 'HEAD']),
          mode,
          args: {
            sample: o.sample,
            seed: o.seed,
            changed: o.changed,
            tier: o.tier,
            maxInstances: o.maxInstances,
            perOracle: !!o.perOracle,
          },
        });
        if (!o.json) console.log(`opgate mutate: ${mutants.length} mutants, ${o.jobs} at a time (${mode})`);
        const rows = await runMutants(mutants, {
          root,
          tier: o.tier,
          jobs: o.jobs,
          maxInstances: o.maxInstances,
          perOracle: !!o.perOracle,
          unit: o.unit,
          instanceTimeoutMs: o.timeout * 1000,
          budgetMs: o.budget === undefined ? null : o.budget * 60_000,
          reach,
          // Stored as each finishes (a run stopped midway keeps them), rewritten once kills are re-checked.
          onProgress: (r) => {
            insertMutant(store, mrunId, r);
            if (!o.json) console.log(line(r));
          },
        });
        for (const r of rows) insertMutant(store, mrunId, r);
        endMutationRun(store, mrunId);
        const score = mutationScore(rows.map((r) => r.outcome));
        const seconds = Math.round((Date.now() - t0) / 1000);
        // Survivors no matrix instance executes (the reach map's verdict): where samples are missing.
        const unreached = rows.filter(
          (r) => r.outcome === 'survived' && r.reason?.startsWith('unreached'),
        ).length;
        const summary = { ...score, score: Number(score.score.toFixed(4)), unreached, seconds, run: mrunId };
        if (o.json) console.log(JSON.stringify(summary));
        else {
          for (const r of rows.filter((x) => x.outcome === 'survived'))
            console.log(
              `survivor ${r.file}:${r.line} ${r.operator}\n  - ${r.original.trim()}\n  + ${r.mutated.trim()}`,
            );
          console.log(
            `${score.mutants} mutants: ${score.killed} killed, ${score.survived} survived, ${score.timeout} timeout, ` +
              `${score.equivalent} equivalent, ${score.error} error; score ${(100 * score.score).toFixed(1)}% in ${seconds} s` +
              (unreached ? ` (${unreached} survivor(s) on lines no instance executes)` : ''),
          );
        }
        if (minScore !== null && score.score < minScore) process.exitCode = 1;
        if (score.error > 0 && !o.json)
          console.log('errors: a check that fails without the mutant too (fix the baseline)');
      } finally {
        store.close();
      }
    });
}
