/** `opgate perf check|accept|record|diff|history`: instruction-count baselines (valgrind callgrind). */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Command } from 'commander';
import { CiError } from '../errors.ts';
import {
  acceptBaseline,
  bundleRegion,
  changePoints,
  checkBaseline,
  failing,
  formatCheck,
  inclusiveByFunction,
  listScenarios,
  measure,
  perfDiff,
  perfHistory,
  readExpected,
  recordPerf,
  valgrindAvailable,
  writeExpected,
} from '../perf/index.ts';
import { PACKAGE_ROOT, PROJECT_ROOT } from '../run/root.ts';
import { DEFAULT_DB, ResultsStore } from '../store/store.ts';

const EXPECTED = join(PACKAGE_ROOT, 'bench/expected.json');
const platform = () => `${process.platform}-${process.arch} node${process.versions.node.split('.')[0]}`;
const list = (v: string, prev: string[] = []) => [...prev, ...v.split(',').filter(Boolean)];
const commit = () => {
  try {
    return (
      process.env.GITHUB_SHA ??
      execFileSync('git', ['rev-parse', 'HEAD'], { cwd: PROJECT_ROOT, encoding: 'utf8' }).trim()
    );
  } catch {
    return 'unknown';
  }
};

/** Where the committed counts are: --expected, else beside a project's --scenarios file, else opgate's own. */
const expectedPath = (o: { expected?: string; scenarios?: string }) =>
  o.expected ?? (o.scenarios ? join(dirname(o.scenarios), 'expected.json') : EXPECTED);

/** Per-iteration instruction counts of the chosen scenarios (all by default; a project's with --scenarios). */
async function countAll(
  names: readonly string[] | undefined,
  log: (s: string) => void,
  scenariosFile?: string,
) {
  // The scenarios first: a missing file is the user's to fix before anything else.
  const bundle = bundleRegion(PACKAGE_ROOT, scenariosFile);
  if (!valgrindAvailable())
    throw new CiError(
      'E_TOOL_MISSING',
      'valgrind is not installed (apt-get install valgrind; .ci/run installs it)',
    );
  const known = listScenarios(bundle);
  const chosen = names?.length
    ? names.map((n) => {
        const s = known.find((x) => x.name === n);
        if (!s)
          throw new CiError(
            'E_UNKNOWN_NAME',
            `unknown scenario '${n}' (known: ${known.map((x) => x.name).join(', ')})`,
          );
        return s;
      })
    : known;
  const counts = [];
  for (const s of chosen) {
    const m = await measure(bundle, s.name, s.k);
    log(
      `  ${s.name}: ${m.perIteration.toFixed(1)} instructions per iteration (K=${s.k}: ${m.countK}, 2K: ${m.count2K})`,
    );
    counts.push(m);
  }
  return counts;
}

/** Stores per-iteration counts (with per-function inclusive counts) for this commit; returns the commit. */
function storeCounts(db: string, counts: Awaited<ReturnType<typeof countAll>>): string {
  const store = new ResultsStore(db);
  const sha = commit();
  try {
    recordPerf(
      store,
      counts.map((c) => ({
        scenario: c.scenario,
        metric: 'instructions' as const,
        value: c.perIteration,
        commitSha: sha,
        platform: platform(),
        nodeVersion: process.versions.node,
        detail: inclusiveByFunction(c.profile),
      })),
    );
  } finally {
    store.close();
  }
  return sha;
}

export function registerPerfCommands(program: Command): void {
  const perf = program.command('perf').description('instruction-count perf baselines (valgrind callgrind)');
  perf
    .command('check')
    .description(
      'count instructions and compare with bench/expected.json: fails on a regression or an unexplained win',
    )
    .option('--scenario <names>', 'only these scenarios (comma-separated)', list)
    .option(
      '--scenarios <file>',
      "a project's perf scenarios (a module whose default export is PerfScenario[]) instead of opgate's own",
    )
    .option(
      '--expected <path>',
      'baseline file (default: expected.json beside --scenarios, or bench/expected.json)',
    )
    .option('--record <db>', 'also store the counts for this commit (the perf history the dashboards chart)')
    .option('--json', 'print JSON')
    .action(
      async (opts: {
        scenario?: string[];
        scenarios?: string;
        expected?: string;
        record?: string;
        json?: boolean;
      }) => {
        const o = { ...opts, expected: expectedPath(opts) };
        const counts = await countAll(o.scenario, o.json ? () => {} : console.error, o.scenarios);
        // Recorded before the verdict: a regressing commit's counts are exactly what the history must show.
        if (o.record) storeCounts(o.record, counts);
        const measured = Object.fromEntries(counts.map((c) => [c.scenario, c.perIteration]));
        const expected = existsSync(o.expected)
          ? readExpected(o.expected)
          : { platform: platform(), scenarios: {} };
        const rows = checkBaseline(expected, measured);
        const bad = failing(rows);
        if (o.json) console.log(JSON.stringify({ rows, failing: bad.length }, null, 2));
        else {
          console.log(formatCheck(rows));
          if (bad.length) {
            console.log(
              `\n${bad.length} scenario(s) outside the margin. If intended, commit this as ${o.expected} (or run \`opgate perf accept\`):\n`,
            );
            console.log(JSON.stringify(acceptBaseline(expected, measured, platform()), null, 2));
          }
        }
        process.exitCode = bad.length ? 1 : 0;
      },
    );
  perf
    .command('accept')
    .description('count instructions and rewrite bench/expected.json with them')
    .option('--scenario <names>', 'only these scenarios (comma-separated)', list)
    .option(
      '--scenarios <file>',
      "a project's perf scenarios (a module whose default export is PerfScenario[]) instead of opgate's own",
    )
    .option(
      '--expected <path>',
      'baseline file (default: expected.json beside --scenarios, or bench/expected.json)',
    )
    .action(async (opts: { scenario?: string[]; scenarios?: string; expected?: string }) => {
      const o = { ...opts, expected: expectedPath(opts) };
      const counts = await countAll(o.scenario, console.error, o.scenarios);
      const prev = existsSync(o.expected) ? readExpected(o.expected) : null;
      writeExpected(
        o.expected,
        acceptBaseline(prev, Object.fromEntries(counts.map((c) => [c.scenario, c.perIteration])), platform()),
      );
      console.log(`wrote ${o.expected}`);
    });
  perf
    .command('record')
    .description('count instructions and store them (with per-function inclusive counts) for this commit')
    .option('--scenario <names>', 'only these scenarios (comma-separated)', list)
    .option(
      '--scenarios <file>',
      "a project's perf scenarios (a module whose default export is PerfScenario[]) instead of opgate's own",
    )
    .option('--db <path>', 'results database', DEFAULT_DB)
    .action(async (o: { scenario?: string[]; scenarios?: string; db: string }) => {
      const counts = await countAll(o.scenario, console.error, o.scenarios);
      const sha = storeCounts(o.db, counts);
      console.log(`recorded ${counts.length} scenario(s) for ${sha.slice(0, 12)} in ${o.db}`);
    });
  perf
    .command('diff <scenario> <commitA> <commitB>')
    .description("which functions' inclusive instruction counts changed between two recorded commits")
    .option('--db <path>', 'results database', DEFAULT_DB)
    .action((name: string, a: string, b: string, o: { db: string }) => {
      const store = new ResultsStore(o.db);
      const rows = perfDiff(store, name, a, b);
      store.close();
      for (const r of rows.slice(0, 30))
        console.log(`${r.delta >= 0 ? '+' : ''}${r.delta}`.padStart(14), `${r.a} -> ${r.b}`.padEnd(28), r.fn);
    });
  perf
    .command('history <scenario>')
    .description('the recorded instruction counts over commits, with change points')
    .option('--db <path>', 'results database', DEFAULT_DB)
    .action((name: string, o: { db: string }) => {
      const store = new ResultsStore(o.db);
      const h = perfHistory(store, name, 'instructions');
      store.close();
      const cps = changePoints(h.map((x) => x.value));
      for (const [i, x] of h.entries()) {
        const cp = cps.find((c) => c.index === i);
        console.log(
          `${x.commit.slice(0, 12)}  ${x.value.toFixed(1).padStart(14)}${cp ? `  <- ${cp.state} (${(cp.relative * 100).toFixed(2)}%)` : ''}`,
        );
      }
    });
}
