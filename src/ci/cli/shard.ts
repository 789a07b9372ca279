/** `opgate shard plan`, `opgate merge` and `opgate td`: sharding by history, merging shard databases, target determination. */
import { writeFileSync } from 'node:fs';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { expandMatrix, type Tier } from '../matrix.ts';
import { toMarkdown } from '../run/markdown.ts';
import { PACKAGE_ROOT } from '../run/root.ts';
import { summarize } from '../run/summary.ts';
import { planFor } from '../shard/index.ts';
import { mergeDatabases, pruneCommits, shardResults } from '../store/merge.ts';
import { DEFAULT_DB } from '../store/store.ts';
import { affectedBy, changedFiles, isAffected } from '../td/index.ts';
import { intOption } from './options.ts';

export function registerShardCommands(program: Command): void {
  const shard = program.command('shard').description('shard planning');
  shard
    .command('plan')
    .description('assign the tier to N shards by historical duration (longest processing time first)')
    .requiredOption('--shards <n>', 'number of shards', intOption('--shards', 1))
    .addOption(new Option('--tier <tier>', 'matrix tier').choices(['pull', 'full']).default('pull'))
    .option('--db <path>', 'results database with the duration history', DEFAULT_DB)
    .option('--json', 'print the plan as JSON')
    .action((o: { shards: number; tier: Tier; db: string; json?: boolean }) => {
      const instances = expandMatrix(o.tier);
      const plan = planFor(instances, o.shards, o.db);
      const shards = plan.shards.map((s) => ({
        shard: `${s.index}/${o.shards}`,
        instances: s.units.reduce((n, u) => n + u.ids.length, 0),
        units: s.units.length,
        plannedS: Math.round(s.ms) / 1000,
      }));
      if (o.json) {
        console.log(
          JSON.stringify(
            {
              tier: o.tier,
              instances: instances.length,
              imbalance: plan.imbalance,
              estimated: plan.estimated,
              shards,
            },
            null,
            2,
          ),
        );
        return;
      }
      console.log(
        `${instances.length} instances (${plan.estimated} without history, estimated) on ${o.shards} shards; max/mean ${plan.imbalance.toFixed(3)}`,
      );
      for (const s of shards)
        console.log(
          `  ${s.shard.padEnd(6)} ${String(s.instances).padStart(6)} instances  ${String(s.units).padStart(4)} units  ${s.plannedS.toFixed(1)} s planned`,
        );
    });

  program
    .command('merge <dbs...>')
    .description(
      'merge the finished runs of shard results databases into one (idempotent: a run already there is skipped, ' +
        'unless this copy went further; a run still going is left for a later merge)',
    )
    .requiredOption('--into <db>', 'target database')
    .option('--summary-md <file>', 'write a Markdown summary of the merged shards (for $GITHUB_STEP_SUMMARY)')
    .option(
      '--keep-commits <n>',
      'then keep only the newest n commits in the target (a bounded history)',
      (v) => {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 1)
          throw new InvalidArgumentError(`got ${v}, expected a positive integer`);
        return n;
      },
    )
    .action((dbs: string[], o: { into: string; summaryMd?: string; keepCommits?: number }) => {
      const r = mergeDatabases(dbs, o.into);
      console.log(
        `merged ${dbs.length} database(s) into ${o.into}: ${r.runsAdded} run(s), ${r.resultsAdded} result(s) and ${r.perfAdded} perf sample(s) added, ${r.runsSkipped} run(s) already there, ${r.runsReplaced} partial run(s) replaced, ${r.runsRunning} still running (not merged)`,
      );
      if (o.keepCommits !== undefined) {
        const p = pruneCommits(o.into, o.keepCommits);
        console.log(
          `kept the newest ${o.keepCommits} commit(s): dropped ${p.commitsDropped} commit(s), ${p.runsDropped} run(s), ${p.perfDropped} perf sample(s)`,
        );
      }
      if (o.summaryMd) {
        const { rows, seconds } = shardResults(dbs);
        writeFileSync(
          o.summaryMd,
          toMarkdown(summarize(rows, seconds), rows, `opgate — ${dbs.length} shard(s) merged`),
        );
      }
    });

  program
    .command('td <changed>')
    .description(
      'target determination: the instances a change affects (files comma-separated, or a git range)',
    )
    .addOption(new Option('--tier <tier>', 'matrix tier').choices(['pull', 'full']).default('pull'))
    .option('--json', 'print JSON')
    .action((changed: string, o: { tier: Tier; json?: boolean }) => {
      const files = changedFiles(changed, PACKAGE_ROOT);
      const a = affectedBy(files, PACKAGE_ROOT);
      const ids = expandMatrix(o.tier)
        .filter((i) => isAffected(i, a))
        .map((i) => i.id);
      if (o.json) {
        console.log(
          JSON.stringify(
            {
              files,
              all: a.all,
              ops: [...a.ops.keys()],
              oracles: [...a.oracles],
              instances: ids.length,
              reasons: a.reasons,
            },
            null,
            2,
          ),
        );
        return;
      }
      for (const r of a.reasons) console.log(r);
      console.log(`${ids.length} affected instance(s) in the ${o.tier} tier${a.all ? ' (everything)' : ''}`);
    });
}
