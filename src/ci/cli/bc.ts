/** `opgate bc check|update`: the schema backward/forward-compatibility gate (implemented in src/ci/bc). */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import {
  type AllowEntry,
  checkBc,
  compareSchemaMaps,
  DEFAULT_ALLOWLIST,
  DEFAULT_SNAPSHOT,
  formatBcReport,
  isIsoDate,
  liveSchemas,
  readAllowlist,
  readSnapshot,
  type SchemaMap,
  todayIso,
  writeSnapshot,
} from '../bc/index.ts';

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

function fail(why: string): void {
  console.error(`opgate bc: ${why}`);
  process.exitCode = 2;
}

export function registerBcCommands(program: Command): void {
  const bc = program
    .command('bc')
    .description('schema backward/forward compatibility of the operator table against a committed snapshot');

  bc.command('check')
    .description(
      'compare the live operator table with the snapshot: BC breaks fail (exit 1), FC breaks warn, ' +
        'allowlist entries with an expiry date suppress',
    )
    .option('--snapshot <path>', 'schema snapshot JSON', DEFAULT_SNAPSHOT)
    .option('--allowlist <path>', 'allowlist JSON: [{op, until, reason}]')
    .option('--today <date>', 'the date allowlist expiry is judged on (YYYY-MM-DD)')
    .option('--namespace <ns>', "only this namespace's overloads (an extension's snapshot: e.g. myops)")
    .option('--json', 'print the report as JSON')
    .action(
      (o: { snapshot: string; allowlist?: string; today?: string; namespace?: string; json?: boolean }) => {
        const today = o.today ?? todayIso();
        if (!isIsoDate(today)) return fail(`--today must be a YYYY-MM-DD date, got ${today}`);
        let snapshot: SchemaMap;
        let allowlist: AllowEntry[];
        try {
          const snapshotPath = resolve(o.snapshot);
          if (!existsSync(snapshotPath))
            return fail(`no snapshot at ${snapshotPath}; create it with \`opgate bc update\``);
          snapshot = readSnapshot(snapshotPath);
          // The default allowlist may be absent (nothing allowed); one named on the command line must exist.
          const allowPath = resolve(o.allowlist ?? DEFAULT_ALLOWLIST);
          allowlist = o.allowlist || existsSync(allowPath) ? readAllowlist(allowPath) : [];
        } catch (e) {
          return fail(message(e));
        }
        const live = liveSchemas(o.namespace);
        if (o.namespace !== undefined && Object.keys(live).length === 0)
          return fail(`no op in namespace '${o.namespace}' (is its --config loaded?)`);
        const report = checkBc(snapshot, live, allowlist, today);
        console.log(o.json ? JSON.stringify(report, null, 2) : formatBcReport(report));
        process.exitCode = report.ok ? 0 : 1;
      },
    );

  bc.command('update')
    .description('rewrite the snapshot from the live operator table')
    .option('--snapshot <path>', 'schema snapshot JSON', DEFAULT_SNAPSHOT)
    .option('--namespace <ns>', "only this namespace's overloads (an extension's snapshot: e.g. myops)")
    .action((o: { snapshot: string; namespace?: string }) => {
      const path = resolve(o.snapshot);
      const live = liveSchemas(o.namespace);
      if (o.namespace !== undefined && Object.keys(live).length === 0)
        return fail(`no op in namespace '${o.namespace}' (is its --config loaded?)`);
      let summary = '';
      try {
        if (existsSync(path)) {
          const changes = compareSchemaMaps(readSnapshot(path), live);
          const n = (s: string) => changes.filter((c) => c.severity === s).length;
          summary = ` (${n('bc')} BC break(s), ${n('fc')} FC change(s), ${n('info')} new overload(s) since the previous snapshot)`;
        }
      } catch {
        summary = ' (the previous snapshot was unreadable)';
      }
      writeSnapshot(live, path);
      console.log(`wrote ${Object.keys(live).length} overload schemas to ${path}${summary}`);
    });
}
