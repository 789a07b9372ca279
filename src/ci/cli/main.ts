/**
 * The `opgate` command line (commander): ops, run, repro, list, stale.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, Option } from 'commander';
import { opDb } from '../../../op_db/index.ts';
import { runOracle } from '../../oracles/index.ts';
import { listOps } from '../../runtime/index.ts';
import { disabledBy, exportDisabled, listDisabled, readDisabled } from '../flaky/index.ts';
import { expandMatrix, type Filters, findInstance, staleRules, type Tier } from '../matrix.ts';
import { toJUnit } from '../run/junit.ts';
import { toMarkdown } from '../run/markdown.ts';
import { PACKAGE_ROOT, runMatrix } from '../run/run.ts';
import { formatSummary, isFailing } from '../run/summary.ts';
import { shardIds } from '../shard/index.ts';
import { DEFAULT_DB, ResultsStore } from '../store/store.ts';
import { affectedBy, changedFiles, isAffected } from '../td/index.ts';
import { registerBcCommands } from './bc.ts';
import { registerFlakyCommands } from './flaky.ts';
import { registerPerfCommands } from './perf.ts';
import { registerShardCommands } from './shard.ts';

const list = (v: string, prev: string[] = []) => [...prev, ...v.split(',').filter(Boolean)];

function filtersOf(o: Record<string, unknown>): Filters {
  return {
    op: o.op as string[] | undefined,
    device: o.device as string[] | undefined,
    dtype: o.dtype as string[] | undefined,
    oracle: o.oracle as string[] | undefined,
    layout: o.layout as string[] | undefined,
    pattern: o.pattern as string | undefined,
  };
}

function withFilters(cmd: Command): Command {
  return cmd
    .addOption(new Option('--tier <tier>', 'matrix tier').choices(['pull', 'full']).default('pull'))
    .option('--op <names>', 'only these ops (comma-separated, repeatable)', list)
    .option('--device <devices>', 'only these devices', list)
    .option('--dtype <dtypes>', 'only these dtypes', list)
    .option('--oracle <oracles>', 'only these oracles', list)
    .option('--layout <layouts>', 'only these layouts', list)
    .option('--pattern <text>', 'only ids containing text (or matching /regex/)');
}

export function buildCli(): Command {
  const program = new Command('opgate').description(
    'Conformance matrix for the tensor runtime (op_db x oracles)',
  );

  program
    .command('ops')
    .description('list the op_db: each OpInfo with its dtypes per device and oracles')
    .option('--json', 'print JSON')
    .action((o: { json?: boolean }) => {
      const rows = opDb.map((info) => ({
        name: info.name,
        op: info.op,
        family: info.family,
        dtypes: info.dtypes,
        oracles: [...new Set(expandMatrix('full', { op: [info.name] }).map((i) => i.oracle))],
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
      (v) => Number(v),
      2,
    )
    .option(
      '--disabled-file <path>',
      'disabled-tests.json to quarantine by (default: the disabled list in --db)',
    )
    .option('--rerun-disabled', 'run only the disabled instances, --reruns times each, recording the counts')
    .option('--reruns <n>', 'reruns per instance in --rerun-disabled mode', (v) => Number(v), 50)
    .action(async (o: Record<string, unknown>) => {
      const tier = o.tier as Tier;
      let filters = filtersOf(o);
      const dir = mkdtempSync(join(tmpdir(), 'opgate-'));
      // Quarantine: the disabled list (from the results DB, which `opgate flaky sync` fills from the issues).
      const disabledFile = (o.disabledFile as string | undefined) ?? join(dir, 'disabled-tests.json');
      if (!o.disabledFile) {
        const store = new ResultsStore(o.db as string);
        exportDisabled(listDisabled(store), disabledFile);
        store.close();
      }
      filters = { ...filters, disabledFile };
      if (o.rerunDisabled) {
        const entries = readDisabled(disabledFile);
        const ids = expandMatrix(tier, filters)
          .filter((i) => disabledBy(entries, i))
          .map((i) => i.id);
        const file = join(dir, 'disabled.ids');
        writeFileSync(file, ids.join('\n'));
        filters = { ...filters, idsFile: file, reruns: o.reruns as number };
      }
      if (o.shard) {
        const ids = shardIds(tier, filters, o.shard as string, (o.history as string) ?? (o.db as string));
        const file = join(dir, 'shard.ids');
        writeFileSync(file, ids.join('\n'));
        filters = { ...filters, idsFile: file };
      }
      if (o.changed) {
        const affected = affectedBy(changedFiles(o.changed as string, PACKAGE_ROOT), PACKAGE_ROOT);
        const ids = expandMatrix(tier, filters)
          .filter((i) => isAffected(i, affected))
          .map((i) => i.id);
        const file = join(dir, 'td.ids');
        writeFileSync(file, ids.join('\n'));
        filters = o.td === 'order' ? { ...filters, priorityFile: file } : { ...filters, idsFile: file };
        if (!o.json)
          console.error(
            `target determination (${o.td}): ${ids.length} affected instance(s)\n  ${affected.reasons.join('\n  ')}`,
          );
      }
      const { summary, reporter, runId } = await runMatrix({
        tier,
        filters,
        db: o.db as string,
        progress: !o.json && process.stderr.isTTY === true,
        shard: (o.shard as string | undefined) ?? '1/1',
        retries: o.rerunDisabled ? 0 : (o.retries as number),
        kind: o.rerunDisabled ? 'rerun-disabled' : 'normal',
      });
      if (o.junit) writeFileSync(o.junit as string, toJUnit(reporter.rows));
      if (o.summaryMd)
        writeFileSync(
          o.summaryMd as string,
          toMarkdown(summary, reporter.rows, `opgate ${tier} tier${o.shard ? ` — shard ${o.shard}` : ''}`),
        );
      if (o.json) console.log(JSON.stringify({ runId, ...summary }, null, 2));
      else {
        console.log(formatSummary(summary));
        for (const r of reporter.rows
          .filter((x) => x.status === 'fail' || x.status === 'xpass')
          .slice(0, 20)) {
          console.log(`\nFAIL ${r.id}\n${r.message ?? ''}`);
        }
      }
      process.exitCode = isFailing(summary) ? 1 : 0;
    });

  program
    .command('repro <id>')
    .description('re-run one instance (optionally one sample) in-process and print the outcome')
    .option('--sample <k>', 'only sample k', (v) => Number(v))
    .action(async (id: string, o: { sample?: number }) => {
      const inst = findInstance(id);
      if (!inst) {
        console.error(`unknown instance id: ${id}`);
        process.exitCode = 2;
        return;
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
      for (const i of expandMatrix(o.tier as Tier, filtersOf(o)))
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
  registerFlakyCommands(program);
  registerPerfCommands(program);
  return program;
}
