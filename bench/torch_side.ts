/**
 * The pure parts of `npm run bench:torch` (bench/torch.bench.ts): the cases and their targets, the statistics
 * (minimum over rounds of each round's median), the JSON-lines protocol with bench/torch_cases.py, the markdown
 * table and the perf-history samples (scenario `torch_side/<case>`, metrics wall_us, torch_wall_us and ratio).
 */
import { type PerfSample, ResultsStore, recordPerf } from '../src/ci/index.ts';

export interface CaseInfo {
  readonly id: string;
  readonly label: string;
  /** How the table prints the time. */
  readonly unit: 'us' | 'ms';
  /** The ratio opgate/torch this case should stay within: 1.5x for the bandwidth-bound cases and the eager add, 2x else. */
  readonly target: number;
}

export const CASES: readonly CaseInfo[] = [
  { id: 'add_1elem', label: 'add, 1 element (eager overhead)', unit: 'us', target: 1.5 },
  { id: 'add_1m', label: 'add 1M float32', unit: 'ms', target: 1.5 },
  { id: 'add_t_1024', label: 'add 1024² transposed + contiguous', unit: 'ms', target: 1.5 },
  { id: 'sum_1024', label: 'sum 1024²', unit: 'ms', target: 1.5 },
  { id: 'softmax_1024', label: 'softmax 1024² (dim -1)', unit: 'ms', target: 2 },
  { id: 'matmul_256', label: 'matmul 256² float32', unit: 'ms', target: 2 },
  { id: 'autograd_1elem', label: 'mul + sum + backward, 1 element', unit: 'us', target: 2 },
  // Reductions beyond the cases: over the outer dim (the column kernels) and the arg reductions.
  { id: 'sum_dim0_1024', label: 'sum 1024² over dim 0', unit: 'ms', target: 2 },
  { id: 'amax_dim0_1024', label: 'amax 1024² over dim 0', unit: 'ms', target: 2 },
  { id: 'argmax_1024', label: 'argmax 1024² (flattened)', unit: 'ms', target: 2 },
  { id: 'argmax_dim1_1024', label: 'argmax 1024² over dim 1', unit: 'ms', target: 2 },
];

export const SCENARIO_PREFIX = 'torch_side/';

export interface Settings {
  readonly rounds: number;
  readonly samples: number;
  /** A batch is sized so one sample takes at least this long. */
  readonly minSampleMs: number;
}

export const DEFAULTS: Settings = { rounds: 3, samples: 15, minSampleMs: 5 };

export function methodology(s: Settings, withTorch = true): string {
  const rounds = withTorch
    ? `R=${s.rounds} interleaved rounds (an opgate round, then a torch round, alternating, so machine load hits both)`
    : `R=${s.rounds} rounds`;
  return (
    `Each figure is the minimum over ${rounds} of the median of ${s.samples} samples; a sample is the mean time ` +
    `per call over a batch sized so it takes >= ${s.minSampleMs} ms (after warm-up).` +
    (withTorch ? ' torch runs with torch.set_num_threads(1).' : '')
  );
}

// --- statistics ---

export function median(xs: readonly number[]): number {
  if (xs.length === 0) throw new Error('median of no samples');
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Each round's median, then the smallest: the round least disturbed by the machine. */
export function minOfMedians(rounds: readonly (readonly number[])[]): number {
  if (rounds.length === 0) throw new Error('no rounds');
  return Math.min(...rounds.map(median));
}

// --- the line protocol with bench/torch_cases.py ---

export interface RunRequest extends Pick<Settings, 'samples' | 'minSampleMs'> {
  readonly op: 'run';
  readonly case: string;
  readonly round: number;
}

export type Request = RunRequest | { readonly op: 'quit' };

export type Reply =
  | { readonly kind: 'hello'; readonly version: string; readonly threads: number }
  | {
      readonly kind: 'samples';
      readonly case: string;
      readonly round: number;
      readonly batch: number;
      readonly samples: readonly number[];
    }
  | { readonly kind: 'error'; readonly message: string };

export const encodeRequest = (r: Request): string => `${JSON.stringify(r)}\n`;

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** One line from the child; throws on anything that is not a well-formed reply. */
export function parseReply(line: string): Reply {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    throw new Error(`torch child: not a JSON line: ${line.slice(0, 200)}`);
  }
  const o = (typeof v === 'object' && v !== null ? v : {}) as Record<string, unknown>;
  if (typeof o.error === 'string') return { kind: 'error', message: o.error };
  if (o.hello === 'torch' && typeof o.version === 'string' && isNum(o.threads))
    return { kind: 'hello', version: o.version, threads: o.threads };
  if (
    typeof o.case === 'string' &&
    isNum(o.round) &&
    isNum(o.batch) &&
    Array.isArray(o.samples) &&
    o.samples.length > 0 &&
    o.samples.every(isNum)
  )
    return { kind: 'samples', case: o.case, round: o.round, batch: o.batch, samples: o.samples };
  throw new Error(`torch child: unexpected reply: ${line.slice(0, 200)}`);
}

// --- figures and the table ---

export interface Figures {
  readonly id: string;
  /** Per round, the samples (µs per call). */
  readonly opgate: readonly (readonly number[])[];
  readonly torch: readonly (readonly number[])[] | null;
  readonly batch: { readonly opgate: number; readonly torch: number | null };
}

export interface Row extends CaseInfo {
  readonly opgateUs: number;
  readonly torchUs: number | null;
  readonly ratio: number | null;
  readonly within: boolean | null;
  readonly batch: Figures['batch'];
  readonly opgateMedians: readonly number[];
  readonly torchMedians: readonly number[] | null;
}

export function caseInfo(id: string): CaseInfo {
  const c = CASES.find((x) => x.id === id);
  if (!c) throw new Error(`unknown case '${id}' (known: ${CASES.map((x) => x.id).join(', ')})`);
  return c;
}

export function toRow(f: Figures): Row {
  const info = caseInfo(f.id);
  const opgateUs = minOfMedians(f.opgate);
  const torchUs = f.torch ? minOfMedians(f.torch) : null;
  const ratio = torchUs === null ? null : opgateUs / torchUs;
  return {
    ...info,
    opgateUs,
    torchUs,
    ratio,
    within: ratio === null ? null : ratio <= info.target,
    batch: f.batch,
    opgateMedians: f.opgate.map(median),
    torchMedians: f.torch ? f.torch.map(median) : null,
  };
}

const sig = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));

export function formatTime(us: number | null, unit: CaseInfo['unit']): string {
  if (us === null) return '—';
  return unit === 'us' ? `${sig(us)} µs` : `${(us / 1000).toFixed(3)} ms`;
}

export const formatRatio = (r: number | null): string => (r === null ? '—' : `${r.toFixed(2)}x`);

/** "PyTorch 1.13" from "1.13.0a0". */
export const torchLabel = (version: string | null): string =>
  `PyTorch ${version ? version.split('.').slice(0, 2).join('.') : '1.13'}`;

export function renderTable(rows: readonly Row[], torchVersion: string | null): string {
  const head = ['case', torchLabel(torchVersion), 'opgate', 'ratio (opgate/torch)', 'target', 'within?'];
  const body = rows.map((r) => [
    r.label,
    formatTime(r.torchUs, r.unit),
    formatTime(r.opgateUs, r.unit),
    formatRatio(r.ratio),
    `${r.target}x`,
    r.within === null ? '—' : r.within ? 'yes' : 'no',
  ]);
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...body.map(line)].join('\n');
}

// --- the perf history ---

export interface RecordMeta {
  readonly commitSha: string;
  readonly platform: string;
  readonly nodeVersion: string;
  readonly settings: Settings;
}

/** Per case: opgate's wall_us, and where torch ran its torch_wall_us and the ratio (with the target). */
export function perfSamplesOf(rows: readonly Row[], meta: RecordMeta): PerfSample[] {
  const { rounds, samples, minSampleMs } = meta.settings;
  const base = { commitSha: meta.commitSha, platform: meta.platform, nodeVersion: meta.nodeVersion };
  return rows.flatMap((r): PerfSample[] => {
    const scenario = `${SCENARIO_PREFIX}${r.id}`;
    const method = { rounds, samples, minSampleMs };
    const out: PerfSample[] = [
      {
        ...base,
        scenario,
        metric: 'wall_us',
        value: r.opgateUs,
        detail: { ...method, batch: r.batch.opgate },
      },
    ];
    if (r.torchUs !== null && r.ratio !== null)
      out.push(
        {
          ...base,
          scenario,
          metric: 'torch_wall_us',
          value: r.torchUs,
          detail: { ...method, batch: r.batch.torch ?? 0 },
        },
        { ...base, scenario, metric: 'ratio', value: r.ratio, detail: { target: r.target } },
      );
    return out;
  });
}

/** Appends the samples to the results store at `path` (created and migrated if need be); returns the count. */
export function recordFigures(path: string, rows: readonly Row[], meta: RecordMeta): number {
  const samples = perfSamplesOf(rows, meta);
  const store = new ResultsStore(path);
  try {
    recordPerf(store, samples);
  } finally {
    store.close();
  }
  return samples.length;
}
