/**
 * `opgate flaky ...`: the DISABLED-issue bot (file-issues, sync, close-fixed) and the ranked flake list.
 * The GitHub token comes from GITHUB_TOKEN only (never an option), the API from GITHUB_API_URL, the repository
 * from --repo or GITHUB_REPOSITORY. Errors are printed with the token redacted.
 */
import type { Command } from 'commander';
import {
  closeFixed,
  DEFAULT_DASHBOARD_URL,
  exportDisabled,
  fileIssues,
  flakeStats,
  type GitHubClient,
  githubClient,
  parseRepo,
  syncDisabled,
} from '../flaky/index.ts';
import { dbError } from '../store/db_errors.ts';
import { DEFAULT_DB, ResultsStore } from '../store/store.ts';
import { intOption } from './options.ts';

/** Runs a bot command: opens the store and the client, prints errors (redacted) and sets the exit code. */
async function withBot(
  o: { db: string; repo?: string },
  write: boolean,
  body: (store: ResultsStore, client: GitHubClient, repo: ReturnType<typeof parseRepo>) => Promise<void>,
): Promise<void> {
  let client: GitHubClient | null = null;
  let store: ResultsStore | null = null;
  try {
    const repo = parseRepo(o.repo);
    client = githubClient({ requireToken: write });
    store = new ResultsStore(o.db);
    await body(store, client, repo);
  } catch (e) {
    // The results database failing (full, read-only, damaged) is the user's to fix: its coded line, exit 2.
    const db = dbError(e, o.db, 'the flaky bot');
    if ((db as { code?: string }).code?.startsWith('E_DB_')) throw db;
    const msg = client ? client.describe(e) : e instanceof Error ? e.message : String(e);
    console.error(`error: ${msg}`);
    process.exitCode = 1;
  } finally {
    store?.close();
  }
}

export function registerFlakyCommands(program: Command): void {
  const flaky = program
    .command('flaky')
    .description(
      'flaky-test quarantine: DISABLED issues (GITHUB_TOKEN from the environment) and flake history',
    );

  flaky
    .command('file-issues')
    .description(
      'file DISABLED issues for flaky tests (comments on existing ones; broken tests are never filed)',
    )
    .option('--db <path>', 'results database', DEFAULT_DB)
    .option('--repo <owner/name>', 'repository (default: GITHUB_REPOSITORY)')
    .option('--k <n>', 'more than k flaky instances of one op -> one op-level issue', intOption('--k', 0), 5)
    .option('--max-issues <n>', 'at most n new issues per run', intOption('--max-issues', 0), 10)
    .option('--window <n>', 'normal runs of history considered', intOption('--window', 0), 30)
    .option('--dry-run', 'print what would be filed; write nothing')
    .option(
      '--dashboard-url <url>',
      'base URL of the dashboards (`opgate dashboard build` site) for the flake-history link',
      DEFAULT_DASHBOARD_URL,
    )
    .option('--json', 'print the report as JSON')
    .action(
      async (o: {
        db: string;
        repo?: string;
        k: number;
        maxIssues: number;
        window: number;
        dryRun?: boolean;
        dashboardUrl: string;
        json?: boolean;
      }) =>
        withBot(o, !o.dryRun, async (store, client, repo) => {
          const r = await fileIssues(store, client, {
            repo,
            k: o.k,
            maxIssues: o.maxIssues,
            window: o.window,
            dryRun: o.dryRun,
            dashboardUrl: o.dashboardUrl,
          });
          if (o.json) return console.log(JSON.stringify(r, null, 2));
          const verb = r.dryRun ? 'would file' : 'filed';
          for (const a of r.actions) {
            if (a.action === 'file') {
              const f = r.filed.find((x) => x.key === a.key);
              console.log(`${verb} "${a.title}" [${a.labels.join(', ')}]${f?.url ? ` ${f.url}` : ''}`);
              if (r.dryRun) console.log(a.body.replace(/^/gm, '    '));
            } else if (a.action === 'comment')
              console.log(
                `${r.dryRun ? 'would comment' : 'commented'} on #${a.issue} (${a.keys.join(', ')})`,
              );
            else if (a.action === 'label')
              console.log(`${r.dryRun ? 'would label' : 'labelled'} #${a.issue}: ${a.labels.join(', ')}`);
          }
          for (const u of r.upToDate) console.log(`#${u.issue} is up to date (${u.keys.join(', ')})`);
          if (r.skippedByCap.length)
            console.log(
              `cap of ${o.maxIssues} new issue(s) reached; not filed: ${r.skippedByCap.join(', ')}`,
            );
          if (r.broken.length)
            console.log(`broken (always failing; not quarantined, fix them): ${r.broken.join(', ')}`);
          if (r.unknown.length) console.log(`flaky ids not in the current matrix: ${r.unknown.join(', ')}`);
          console.log(
            `${r.filed.length} ${verb}, ${r.commented.length} comment(s), ${r.upToDate.length} up to date, ${r.skippedByCap.length} over the cap, ${r.broken.length} broken`,
          );
        }),
    );

  flaky
    .command('sync')
    .description('read the open DISABLED issues into the disabled list (issues are the source of truth)')
    .option('--db <path>', 'results database', DEFAULT_DB)
    .option('--repo <owner/name>', 'repository (default: GITHUB_REPOSITORY)')
    .option('--export <file>', 'also write the list as JSON (disabled-tests.json)')
    .option('--json', 'print the report as JSON')
    .action(async (o: { db: string; repo?: string; export?: string; json?: boolean }) =>
      withBot(o, false, async (store, client, repo) => {
        const r = await syncDisabled(store, client, { repo });
        if (o.export) exportDisabled(r.entries, o.export);
        if (o.json) return console.log(JSON.stringify(r, null, 2));
        for (const k of r.added) console.log(`disabled: ${k}`);
        for (const k of r.removed) console.log(`re-enabled: ${k}`);
        for (const u of r.unknown) console.log(`ignored #${u.issue}: ${u.key} names no test in the matrix`);
        for (const m of r.malformed) console.log(`ignored #${m.issue}: "${m.title}" has no valid test key`);
        for (const d of r.duplicates)
          console.log(`duplicate issues for ${d.key}: ${d.issues.map((n) => `#${n}`).join(', ')}`);
        console.log(
          `${r.entries.length} disabled key(s): ${r.added.length} added, ${r.removed.length} removed${o.export ? `; wrote ${o.export}` : ''}`,
        );
      }),
    );

  flaky
    .command('close-fixed')
    .description('close DISABLED issues whose tests pass in rerun-disabled runs, and stale ones')
    .option('--db <path>', 'results database', DEFAULT_DB)
    .option('--repo <owner/name>', 'repository (default: GITHUB_REPOSITORY)')
    .option('--window <n>', 'rerun-disabled runs considered', intOption('--window', 0), 30)
    .option(
      '--min-passes <n>',
      'passes needed, with no failure, to re-enable',
      intOption('--min-passes', 0),
      150,
    )
    .option('--dry-run', 'print what would be closed; write nothing')
    .option('--json', 'print the report as JSON')
    .action(
      async (o: {
        db: string;
        repo?: string;
        window: number;
        minPasses: number;
        dryRun?: boolean;
        json?: boolean;
      }) =>
        withBot(o, !o.dryRun, async (store, client, repo) => {
          const r = await closeFixed(store, client, {
            repo,
            window: o.window,
            minPasses: o.minPasses,
            dryRun: o.dryRun,
          });
          if (o.json) return console.log(JSON.stringify(r, null, 2));
          const verb = r.dryRun ? 'would close' : 'closed';
          for (const c of r.closed)
            console.log(`${verb} #${c.issue} ${c.key}: ${c.passes} passes, 0 failures in ${c.runs} rerun(s)`);
          for (const s of r.stale) console.log(`${verb} #${s.issue} ${s.key}: names no test (stale)`);
          for (const k of r.keptOpen)
            console.log(
              `open #${k.issue} ${k.key}: ${k.passes} passes, ${k.failures} failures in ${k.runs} rerun(s)`,
            );
          console.log(
            `${r.closed.length} re-enabled, ${r.stale.length} stale, ${r.keptOpen.length} still disabled`,
          );
        }),
    );

  flaky
    .command('list')
    .description('flake history ranked by flip score, with verdicts (flaky / broken / healthy)')
    .option('--db <path>', 'results database', DEFAULT_DB)
    .option('--window <n>', 'normal runs of history considered', intOption('--window', 0), 30)
    .option('--all', 'include healthy tests')
    .option('--json', 'print JSON')
    .action((o: { db: string; window: number; all?: boolean; json?: boolean }) => {
      const store = new ResultsStore(o.db);
      try {
        const stats = flakeStats(store, o.window, { healthy: o.all }).filter(
          (s) => o.all || s.verdict !== 'healthy',
        );
        if (o.json) return console.log(JSON.stringify(stats, null, 2));
        for (const s of stats)
          console.log(
            `${s.verdict.padEnd(7)} ${s.flipScore.toFixed(3)}  ${String(s.passes).padStart(3)} pass ${String(s.fails).padStart(3)} fail ${String(s.flakyRuns).padStart(3)} flaky  ${s.id}`,
          );
        console.log(
          `${stats.filter((s) => s.verdict === 'flaky').length} flaky, ${stats.filter((s) => s.verdict === 'broken').length} broken`,
        );
      } finally {
        store.close();
      }
    });
}
