/**
 * A synthetic CI history for bench:history, written through the store's own code (ResultsStore, insertPerf): one
 * full-tier run per commit, five commits a day, about 1.5% failing (a fixed set of broken instances plus a few
 * random failures a run), 0.5% flaky (random each run, failed then passed), skips and xfails where op_db's rules
 * put them, durations around a per-instance base (log-uniform over three orders of magnitude, autograd oracles
 * slower), a max ulp on golden instances, and ten perf samples per commit. Deterministic for a seed.
 */
import {
  expandMatrix,
  type MatrixInstance,
  type ResultRow,
  ResultsStore,
  recordPerf,
  resultAxes,
  type Tier,
} from '../src/ci/index.ts';

const DAY_MS = 86_400_000;
const T0 = Date.parse('2026-01-01T00:00:00Z');

/** A small deterministic hash of a string (FNV-1a). */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** mulberry32. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const shaOf = (k: number): string => hash(`commit ${k}`).toString(16).padStart(8, '0').repeat(5);

const MESSAGES = [
  'AssertionError: reference: sample 3: max abs diff 0.0125 > atol 1e-05 + rtol 1.3e-06',
  'AssertionError: golden: sample 1: dtype float32 != float64',
  'E_SHAPE_MISMATCH: add: argument other: got [3, 1], expected broadcastable to [2, 3]',
  'Error: gradcheck: sample 0: analytical and numerical jacobians differ at (1, 2)',
];

export interface Synth {
  readonly instances: readonly MatrixInstance[];
  /** Writes runs `from` (0-based) up to `to` (exclusive) into `path`. */
  write(path: string, from: number, to: number): void;
}

export function synthesizer(tier: Tier = 'full', seed = 1): Synth {
  const instances = expandMatrix(tier);
  const base = instances.map((i) => {
    const u = (hash(i.id) % 10_000) / 10_000;
    return (Math.exp(u * 7) / 20) * (i.oracle.startsWith('grad') ? 20 : 1);
  });
  const broken = new Set(instances.filter((i) => hash(`broken ${i.id}`) % 1000 < 10).map((i) => i.id));
  const rowsOf = (k: number): ResultRow[] => {
    const r = rng(seed * 100_003 + k);
    return instances.map((i, n) => {
      const u = r();
      const rule = i.rule?.kind;
      let status: ResultRow['status'] = 'pass';
      let message: string | null = null;
      let attempts = 1;
      if (i.rule && (rule === 'skip' || rule === 'xfail')) {
        status = rule;
        message = i.rule.reason;
      } else if (broken.has(i.id) || u < 0.005) {
        status = 'fail';
        message = MESSAGES[hash(i.id) % MESSAGES.length];
        attempts = 3;
      } else if (u < 0.01) {
        status = 'flaky';
        message = MESSAGES[hash(i.id) % MESSAGES.length];
        attempts = 2;
      }
      return {
        ...resultAxes(i),
        status,
        durationMs: status === 'skip' ? 0 : Math.round(base[n] * (0.8 + 0.4 * r()) * 1000) / 1000,
        attempts,
        message,
        sample: status === 'fail' ? 3 : null,
        seed: i.seed,
        checks: status === 'skip' ? 0 : 4,
        maxUlp: i.oracle === 'golden' && status !== 'skip' ? Math.floor(r() * 4) : null,
      };
    });
  };
  return {
    instances,
    write(path, from, to) {
      const s = new ResultsStore(path);
      try {
        for (let k = from; k < to; k++) {
          const sha = shaOf(k);
          const at = T0 + k * (DAY_MS / 5);
          const run = s.startRun({ commitSha: sha, branch: 'main', platform: 'linux-x64 node20', tier });
          const rows = rowsOf(k);
          for (let b = 0; b < rows.length; b += 10_000) s.addResults(run, rows.slice(b, b + 10_000));
          s.endRun(run, rows.some((x) => x.status === 'fail') ? 'failed' : 'passed');
          const minutes = rows.reduce((t, x) => t + x.durationMs, 0) / 60_000;
          s.patchRun(run, {
            startedAt: new Date(at).toISOString(),
            endedAt: new Date(at + minutes * 60_000).toISOString(),
            heartbeatAt: new Date(at + minutes * 60_000).toISOString(),
          });
          const r = rng(seed + k);
          recordPerf(
            s,
            Array.from({ length: 10 }, (_, j) => ({
              scenario: `scenario_${j}`,
              metric: 'instructions' as const,
              value: Math.round(10_000 * (j + 1) * (1 + 0.001 * r())),
              commitSha: sha,
              platform: 'linux-x64',
              nodeVersion: '20',
            })),
          );
        }
      } finally {
        s.close();
      }
    },
  };
}
