/**
 * `opgate dashboard [serve] [--db] [--port] [--repo]` (serve is the default), `opgate dashboard build --out dir`
 * and `opgate dashboard demo <path>`.
 */
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { DEFAULT_DB, dbError } from '../src/ci/index.ts';
import { buildDashboard } from './build.ts';
import { DashboardError } from './errors.ts';
import { seedDemoDb } from './seed.ts';
import { serveDashboard } from './serve.ts';

/** One coded line and exit 2; a SQLite failure reading `db` (damaged, unreadable) is coded too, never bare. */
const fail = (e: unknown, db?: string): never => {
  const coded = db ? dbError(e, db, 'reading') : e;
  process.stderr.write(`${coded instanceof Error ? coded.message.split('\n')[0] : String(coded)}\n`);
  process.exit(2);
};

const repoOf = (o: { repo?: string }): string | null => {
  const repo = o.repo ?? process.env.GITHUB_REPOSITORY ?? null;
  if (repo !== null && !/^[\w.-]+\/[\w.-]+$/.test(repo))
    fail(new DashboardError('E_BAD_PARAM', `--repo: got ${JSON.stringify(repo)}, expected owner/name`));
  return repo;
};

const REPO_HELP = 'GitHub repository for issue links (default: $GITHUB_REPOSITORY)';

export function registerDashboardCommands(program: Command): void {
  const dashboard = program
    .command('dashboard')
    .description(
      'the dashboards: grid, coverage, flaky & disabled, perf, shards & time, test search, numerics, mutation, targets',
    );
  dashboard
    .command('serve', { isDefault: true })
    .description('serve the dashboards on 127.0.0.1, reading the database read-only (the default subcommand)')
    .option('--db <path>', 'results database', DEFAULT_DB)
    .option('--port <n>', 'port (0: any free one)', '8173')
    .option('--repo <owner/name>', REPO_HELP)
    .action(async (o: { db: string; port: string; repo?: string }) => {
      try {
        const d = await serveDashboard({ db: o.db, port: Number(o.port), repo: repoOf(o) });
        process.stdout.write(`opgate dashboards: ${d.url} (database ${o.db}, read-only; Ctrl-C to stop)\n`);
      } catch (e) {
        fail(e, o.db);
      }
    });
  dashboard
    .command('build')
    .description('write the dashboards as a static site (data as JSON) for GitHub Pages or a CI artifact')
    .requiredOption('--out <dir>', 'output folder')
    .option('--db <path>', 'results database', DEFAULT_DB)
    .option('--repo <owner/name>', REPO_HELP)
    .option(
      '--full',
      'compute every document (by default a document an earlier build wrote to --out is kept while what it shows is unchanged)',
    )
    .action(async (o: { out: string; db: string; repo?: string; full?: boolean }) => {
      try {
        const r = await buildDashboard({ db: o.db, out: o.out, repo: repoOf(o), full: o.full });
        process.stdout.write(
          `wrote ${r.files} files (${(r.bytes / 1e6).toFixed(2)} MB; ${r.kept} unchanged, kept; ${r.removed} of commits no longer shown, removed) from ${o.db} to ${o.out}\n`,
        );
      } catch (e) {
        fail(e, o.db);
      }
    });
  dashboard
    .command('demo <path>')
    .description(
      'write a synthetic results database (real matrix ids; injected failures, flakes, a perf regression) to try the dashboards on',
    )
    .option('--commits <n>', 'commits', '50')
    .option('--shards <n>', 'shards', '4')
    .action((path: string, o: { commits: string; shards: string }) => {
      if (existsSync(path))
        fail(new DashboardError('E_BAD_PARAM', `<path>: ${path} exists; the demo only writes a new file`));
      const commits = Number(o.commits);
      const shards = Number(o.shards);
      if (!(Number.isInteger(commits) && commits >= 1 && Number.isInteger(shards) && shards >= 1))
        fail(
          new DashboardError(
            'E_BAD_PARAM',
            `--commits/--shards: got ${o.commits}/${o.shards}, expected positive integers`,
          ),
        );
      const f = seedDemoDb(path, { commits, shards });
      process.stdout.write(
        `wrote ${path}: ${f.shas.length} commits × ${f.jobs.length} jobs, ${f.instances} instances per commit; \`npx opgate dashboard --db ${path}\`\n`,
      );
    });
}
