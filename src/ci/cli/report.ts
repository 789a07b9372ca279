/**
 * `opgate report --target <names> [--db] [--json] [--all-ops]`: what each foreign runtime's newest run found
 * (src/ci/target_report.ts). It reports; departures are findings, so the exit status is 0 unless nothing was run.
 */
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { selectedTargets, targetNames } from '../../targets/index.ts';
import { CiError } from '../errors.ts';
import { DEFAULT_DB, ResultsStore } from '../store/store.ts';
import { formatTargetReport, type TargetReport, targetReport } from '../target_report.ts';

export function registerReportCommand(program: Command): void {
  program
    .command('report')
    .description(
      "a foreign runtime's departures from PyTorch (needs --target): agree / differ / error-mismatch / unmapped per op and dtype, from its newest run",
    )
    .option('--db <path>', 'results database', DEFAULT_DB)
    .option('--json', 'print JSON')
    .option('--all-ops', 'list every op, also those with no instance judged')
    .action((o: { db: string; json?: boolean; allOps?: boolean }) => {
      const targets = selectedTargets();
      if (targets.length === 0)
        throw new CiError(
          'E_INVALID_ARGUMENT',
          `report: name the runtime with --target (${targetNames().join(', ')})`,
        );
      if (!existsSync(o.db)) throw new CiError('E_FILE_NOT_FOUND', `--db: ${o.db} does not exist`);
      const store = new ResultsStore(o.db);
      let reports: (TargetReport | null)[];
      try {
        reports = targets.map((t) => targetReport(store, t));
      } finally {
        store.close();
      }
      const missing = targets.filter((_, i) => reports[i] === null);
      if (missing.length)
        throw new CiError(
          'E_NOTHING_TO_REPORT',
          `no run of ${missing.join(', ')} in ${o.db}: run \`opgate run --target ${missing.join(',')}\` first`,
        );
      if (o.json) console.log(JSON.stringify(reports, null, 2));
      else console.log(reports.map((r) => formatTargetReport(r!, o.allOps)).join('\n\n'));
    });
}
