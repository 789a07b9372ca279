/** `opgate dashboard [--db] [--port] [--repo]` and `opgate dashboard build --out dir`. */
import type { Command } from 'commander';
import { DEFAULT_DB } from '../src/ci/index.ts';
import { buildDashboard } from './build.ts';
import { serveDashboard } from './serve.ts';

const repoOf = (o: { repo?: string }) => {
  const repo = o.repo ?? process.env.GITHUB_REPOSITORY ?? null;
  if (repo !== null && !/^[\w.-]+\/[\w.-]+$/.test(repo)) {
    process.stderr.write(`E_BAD_PARAM: --repo: got ${JSON.stringify(repo)}, expected owner/name\n`);
    process.exit(2);
  }
  return repo;
};

const fail = (e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(2);
};

export function registerDashboardCommands(program: Command): void {
  const dashboard = program
    .command('dashboard')
    .description('serve the dashboards on 127.0.0.1 (grid, coverage, flaky, perf, shards, search); read-only')
    .option('--db <path>', 'results database', DEFAULT_DB)
    .option('--port <n>', 'port (0: any free one)', '8173')
    .option('--repo <owner/name>', 'GitHub repository for issue links (default: $GITHUB_REPOSITORY)')
    .action(async (o: { db: string; port: string; repo?: string }) => {
      try {
        const d = await serveDashboard({ db: o.db, port: Number(o.port), repo: repoOf(o) });
        process.stdout.write(`opgate dashboards: ${d.url} (database ${o.db}, read-only; Ctrl-C to stop)\n`);
      } catch (e) {
        fail(e);
      }
    });
  dashboard
    .command('build')
    .description('write the dashboards as a static site (data as JSON) for GitHub Pages or a CI artifact')
    .requiredOption('--out <dir>', 'output folder')
    .option('--db <path>', 'results database', DEFAULT_DB)
    .option('--repo <owner/name>', 'GitHub repository for issue links (default: $GITHUB_REPOSITORY)')
    .action(async (o: { out: string; db: string; repo?: string }) => {
      try {
        const r = await buildDashboard({ db: o.db, out: o.out, repo: repoOf(o) });
        process.stdout.write(`wrote ${r.files} files (${(r.bytes / 1e6).toFixed(2)} MB) to ${o.out}\n`);
      } catch (e) {
        fail(e);
      }
    });
}
