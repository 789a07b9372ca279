/**
 * The demo database's mutation runs (`opgate mutate`, --per-oracle): a fixed catalogue of realistic one-line
 * mutants of the runtime, run at a few of the seeded commits. Kills have one row per killing oracle, so some
 * mutants have several killers and one has only 'golden'; one gap (a narrowed accumulator only the golden
 * oracle notices) survives the older runs and is killed from the third run on, so the score rises. A survivor's
 * line carries markup that must render as text.
 */
import {
  beginMutationRun,
  endMutationRun,
  insertMutant,
  type MutantOutcome,
  type MutantRow,
  mutationScore,
  type ResultsStore,
} from '../src/ci/index.ts';

interface SeedMutant {
  readonly file: string;
  readonly line: number;
  readonly operator: string;
  readonly original: string;
  readonly mutated: string;
  readonly outcome: MutantOutcome;
  /** Its kill rows in the newest run, the first killer first; an op for the failing test ids. */
  readonly killers?: readonly string[];
  readonly op?: string;
  readonly reason?: string;
  /** The run (0 = oldest) from which it is killed; it survived the runs before (a gap closed then). */
  readonly since?: number;
}

export interface MutationFacts {
  readonly runs: number;
  /** The newest run's commit and score. */
  readonly sha: string;
  readonly score: ReturnType<typeof mutationScore>;
  /** The newest run's kill matrix: killer -> operator -> mutants with its kill row. */
  readonly kills: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** Per killer, the mutants whose only kill row is its. */
  readonly only: Readonly<Record<string, number>>;
  /** A mutant only 'golden' kills, and one with several killers. */
  readonly onlyGolden: string;
  readonly multiKilled: { readonly mutantId: string; readonly killers: readonly string[] };
  /** The survivor whose line carries markup, and an equivalent. */
  readonly survivor: {
    readonly mutantId: string;
    readonly file: string;
    readonly line: number;
    readonly original: string;
    readonly mutated: string;
  };
  readonly equivalent: { readonly mutantId: string; readonly reason: string };
}

const R = 'src/runtime/';

function catalogue(xss: string): SeedMutant[] {
  return [
    {
      file: `${R}core/shape.ts`,
      line: 64,
      operator: 'swap-comparison',
      original: '  if (!Number.isInteger(dim) || dim < -n || dim >= n) {',
      mutated: '  if (!Number.isInteger(dim) || dim < -n || dim > n) {',
      outcome: 'killed',
      killers: ['errors', 'unit'],
      op: 'sum',
    },
    {
      file: `${R}backends/cpu/iterator.ts`,
      line: 88,
      operator: 'drop-offset',
      original: '    const base = t.offset + i * t.strides[d];',
      mutated: '    const base = i * t.strides[d];',
      outcome: 'killed',
      killers: ['reference', 'crossbackend', 'golden'],
      op: 'add',
    },
    {
      file: `${R}ops/reductions/reductions.ts`,
      line: 54,
      operator: 'narrow-accumulator',
      original: '  const acc = new Float64Array(outNumel);',
      mutated: '  const acc = new Float32Array(outNumel);',
      outcome: 'killed',
      killers: ['golden'],
      op: 'sum',
      since: 2,
    },
    {
      file: `${R}ops/reductions/moments.ts`,
      line: 41,
      operator: 'remove-correction',
      original: '  const denom = Math.max(0, n - correction);',
      mutated: '  const denom = Math.max(0, n);',
      outcome: 'killed',
      killers: ['reference', 'golden'],
      op: 'var',
    },
    {
      file: `${R}autograd/derivatives/reductions.ts`,
      line: 30,
      operator: 'negate-derivative',
      original: '    return [grad.mul(result)];',
      mutated: '    return [grad.mul(result).neg()];',
      outcome: 'killed',
      killers: ['gradcheck', 'gradgradcheck'],
      op: 'exp',
    },
    {
      file: `${R}autograd/derivatives/linalg.ts`,
      line: 77,
      operator: 'negate-derivative',
      original: '  const gradA = grad.matmul(b.mT);',
      mutated: '  const gradA = grad.matmul(b.mT).neg();',
      outcome: 'killed',
      killers: ['gradcheck'],
      op: 'matmul',
    },
    {
      file: `${R}core/promotion.ts`,
      line: 19,
      operator: 'promotion-entry',
      original:
        'const FLOAT_RANK: Partial<Record<DType, number>> = { float16: 1, bfloat16: 1, float32: 2, float64: 3 };',
      mutated:
        'const FLOAT_RANK: Partial<Record<DType, number>> = { float16: 1, bfloat16: 2, float32: 2, float64: 3 };',
      outcome: 'killed',
      killers: ['dtypes', 'metadata'],
      op: 'add',
    },
    {
      file: `${R}ops/pointwise/rounding/rounding.ts`,
      line: 22,
      operator: 'round-toward-zero',
      original: '  floor_divide: (x, y) => Math.floor(x / y),',
      mutated: '  floor_divide: (x, y) => Math.trunc(x / y),',
      outcome: 'killed',
      killers: ['reference', 'golden', 'unit'],
      op: 'floor_divide',
    },
    {
      file: `${R}compile/guards.ts`,
      line: 41,
      operator: 'drop-guard',
      original: '    if (t.dtype !== g.dtype) return false;',
      mutated: '',
      outcome: 'killed',
      killers: ['compile'],
      op: 'add',
    },
    {
      file: `${R}ops/sort_search/sorting.ts`,
      line: 112,
      operator: 'swap-comparison',
      original: '    if (a < b) return -1;',
      mutated: '    if (a <= b) return -1;',
      outcome: 'survived',
      reason: 'selected 18 matrix instances and 2 unit tests; all passed (no sample has equal keys)',
    },
    {
      file: `${R}api/readback.ts`,
      line: 57,
      operator: 'swap-comparison',
      original: `    if (s.length > limit) return '${xss}';`,
      mutated: `    if (s.length >= limit) return '${xss}';`,
      outcome: 'survived',
      reason: 'no matrix instance reaches it (target determination selected 0 instances)',
    },
    {
      file: `${R}ops/factories/factories.ts`,
      line: 96,
      operator: 'drop-guard',
      original: '  if (n === 0) return out;',
      mutated: '',
      outcome: 'survived',
      reason: 'selected 40 matrix instances; all passed (no empty sample)',
    },
    {
      file: `${R}ops/factories/factories.ts`,
      line: 131,
      operator: 'drop-guard',
      original: "  if (step === 0) throw new RangeError('arange: step must be nonzero');",
      mutated: '',
      outcome: 'timeout',
      reason: 'exceeded 120 s: arange with step 0 never ends',
    },
    {
      file: `${R}backends/cpu/iterator.ts`,
      line: 16,
      operator: 'swap-comparison',
      original: '  for (let i = shape.length - 1; i >= 0; i--) {',
      mutated: '  for (let i = shape.length - 1; i > -1; i--) {',
      outcome: 'equivalent',
      reason: 'i is an integer: i >= 0 and i > -1 are the same test',
    },
    {
      file: `${R}ops/reductions/reductions_stats.ts`,
      line: 71,
      operator: 'narrow-accumulator',
      original: '  const counts = new Float64Array(groups);',
      mutated: '  const counts = new Float32Array(groups);',
      outcome: 'equivalent',
      reason: 'counts stay below 2**24, exact in float32',
    },
  ];
}

const idOf = (m: SeedMutant) => `${m.file.replace(/^.*\//, '')}:${m.line}:${m.operator}`;

/** The mutant as run `k` of `runs` saw it: a gap closed at `since` survived the runs before. */
function asRun(m: SeedMutant, k: number, runs: number): MutantRow {
  const closed = m.since === undefined || k >= Math.min(m.since, runs - 1);
  const killers = closed ? (m.killers ?? []) : [];
  const outcome = closed ? m.outcome : 'survived';
  return {
    mutantId: idOf(m),
    file: m.file,
    line: m.line,
    operator: m.operator,
    original: m.original,
    mutated: m.mutated,
    outcome,
    killedBy: killers[0] ?? null,
    reason: closed ? (m.reason ?? null) : 'selected 24 matrix instances; all passed',
    selected: 24,
    ran: 24,
    durationMs: 1500 + m.line * 10,
    kills: killers.map((killer) => ({
      killer,
      testId:
        killer === 'unit'
          ? `tests/unit/${m.file.replace(/^.*\/|\.ts$/g, '')}.test.ts > ${m.operator}`
          : `test_${killer}_${m.op}_cpu_float32_contiguous_eager`,
      message: `${killer} failed on mutant ${idOf(m)}`,
    })),
  };
}

/** Mutation runs at up to 4 of the commits, evenly spaced, the newest at the newest commit. */
export function seedMutationRuns(store: ResultsStore, shas: readonly string[], xss: string): MutationFacts {
  const all = catalogue(xss);
  const runs = Math.min(4, shas.length);
  for (let k = 0; k < runs; k++) {
    const sha = shas[runs === 1 ? shas.length - 1 : Math.round((k * (shas.length - 1)) / (runs - 1))];
    const id = beginMutationRun(store, {
      commitSha: sha,
      branch: 'main',
      mode: 'sample',
      args: { perOracle: true, seed: k },
    });
    for (const m of all) insertMutant(store, id, asRun(m, k, runs));
    endMutationRun(store, id);
  }
  const newest = all.map((m) => asRun(m, runs - 1, runs));
  const kills: Record<string, Record<string, number>> = {};
  const only: Record<string, number> = {};
  for (const m of newest)
    for (const k of m.kills) {
      kills[k.killer] ??= {};
      kills[k.killer][m.operator] = (kills[k.killer][m.operator] ?? 0) + 1;
      only[k.killer] = (only[k.killer] ?? 0) + (m.kills.length === 1 ? 1 : 0);
    }
  const survivor = newest.find((m) => m.outcome === 'survived' && m.original.includes(xss)) as MutantRow;
  const equivalent = newest.find((m) => m.outcome === 'equivalent') as MutantRow;
  const multi = newest.find((m) => m.kills.length > 2) as MutantRow;
  return {
    runs,
    sha: shas[shas.length - 1],
    score: mutationScore(newest.map((m) => m.outcome)),
    kills,
    only,
    onlyGolden: (newest.find((m) => m.kills.length === 1 && m.killedBy === 'golden') as MutantRow).mutantId,
    multiKilled: { mutantId: multi.mutantId, killers: multi.kills.map((k) => k.killer) },
    survivor: {
      mutantId: survivor.mutantId,
      file: survivor.file,
      line: survivor.line,
      original: survivor.original,
      mutated: survivor.mutated,
    },
    equivalent: { mutantId: equivalent.mutantId, reason: equivalent.reason ?? '' },
  };
}
