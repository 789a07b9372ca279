/**
 * The `opgate` command line (commander): ops, run, repro, list, stale; bc, coverage, shard, flaky, perf, docs.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { opDb } from '../../../op_db/index.ts';
import { runOracle, sampleCount } from '../../oracles/index.ts';
import { listOps, registeredDevice } from '../../runtime/index.ts';
import { isTargetName, selectedTargets, targetNames } from '../../targets/index.ts';
import { loadConfig } from '../config.ts';
import { deviceConformance, formatConformance } from '../conformance.ts';
import { CiError } from '../errors.ts';
import { type DisabledEntry, listDisabled, readDisabled } from '../flaky/index.ts';
import {
  expandMatrix,
  type Filters,
  findInstance,
  type MatrixInstance,
  staleRules,
  type Tier,
} from '../matrix.ts';
import { toJUnit } from '../run/junit.ts';
import { toMarkdown } from '../run/markdown.ts';
import { planRun } from '../run/plan.ts';
import { commitUnderTest } from '../run/root.ts';
import { type JobFilters, runMatrix } from '../run/run.ts';
import { formatSummary, isFailing } from '../run/summary.ts';
import { selectInstances } from '../selection.ts';
import { parseShard } from '../shard/index.ts';
import { DEFAULT_DB, ResultsStore } from '../store/store.ts';
import { isAffected } from '../td/index.ts';
import { registerBcCommands } from './bc.ts';
import { registerCoverageCommand } from './coverage.ts';
import { registerDbCommands } from './db.ts';
import { registerDocsCommand } from './docs.ts';
import { registerFlakyCommands } from './flaky.ts';
import { registerGoldenCommands } from './golden.ts';
import { registerMutateCommand } from './mutate.ts';
import { registerNumericsCommands } from './numerics.ts';
import { intOption, listOption } from './options.ts';
import { registerPerfCommands } from './perf.ts';
import { registerReportCommand } from './report.ts';
import { registerShardCommands } from './shard.ts';

function filtersOf(o: Record<string, unknown>): Filters {
  const targets = selectedTargets();
  return {
    op: o.op as string[] | undefined,
    // A target run (--target) runs its targets' instances only, unless --device names devices too.
    device: (o.device as string[] | undefined) ?? (targets.length ? targets : undefined),
    dtype: o.dtype as string[] | undefined,
    oracle: o.oracle as string[] | undefined,
    layout: o.layout as string[] | undefined,
    mode: o.mode as string[] | undefined,
    pattern: o.pattern as string | undefined,
  };
}

function withFilters(cmd: Command): Command {
  return cmd
    .addOption(new Option('--tier <tier>', 'matrix tier').choices(['pull', 'full']).default('pull'))
    .option('--op <names>', 'only these ops (comma-separated, repeatable)', listOption)
    .option('--device <devices>', 'only these devices', listOption)
    .option('--dtype <dtypes>', 'only these dtypes', listOption)
    .option('--oracle <oracles>', 'only these oracles', listOption)
    .option('--layout <layouts>', 'only these layouts', listOption)
    .option('--mode <modes>', 'only these modes (eager, compile)', listOption)
    .option('--pattern <text>', 'only ids containing text (or matching /regex/)')
    .option('--allow-empty', 'a selection of 0 instances is not an error');
}

const kebab = (camel: string) => camel.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The disabled list stored in a results database. */
function readDisabledOf(db: string) {
  const store = new ResultsStore(db);
  try {
    return listDisabled(store);
  } finally {
    store.close();
  }
}

/** Runs the selected instances, writes the requested reports and sets the exit code. */
async function runAndReport(
  tier: Tier,
  filters: JobFilters,
  selection: readonly MatrixInstance[],
  instances: readonly MatrixInstance[],
  disabled: readonly DisabledEntry[],
  o: Record<string, unknown>,
): Promise<void> {
  // A run of foreign targets only: their departures are findings for `opgate report`, not failures.
  const findings = selectedTargets().length > 0 && selection.every((i) => isTargetName(i.device));
  const { summary, reporter, runId } = await runMatrix({
    tier,
    filters,
    selection,
    instances,
    disabled,
    reruns: filters.reruns ?? 0,
    db: o.db as string,
    progress: !o.json && process.stderr.isTTY === true,
    shard: (o.shard as string | undefined) ?? '1/1',
    // A target's departures are deterministic findings: a rerun would only call a broken kernel again.
    retries: o.rerunDisabled || findings ? 0 : (o.retries as number),
    // A target run is kept apart from the project's own history (grid, flaky detection, durations read 'normal').
    kind: o.rerunDisabled ? 'rerun-disabled' : findings ? 'target' : 'normal',
    resume: o.resume === true,
    shardSet: (o.shardSetId as string | null | undefined) ?? null,
    findings,
  });
  if (o.junit) writeFileSync(o.junit as string, toJUnit(reporter.rows));
  if (o.summaryMd)
    writeFileSync(
      o.summaryMd as string,
      toMarkdown(summary, reporter.rows, `opgate ${tier} tier${o.shard ? ` — shard ${o.shard}` : ''}`),
    );
  // A registered device's run (--device <it>) measures it against the ruler, per op family.
  const device = registeredDevice();
  const conformance =
    device !== null && filters.device?.includes(device) ? deviceConformance(reporter.rows, device) : null;
  if (o.json)
    console.log(JSON.stringify({ runId, ...summary, ...(conformance && { conformance }) }, null, 2));
  else {
    console.log(formatSummary(summary));
    if (conformance && device) console.log(`\n${formatConformance(device, conformance)}`);
    const shown = (x: { status: string }) => x.status === 'xpass' || (x.status === 'fail' && !findings);
    for (const r of reporter.rows.filter(shown).slice(0, 20)) {
      console.log(`\nFAIL ${r.id}\n${r.message ?? ''}`);
    }
  }
  if (findings && !o.json)
    console.log(
      `\n${summary.failed} departure(s) from PyTorch found (findings, not failures): \`opgate report --target ${selectedTargets().join(',')}\``,
    );
  process.exitCode = isFailing(summary, findings) ? 1 : 0;
}

/** `opgate run`'s work for one selection (one target at a time when --target names several). */
async function runCommand(o: Record<string, unknown>): Promise<void> {
  const tier = o.tier as Tier;
  // Every input is validated before anything is created: a typo must neither run nor write.
  const filters = filtersOf(o);
  if (o.shard) parseShard(o.shard as string);
  for (const flag of ['disabledFile', 'history'] as const)
    if (o[flag] && !existsSync(o[flag] as string))
      throw new CiError('E_FILE_NOT_FOUND', `--${kebab(flag)}: ${o[flag]} does not exist`);
  // Quarantine: the disabled list (from the results DB, which `opgate flaky sync` fills from the issues).
  const disabled = o.disabledFile
    ? readDisabled(o.disabledFile as string)
    : existsSync(o.db as string)
      ? readDisabledOf(o.db as string)
      : [];
  // The run's one expansion, narrowed by quarantine, shard and target determination (run/plan.ts).
  const { selection, instances, affected, shardSet } = planRun({
    tier,
    filters,
    allowEmpty: o.allowEmpty === true,
    disabled,
    rerunDisabled: o.rerunDisabled === true,
    shard: o.shard
      ? {
          spec: o.shard as string,
          history: (o.history as string) ?? (o.db as string),
          db: o.db as string,
          setId: o.shardSet as string | undefined,
          commit: commitUnderTest(),
        }
      : undefined,
    changed: o.changed ? { spec: o.changed as string, mode: o.td as 'order' | 'select' } : undefined,
    resume: o.resume === true,
  });
  const job: JobFilters = o.rerunDisabled ? { ...filters, reruns: o.reruns as number } : filters;
  if (affected && !o.json) {
    const n = o.td === 'order' ? instances.filter((i) => isAffected(i, affected)).length : instances.length;
    console.error(
      `target determination (${o.td}): ${n} affected instance(s)\n  ${affected.reasons.join('\n  ')}`,
    );
  }
  if (instances.length === 0) {
    console.error('opgate run: 0 instances selected (--allow-empty): nothing run, no run stored');
    if (o.json) console.log(JSON.stringify({ runId: null, instances: 0 }, null, 2));
    return;
  }
  await runAndReport(tier, job, selection, instances, disabled, { ...o, shardSetId: shardSet });
}

export function buildCli(): Command {
  const program = new Command('opgate').description(
    'Conformance matrix for the tensor runtime (op_db x oracles)',
  );
  // Usage errors (an unknown option, a bad choice) exit 2 like every other input error; help and version exit 0.
  // Set before any subcommand is made, so every subcommand inherits it.
  program.exitOverride((e) => {
    process.exit(
      e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.exitCode === 0 ? 0 : 2,
    );
  });
  // A project's own ops and OpInfos (src/ci/config.ts), loaded before any command runs; a run's workers get the
  // same file through OPGATE_CONFIG.
  program.option(
    '--config <file>',
    "a project's opgate.config.ts: its custom ops and OpInfos join the matrix",
  );
  // Foreign runtimes under test (src/targets): their instances join the matrix (and only theirs run, unless
  // --device says otherwise); a run's workers get them through OPGATE_TARGETS.
  program.option(
    '--target <names>',
    `foreign runtimes to judge by op_db and PyTorch's goldens (${targetNames().join(', ')})`,
    listOption,
  );
  program.hook('preAction', async () => {
    const file = (program.opts().config as string | undefined) ?? process.env.OPGATE_CONFIG;
    if (file) process.env.OPGATE_CONFIG = await loadConfig(file);
    const targets = program.opts().target as string[] | undefined;
    if (targets) {
      for (const t of targets)
        if (!isTargetName(t))
          throw new CiError(
            'E_UNKNOWN_NAME',
            `--target: unknown target '${t}'; expected one of ${targetNames().join(', ')}`,
          );
      process.env.OPGATE_TARGETS = targets.join(',');
    }
  });

  program
    .command('ops')
    .description('list the op_db: each OpInfo with its dtypes per device and oracles')
    .option('--json', 'print JSON')
    .action((o: { json?: boolean }) => {
      // One expansion for all OpInfos (not one per OpInfo): an OpInfo's oracles in matrix order.
      const oracles = new Map<string, Set<string>>();
      for (const i of expandMatrix('full')) oracles.set(i.op, (oracles.get(i.op) ?? new Set()).add(i.oracle));
      const rows = opDb.map((info) => ({
        name: info.name,
        op: info.op,
        family: info.family,
        dtypes: info.dtypes,
        oracles: [...(oracles.get(info.name) ?? [])],
        skips: info.skips.length,
      }));
      if (o.json) console.log(JSON.stringify(rows, null, 2));
      else
        for (const r of rows)
          console.log(
            `${r.name.padEnd(28)} ${r.family.padEnd(10)} cpu: ${r.dtypes.cpu.join(',')}  oracles: ${r.oracles.join(',')}`,
          );
    });

  program
    .command('optable')
    .description('list the runtime operator table: every overload with its schema and kernels')
    .option('--json', 'print JSON')
    .action((o: { json?: boolean }) => {
      const rows = listOps();
      if (o.json) console.log(JSON.stringify(rows, null, 2));
      else for (const r of rows) console.log(`${r.schema}    [${r.kernels.join(', ')}]`);
    });

  withFilters(program.command('run'))
    .description('run the matrix through vitest, store results in SQLite, print a summary')
    .option('--db <path>', 'SQLite results database', DEFAULT_DB)
    .option('--json', 'print the summary as JSON')
    .option('--junit <file>', 'also write JUnit XML')
    .option('--shard <i/n>', 'run only shard i of n (planned by historical duration, see `shard plan`)')
    .option('--history <path>', 'results database the shard plan reads durations from (default: --db)')
    .option(
      '--shard-set <id>',
      'with --shard: the id every shard of one sharded job shares; the first to plan stores the partition in --db and the others read it (default: a digest of commit, shard count and selection, prefixed by $GITHUB_RUN_ID)',
    )
    .option('--changed <files|range>', 'target determination: changed files (comma-separated) or a git range')
    .addOption(
      new Option('--td <mode>', 'with --changed: run affected instances first, or only them')
        .choices(['order', 'select'])
        .default('select'),
    )
    .option('--summary-md <file>', 'also write a Markdown summary (for $GITHUB_STEP_SUMMARY)')
    .option(
      '--retries <n>',
      'rerun a failing instance up to n times; failed-then-passed is recorded as flaky',
      intOption('--retries', 0),
      2,
    )
    .option(
      '--disabled-file <path>',
      'disabled-tests.json to quarantine by (default: the disabled list in --db)',
    )
    .option('--rerun-disabled', 'run only the disabled instances, --reruns times each, recording the counts')
    .option('--reruns <n>', 'reruns per instance in --rerun-disabled mode', intOption('--reruns', 1), 50)
    .option(
      '--resume',
      'continue the latest aborted or interrupted run of the same commit, platform, tier, filters, shard and ' +
        'kind, into that run: only the instances of its original selection it has no result for',
    )
    .action(async (o: Record<string, unknown>) => {
      // Each foreign runtime runs on its own (its own stored run and vitest workers): runtimes sharing a process
      // can disturb each other (a global one installs misleads another), and CI runs one per job anyway.
      const targets = selectedTargets();
      if (targets.length <= 1) return runCommand(o);
      let code = 0;
      for (const t of targets) {
        process.env.OPGATE_TARGETS = t;
        await runCommand(o);
        code = Math.max(code, Number(process.exitCode ?? 0));
      }
      process.env.OPGATE_TARGETS = targets.join(',');
      process.exitCode = code;
    });

  program
    .command('repro <id>')
    .description('re-run one instance (optionally one sample) in-process and print the outcome')
    .option('--sample <k>', 'only sample k', intOption('--sample', 0))
    .action(async (id: string, o: { sample?: number }) => {
      const inst = findInstance(id);
      if (!inst)
        throw new CiError('E_UNKNOWN_NAME', `unknown instance id: ${id} (\`opgate list\` lists them)`);
      if (o.sample !== undefined) {
        const n = sampleCount(inst);
        if (n === null || o.sample >= n)
          throw new CiError(
            'E_INVALID_ARGUMENT',
            `--sample: got ${o.sample}, expected ${n === null ? `no --sample (${inst.oracle} samples are drawn from the seed)` : `0..${n - 1} (${id} has ${n} samples)`}`,
          );
      }
      try {
        const r = await runOracle(inst, o.sample);
        console.log(`PASS ${id}${o.sample === undefined ? '' : ` sample ${o.sample}`} (${r.checks} checks)`);
      } catch (e) {
        console.log(`FAIL ${e instanceof Error ? e.message : String(e)}`);
        process.exitCode = 1;
      }
    });

  withFilters(program.command('list'))
    .description('list the instance ids the matrix expands to')
    .action((o: Record<string, unknown>) => {
      const tier = o.tier as Tier;
      for (const i of selectInstances(tier, filtersOf(o), { allowEmpty: o.allowEmpty === true }))
        console.log(i.rule ? `${i.id}  [${i.rule.kind}: ${i.rule.reason}]` : i.id);
    });

  program
    .command('stale')
    .description('skip/xfail rules in op_db that match no instance')
    .action(() => {
      const stale = staleRules();
      for (const s of stale) console.log(`${s.op}: ${JSON.stringify(s.rule)}`);
      process.exitCode = stale.length ? 1 : 0;
    });

  registerShardCommands(program);
  registerBcCommands(program);
  registerCoverageCommand(program);
  registerDbCommands(program);
  registerGoldenCommands(program);
  registerMutateCommand(program);
  registerFlakyCommands(program);
  registerPerfCommands(program);
  registerReportCommand(program);
  registerNumericsCommands(program);
  registerDocsCommand(program);
  return program;
}
