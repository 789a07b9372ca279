/**
 * `opgate verify` (a sharded run's merged results are exactly its selection) and `opgate db check|repair`
 * (damage in a results database, and keeping what can be kept).
 */
import type { Command } from 'commander';
import { checkDatabase, repairDatabase } from '../store/check.ts';
import { ResultsReader } from '../store/reader.ts';
import { recentShardSets, verifyShardSet } from '../store/shard_sets.ts';
import { DEFAULT_DB, ResultsStore } from '../store/store.ts';
import { listOption } from './options.ts';

export function registerDbCommands(program: Command): void {
  program
    .command('verify')
    .description(
      'check that each shard set (the shards of one sharded run) holds exactly its selection: every shard ran to ' +
        'the end, no planned instance missing, none twice or outside its shard, every shard planned the same ' +
        'partition. Exit 1 when not',
    )
    .option('--db <path>', 'merged results database', DEFAULT_DB)
    .option('--shard-set <ids>', 'these shard sets (default: those of the newest commit)', listOption)
    .option('--json', 'print JSON')
    .action((o: { db: string; shardSet?: string[]; json?: boolean }) => {
      const reader = new ResultsReader(o.db);
      try {
        const sets = o.shardSet ?? recentShardSets(reader);
        if (sets.length === 0) {
          // Nothing verified is a failed gate: the shards of a sharded job store their plan.
          console.log(
            `FAIL ${o.db}: no shard set to verify (no sharded run of the newest commit stored its plan)`,
          );
          process.exitCode = 1;
          return;
        }
        const verdicts = sets.map((s) => verifyShardSet(reader, s));
        if (o.json) console.log(JSON.stringify(verdicts, null, 2));
        else
          for (const v of verdicts) {
            const head = `shard set ${v.setId}: ${v.shards} shard(s), ${v.instances} instance(s)`;
            console.log(v.problems.length ? `FAIL ${head}\n  ${v.problems.join('\n  ')}` : `ok   ${head}`);
          }
        process.exitCode = verdicts.some((v) => v.problems.length) ? 1 : 0;
      } finally {
        reader.close();
      }
    });

  const db = program.command('db').description('the results database itself: damage and repair');
  db.command('check <path>')
    .description(
      'read-only: the -wal, every page (integrity_check) and every row; exit 1 when anything is damaged',
    )
    .option('--json', 'print JSON')
    .action((path: string, o: { json?: boolean }) => {
      const c = checkDatabase(path);
      if (o.json) console.log(JSON.stringify(c, null, 2));
      else if (c.ok) console.log(`${path}: ok`);
      else {
        if (c.wal) console.log(`${path}-wal: ${c.wal}`);
        if (c.pages) console.log(`${path}: damaged pages: ${c.pages}`);
        for (const r of c.rows.slice(0, 50)) console.log(`${path}: damaged ${r}`);
        if (c.rows.length > 50) console.log(`... and ${c.rows.length - 50} more damaged row(s)`);
      }
      process.exitCode = c.ok ? 0 : 1;
    });
  db.command('rebuild <path>')
    .description(
      "recompute the derived tables (each instance's recent outcomes and durations) from the results; they are kept as runs end, this is for a file whose summaries are in doubt",
    )
    .action((path: string) => {
      const store = new ResultsStore(path);
      try {
        store.rebuildSummaries();
      } finally {
        store.close();
      }
      console.log(`${path}: summaries rebuilt from the results`);
    });
  db.command('repair <path>')
    .description(
      'replay what a damaged -wal can replay (a copy of it kept beside the file), drop damaged rows; then ' +
        '`opgate run --resume` re-runs what was lost',
    )
    .action((path: string) => {
      const r = repairDatabase(path);
      console.log(
        `${path}: repaired${r.walKept ? ` (the damaged -wal is kept as ${r.walKept})` : ''}: ${r.runsDropped} damaged run(s) and ${r.resultsDropped} damaged result(s) dropped; \`opgate db check ${path}\` to confirm, \`opgate run --resume\` to re-run what was lost`,
      );
    });
}
