/** `opgate golden record|check`: goldens recorded from real PyTorch 1.13 (implemented in src/ci/golden). */
import type { Command } from 'commander';
import { opDb } from '../../../op_db/index.ts';
import { CiError } from '../errors.ts';
import { checkGoldens, orphanGoldens, recordGoldens } from '../golden/record.ts';
import { listOption } from './options.ts';

function selectOps(names: readonly string[] | undefined) {
  if (!names) return opDb;
  return names.map((n) => {
    const info = opDb.find((o) => o.name === n || o.op === n);
    if (!info) throw new CiError('E_UNKNOWN_NAME', `--op: no OpInfo named '${n}'`);
    return info;
  });
}

export function registerGoldenCommands(program: Command): void {
  const golden = program
    .command('golden')
    .description(
      'goldens recorded from real PyTorch 1.13 (needs torch only to record; tests replay the files)',
    );

  golden
    .command('record')
    .description('run every op_db sample through PyTorch and write op_db/goldens/<op>.json.gz')
    .option('--op <names>', 'only these ops (comma-separated, repeatable)', listOption)
    .action((o: { op?: string[] }) => {
      const r = recordGoldens(selectOps(o.op));
      const bytes = r.ops.reduce((a, x) => a + x.bytes, 0);
      const requests = r.ops.reduce((a, x) => a + x.requests, 0);
      console.log(
        `recorded ${requests} samples of ${r.ops.length} ops with torch ${r.torch} in ${r.seconds.toFixed(1)} s: ` +
          `${(bytes / 1024).toFixed(0)} KiB compressed`,
      );
      const orphans = orphanGoldens(opDb);
      if (orphans.length) console.log(`golden files of no op (delete them): ${orphans.join(', ')}`);
    });

  golden
    .command('check')
    .description('re-record and report ops whose PyTorch results differ from the committed goldens (drift)')
    .option('--op <names>', 'only these ops', listOption)
    .option('--json', 'print the report as JSON')
    .action((o: { op?: string[]; json?: boolean }) => {
      const r = checkGoldens(selectOps(o.op));
      const orphans = orphanGoldens(opDb);
      if (o.json) console.log(JSON.stringify({ ...r, orphans }, null, 2));
      else {
        console.log(`${r.unchanged} ops unchanged, ${r.drifted.length} drifted`);
        for (const op of r.drifted)
          console.log(`  drift: ${op} (refresh: npx opgate golden record --op ${op})`);
        for (const f of orphans) console.log(`  orphan: ${f}`);
      }
      process.exitCode = r.drifted.length || orphans.length ? 1 : 0;
    });
}
