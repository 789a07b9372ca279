/**
 * The results store's own cost, for the durability figures in docs/store.md: a run of the pull tier's size written the
 * way the reporter writes it (a start with its plan, one commit per batch, the end), and the checks an opener
 * makes on an existing file (quick_check, the runs rows) by file size. Wall-clock figures, informational.
 *   npx tsx bench/store.bench.ts [--results 32664] [--batch 40] [--rounds 5] [--json]
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expandMatrix, type ResultRow, ResultsStore, resultAxes } from '../src/ci/index.ts';

const args = process.argv.slice(2);
const arg = (name: string, d: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : d);
const json = args.includes('--json');
const total = arg('--results', 32_664);
const batch = arg('--batch', 40);
const rounds = arg('--rounds', 5);

const instances = expandMatrix('full').slice(0, total);
const rows: ResultRow[] = instances.map((i) => ({
  ...resultAxes(i),
  status: 'pass',
  durationMs: 1.5,
  attempts: 1,
  message: null,
  sample: null,
  seed: i.seed,
  checks: 4,
}));
const info = { commitSha: 'bench', branch: 'main', platform: 'bench', tier: 'full' };

/** One run into `path`: open, start (with its plan), commits of `batch` rows, end, close. */
function writeRun(path: string): { openMs: number; startMs: number; commitsMs: number; endMs: number } {
  let t = performance.now();
  const s = new ResultsStore(path);
  const openMs = performance.now() - t;
  t = performance.now();
  const run = s.startRun(
    info,
    rows.map((r) => r.id),
  );
  const startMs = performance.now() - t;
  t = performance.now();
  for (let k = 0; k < rows.length; k += batch) s.addResults(run, rows.slice(k, k + batch));
  const commitsMs = performance.now() - t;
  t = performance.now();
  s.endRun(run, 'passed');
  s.close();
  return { openMs, startMs, commitsMs, endMs: performance.now() - t };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const dir = mkdtempSync(join(tmpdir(), 'opgate-store-bench-'));
const fresh: ReturnType<typeof writeRun>[] = [];
for (let r = 0; r < rounds; r++) fresh.push(writeRun(join(dir, `fresh-${r}.db`)));
const out: Record<string, unknown> = {
  results: rows.length,
  batch,
  commits: Math.ceil(rows.length / batch),
  freshRun: {
    openMs: median(fresh.map((x) => x.openMs)),
    startMs: median(fresh.map((x) => x.startMs)),
    commitsMs: median(fresh.map((x) => x.commitsMs)),
    perCommitUs: (median(fresh.map((x) => x.commitsMs)) / Math.ceil(rows.length / batch)) * 1000,
    endMs: median(fresh.map((x) => x.endMs)),
  },
};
// Opening a file that already holds history: its checks grow with its size.
const history = join(dir, 'history.db');
const opens: { runs: number; mb: number; openMs: number }[] = [];
for (let n = 1; n <= 8; n *= 2) {
  while (countRuns(history) < n) writeRun(history);
  const ms: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t = performance.now();
    new ResultsStore(history).close();
    ms.push(performance.now() - t);
  }
  opens.push({ runs: n, mb: Math.round(statSync(history).size / 1e5) / 10, openMs: median(ms) });
}
out.openExisting = opens;
rmSync(dir, { recursive: true, force: true });

function countRuns(path: string): number {
  const s = new ResultsStore(path);
  try {
    return s.runs().length;
  } finally {
    s.close();
  }
}

if (json) console.log(JSON.stringify(out, null, 2));
else {
  const f = out.freshRun as Record<string, number>;
  console.log(
    `a run of ${rows.length} results in ${out.commits} commits of ${batch}: open ${f.openMs.toFixed(1)} ms, start ${f.startMs.toFixed(1)} ms, commits ${f.commitsMs.toFixed(0)} ms (${f.perCommitUs.toFixed(0)} us each), end ${f.endMs.toFixed(1)} ms (median of ${rounds})`,
  );
  for (const o of opens)
    console.log(`open an existing file of ${o.runs} run(s), ${o.mb} MB: ${o.openMs.toFixed(1)} ms`);
}
