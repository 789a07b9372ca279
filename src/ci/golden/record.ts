/**
 * `opgate golden record|check`: serialises every op_db sample the golden oracle checks (each claimed cpu dtype ×
 * every layout, error inputs, float64 gradient samples), runs them through real PyTorch 1.13 with
 * tools/golden/record.py, and writes one deterministic golden file per op. `check` records into a scratch
 * directory and reports every op whose goldens differ from the committed ones (drift).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LAYOUTS, type OpInfo, ruleMatches } from '../../../op_db/index.ts';
import {
  blobKey,
  GOLDEN_DIR,
  GOLDEN_FORMAT,
  type GoldenEntry,
  type GoldenFile,
  goldenPath,
  goldenRequests,
  readGolden,
  writeGolden,
} from '../../oracles/index.ts';
import { CiError } from '../errors.ts';
import { PACKAGE_ROOT } from '../run/root.ts';

export const RECORD_SCRIPT = join(PACKAGE_ROOT, 'tools/golden/record.py');

/** The interpreter with torch: OPGATE_PYTHON, else Debian's system python (apt-get install python3-torch). */
export const pythonPath = () => process.env.OPGATE_PYTHON ?? '/usr/bin/python3';

interface RawEntry extends Omit<GoldenEntry, 'out' | 'grads'> {
  readonly out?: readonly (Omit<NonNullable<GoldenEntry['out']>[number], 'values'> & {
    values: string | null;
  })[];
  readonly grads?: readonly string[];
}

export interface RecordReport {
  readonly ops: readonly { op: string; requests: number; path: string; bytes: number }[];
  readonly torch: string;
  readonly seconds: number;
}

/** Every distinct request of an op (fingerprints dedupe layouts that leave a sample unchanged). */
function requestsOf(info: OpInfo) {
  const seen = new Map<string, { fp: string; kind: string; call: unknown }>();
  // A skipped golden instance is not recorded: its samples may be ones PyTorch cannot run (embedding_bag's
  // include_last_offset on an expanded float64 weight aborts PyTorch 1.13 with heap corruption).
  const skipped = (dtype: string, layout: (typeof LAYOUTS)[number]) =>
    info.skips.some(
      (r) =>
        r.kind === 'skip' &&
        ruleMatches(r, { oracle: 'golden', device: 'cpu', dtype, layout, mode: 'eager' }),
    );
  for (const dtype of info.dtypes.cpu)
    for (const layout of LAYOUTS.filter((l) => !skipped(dtype, l)))
      for (const r of goldenRequests(info, dtype, layout))
        if (!seen.has(r.fp)) seen.set(r.fp, { fp: r.fp, kind: r.kind, call: r.call });
  return [...seen.values()];
}

function runPython(requests: string, results: string): void {
  const py = pythonPath();
  const r = spawnSync(py, [RECORD_SCRIPT, requests, results], { stdio: ['ignore', 'inherit', 'pipe'] });
  const why = () => r.stderr.toString().trim().split('\n').slice(-3).join(' | ');
  if (r.error || (r.status !== 0 && /No module named 'torch'/.test(why())))
    throw new CiError(
      'E_TOOL_MISSING',
      `recording goldens needs PyTorch 1.13 (apt-get install python3-torch) under ${py} (OPGATE_PYTHON): ${r.error?.message ?? why()}`,
    );
  // PyTorch itself can crash on a sample (a signal, heap corruption): that is not a missing tool.
  if (r.status !== 0)
    throw new CiError(
      'E_TOOL_FAILED',
      `the golden recorder (${py} ${RECORD_SCRIPT}) ${r.signal ? `was killed by ${r.signal}` : `exited with status ${r.status}`}: ${why() || 'no message'}; a sample PyTorch cannot run must be skipped for the golden oracle`,
    );
}

/** Turns the script's inline base64 values into content-keyed blobs. */
function toGolden(op: string, torch: string, raw: Record<string, RawEntry>): GoldenFile {
  const blobs: Record<string, string> = {};
  const blob = (b64: string) => {
    const k = blobKey(b64);
    blobs[k] = b64;
    return k;
  };
  const entries: Record<string, GoldenEntry> = {};
  for (const [fp, e] of Object.entries(raw)) {
    entries[fp] = {
      ...e,
      ...(e.out && { out: e.out.map((o) => ({ ...o, values: o.values === null ? null : blob(o.values) })) }),
      ...(e.grads && { grads: e.grads.map(blob) }),
      ...(e.after && { after: e.after.map(blob) }),
    };
  }
  return { format: GOLDEN_FORMAT, op, torch, entries, blobs };
}

/** Records the goldens of `infos` into `dir` (the committed directory by default). */
export function recordGoldens(infos: readonly OpInfo[], dir = GOLDEN_DIR): RecordReport {
  const t0 = performance.now();
  const work = mkdtempSync(join(tmpdir(), 'opgate-golden-'));
  try {
    const ops = infos.map((info) => ({
      name: info.name,
      op: info.op,
      mutates: info.flags.mutates,
      nondeterministic: info.flags.nondeterministicValues,
      requests: requestsOf(info),
    }));
    const reqPath = join(work, 'requests.json');
    const resPath = join(work, 'results.json');
    writeFileSync(reqPath, JSON.stringify({ ops }));
    runPython(reqPath, resPath);
    const res = JSON.parse(readFileSync(resPath, 'utf8')) as {
      torch: string;
      results: Record<string, Record<string, RawEntry>>;
    };
    const report = ops.map((o) => {
      const path = writeGolden(toGolden(o.name, res.torch, res.results[o.name] ?? {}), dir);
      return { op: o.name, requests: o.requests.length, path, bytes: readFileSync(path).length };
    });
    return { ops: report, torch: res.torch, seconds: (performance.now() - t0) / 1000 };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export interface DriftReport {
  /** Ops whose re-recorded goldens differ from the committed file (or have none committed). */
  readonly drifted: readonly string[];
  readonly unchanged: number;
}

/**
 * A golden's content as compared for drift: entries and blobs, with each exception reduced to its type (a PyTorch
 * bug can print garbage in its message: slice_scatter's default end is an uninitialised int64 in 1.13).
 */
function comparable(g: GoldenFile | null): string {
  if (!g) return '';
  const type = (m: string | undefined) => m?.split(':')[0];
  const entries = Object.keys(g.entries)
    .sort()
    .map((fp) => {
      const e = g.entries[fp];
      // requires_grad is kept since the factories' requires_grad samples: false and absent (older files) agree.
      const out = e.out?.map(({ requires_grad, ...o }) => (requires_grad ? { ...o, requires_grad } : o));
      return [fp, { ...e, ...(out && { out }), raises: type(e.raises), grad_raises: type(e.grad_raises) }];
    });
  return JSON.stringify([entries, Object.keys(g.blobs).sort()]);
}

/** Re-records into a scratch directory and compares the content with the committed goldens. */
export function checkGoldens(infos: readonly OpInfo[], dir = GOLDEN_DIR): DriftReport {
  const scratch = mkdtempSync(join(tmpdir(), 'opgate-golden-check-'));
  try {
    recordGoldens(infos, scratch);
    const drifted: string[] = [];
    for (const info of infos) {
      const committed = existsSync(goldenPath(info.name, dir)) ? readGolden(info.name, dir) : null;
      if (!committed || comparable(committed) !== comparable(readGolden(info.name, scratch)))
        drifted.push(info.name);
    }
    return { drifted, unchanged: infos.length - drifted.length };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Committed golden files that belong to no op of op_db (left behind by a rename). */
export function orphanGoldens(infos: readonly OpInfo[], dir = GOLDEN_DIR): string[] {
  if (!existsSync(dir)) return [];
  const names = new Set(infos.map((i) => `${i.name}.json.gz`));
  return readdirSync(dir).filter((f) => f.endsWith('.json.gz') && !names.has(f));
}
