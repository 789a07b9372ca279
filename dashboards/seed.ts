/**
 * A synthetic results database for trying the dashboards (`opgate dashboard demo`) and for their browser
 * tests and benchmark. It is built from the real matrix (real ids, skip/xfail rules and their reasons), through
 * the real store, with known events injected: a test that starts failing (its message carries HTML that must
 * render inert), flaky tests, quarantined tests, a shard still running, a perf regression, and a numerics drift
 * (one op's max ulp grows at the newest commit), and mutation runs (seed_mutation.ts).
 */
import {
  disabledMessage,
  expandMatrix,
  type ResultRow,
  ResultsStore,
  recordPerf,
  replaceDisabledTests,
  resultAxes,
  ruleMessage,
} from '../src/ci/index.ts';
import { type MutationFacts, seedMutationRuns } from './seed_mutation.ts';

export interface SeedOptions {
  readonly commits: number;
  readonly shards: number;
  readonly devices?: readonly string[];
  readonly ops?: readonly string[];
  /** At which commit (0 = oldest) the perf regression lands; default two thirds of the way. */
  readonly regressionAt?: number;
}

/** What was injected, so tests can look for it. */
export interface SeedFacts {
  readonly shas: readonly string[];
  readonly jobs: readonly string[];
  readonly failing: {
    readonly id: string;
    /** Its coverage cell: `op` and `device dtype`. */
    readonly op: string;
    readonly cell: string;
    readonly sha: string;
    readonly job: string;
    readonly message: string;
  };
  readonly flaky: readonly string[];
  readonly disabled: { readonly id: string; readonly issue: number };
  readonly skipped: {
    readonly op: string;
    readonly device: string;
    readonly dtype: string;
    readonly reason: string;
  } | null;
  readonly regression: { readonly scenario: string; readonly sha: string };
  /**
   * The numerics fingerprint cell whose max ulp drifts at the newest commit (it was `before` until then); null
   * with a single commit (nothing to drift from) or no floating reference instance.
   */
  readonly drift: {
    readonly op: string;
    readonly device: string;
    readonly dtype: string;
    readonly before: number;
    readonly now: number;
    readonly sha: string;
  } | null;
  readonly instances: number;
  readonly mutation: MutationFacts;
}

/** Markup that would run if the page ever rendered test output as HTML. */
export const XSS = `<img src=x onerror="window.__xss=1;alert(1)"><script>window.__xss=2;alert(2)</script>`;

/** The DISABLED issue the seed quarantines one test under. */
const QUARANTINE = { issueNumber: 77, issueUrl: 'https://github.com/opgate/opgate/issues/77' };

/** Floating dtypes, whose outputs have a max ulp. */
const FLOATING = /^(b?float|complex)/;

/** How much the seeded drift grows the drifting cell's max ulp by (well past the drift rule's slack). */
const DRIFT_ULP = 8;

const sha = (i: number) => (0x5eed0000 + i * 7919).toString(16).padStart(8, '0').repeat(5);
const hash = (s: string) => {
  let x = 2166136261;
  for (let i = 0; i < s.length; i++) x = Math.imul(x ^ s.charCodeAt(i), 16777619);
  return x >>> 0;
};

export function seedDemoDb(path: string, o: SeedOptions): SeedFacts {
  const devices = o.devices ?? ['cpu', 'meta', 'webgpu'];
  const insts = expandMatrix('pull', { op: o.ops, device: devices }).filter((i) =>
    devices.includes(i.device),
  );
  const shardOf = (id: string) => (hash(id) % o.shards) + 1;
  const passing = insts.filter((i) => !i.rule);
  const failing = passing.find((i) => i.device === devices[0]) ?? passing[0];
  const flaky = passing
    .filter((i) => i !== failing)
    .slice(3, 5)
    .map((i) => i.id);
  const disabled = passing[passing.length - 1];
  const skipRule = insts.find((i) => i.rule?.kind === 'skip');
  // The numerics fingerprint: until the golden oracle is in the matrix, the reference oracle's passing floating
  // results carry a max ulp, the same for every instance of a cell (0-3 ulps), so a half-finished run keeps its
  // cells' maxima. One instance (not in the job that is still running) drifts at the newest commit.
  const measured = (i: (typeof insts)[number]) => i.oracle === 'reference' && FLOATING.test(i.dtype);
  const cellUlp = (i: { op: string; device: string; dtype: string }) =>
    hash(`${i.op} ${i.device} ${i.dtype}`) % 4;
  const drifting =
    passing.find(
      (i) =>
        measured(i) &&
        i.device === devices[0] &&
        i.op !== failing.op &&
        i !== disabled &&
        !(i.device === devices.at(-1) && shardOf(i.id) === o.shards),
    ) ?? passing.find(measured);
  const shas = Array.from({ length: o.commits }, (_, i) => sha(i));
  const failFrom = Math.max(0, o.commits - 3);
  const disabledFrom = Math.floor(o.commits / 2);
  const message = `${failing.id}: sample #2 (broadcast) failed (seed 1234): mismatch at [0, 1]: got ${XSS}, expected 1\n  repro: npx opgate repro ${failing.id} --sample 2`;
  const regressionAt = o.regressionAt ?? Math.floor((o.commits * 2) / 3);
  const store = new ResultsStore(path);
  let mutation: MutationFacts;
  const t0 = Date.parse('2026-11-01T00:00:00Z');
  try {
    // Like CI's matrix: one run per (device, shard), each with its own --device filter.
    const jobs = devices.flatMap((device) =>
      Array.from({ length: o.shards }, (_, k) => ({ device, s: k + 1 })),
    );
    shas.forEach((commit, c) => {
      jobs.forEach(({ device, s }, j) => {
        // The newest commit's last job is still running, half-way through.
        const running = c === o.commits - 1 && j === jobs.length - 1;
        const runId = store.startRun({
          commitSha: commit,
          branch: 'main',
          platform: 'linux-x64 node20',
          shard: `${s}/${o.shards}`,
          tier: 'pull',
          filters: JSON.stringify({ device: [device], idsFile: `/tmp/opgate-${c}-${j}/ids.txt` }),
        });
        const mine = insts
          .filter((i) => i.device === device && shardOf(i.id) === s)
          .filter((_, k) => !running || k % 2 === 0);
        const rows: ResultRow[] = mine.map((i) => {
          const base = {
            ...resultAxes(i),
            attempts: 1,
            sample: null,
            seed: i.seed,
            checks: 1,
          };
          const durationMs = 5 + (hash(i.id + c) % 40) + (i.device === 'webgpu' ? 60 : 0);
          if (i.rule) return { ...base, status: i.rule.kind, durationMs, message: ruleMessage(i.rule) };
          // Only a passing oracle measures a max ulp (a failing one throws before it returns one).
          const ulp = measured(i)
            ? { maxUlp: cellUlp(i) + (i === drifting && c === o.commits - 1 ? DRIFT_ULP : 0) }
            : {};
          if (i === failing && c >= failFrom)
            return { ...base, status: 'fail', durationMs, message, sample: 2, seed: 1234 };
          if (i === disabled && c >= disabledFrom)
            return {
              ...base,
              status: 'skip',
              durationMs: 0,
              message: disabledMessage(QUARANTINE),
            };
          const k = flaky.indexOf(i.id);
          if (k >= 0 && (c + k) % (3 + k) === 0)
            return {
              ...base,
              status: 'flaky',
              durationMs,
              attempts: 2,
              message: `flaked: ${XSS} timed out waiting for the device`,
              ...ulp,
            };
          return { ...base, status: 'pass', durationMs, message: null, ...ulp };
        });
        store.addResults(runId, rows);
        const start = t0 + c * 3_600_000 + j * 2_000;
        const wall = rows.reduce((a, r) => a + r.durationMs, 0) + 5_000;
        store.patchRun(runId, {
          startedAt: new Date(start).toISOString(),
          endedAt: running ? null : new Date(start + wall).toISOString(),
          status: running ? 'running' : rows.some((r) => r.status === 'fail') ? 'failed' : 'passed',
        });
      });
    });
    replaceDisabledTests(store, [
      {
        key: disabled.id,
        issueNumber: QUARANTINE.issueNumber,
        issueUrl: QUARANTINE.issueUrl,
        platforms: ['linux'],
        updatedAt: '2026-11-20T00:00:00Z',
      },
      // An issue whose key (and so title) carries markup, and a link that must not become javascript:.
      {
        key: `test_reference_${XSS}_cpu`,
        issueNumber: 78,
        issueUrl: 'javascript:window.__xss=3',
        platforms: [],
        updatedAt: '2026-11-21T00:00:00Z',
      },
    ]);
    const perf = shas.flatMap((commit, c) => [
      {
        scenario: 'add_1elem',
        metric: 'instructions' as const,
        value: c >= regressionAt ? 13_100 : 12_000,
        commitSha: commit,
        platform: 'linux-x64',
        nodeVersion: '20',
      },
      {
        scenario: 'sum_1elem',
        metric: 'instructions' as const,
        value: 9_500,
        commitSha: commit,
        platform: 'linux-x64',
        nodeVersion: '20',
      },
      {
        scenario: 'add_1elem',
        metric: 'wall_us' as const,
        value: 3 + ((hash(commit) % 100) - 50) / 1000,
        commitSha: commit,
        platform: 'linux-x64',
        nodeVersion: '20',
      },
    ]);
    recordPerf(store, perf);
    mutation = seedMutationRuns(store, shas, XSS);
  } finally {
    store.close();
  }
  return {
    shas,
    jobs: [...new Set(insts.map((i) => `${shardOf(i.id)}/${o.shards} ${i.device}`))],
    failing: {
      id: failing.id,
      op: failing.op,
      cell: `${failing.device} ${failing.dtype}`,
      sha: shas[Math.max(0, shas.length - 2)],
      job: `${shardOf(failing.id)}/${o.shards} ${failing.device}`,
      message,
    },
    flaky,
    disabled: { id: disabled.id, issue: QUARANTINE.issueNumber },
    skipped: skipRule?.rule
      ? { op: skipRule.op, device: skipRule.device, dtype: skipRule.dtype, reason: skipRule.rule.reason }
      : null,
    regression: { scenario: 'add_1elem', sha: shas[Math.min(regressionAt, shas.length - 1)] },
    drift:
      drifting && shas.length > 1
        ? {
            op: drifting.op,
            device: drifting.device,
            dtype: drifting.dtype,
            before: cellUlp(drifting),
            now: cellUlp(drifting) + DRIFT_ULP,
            sha: shas[shas.length - 1],
          }
        : null,
    instances: insts.length,
    mutation,
  };
}
