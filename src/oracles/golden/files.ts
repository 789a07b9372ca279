/**
 * The committed goldens: one gzip'd JSON file per op under op_db/goldens/, written deterministically (entries
 * and blobs sorted, gzip without a timestamp) so that re-recording unchanged samples changes no byte. Output
 * values are blobs keyed by content, so the layouts of one sample (same values, other strides) share them.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { fromRuntime, type RefTensor } from '../../../op_db/index.ts';
import { contiguousStrides, DTYPE_INFO, type DType, Storage, Tensor } from '../runtime_face.ts';

export const GOLDEN_DIR = fileURLToPath(new URL('../../../op_db/goldens/', import.meta.url));
export const GOLDEN_FORMAT = 1;

/** The command that re-records an op's goldens. */
export const recordCommand = (op: string) => `npx opgate golden record --op ${op}`;

export interface GoldenOutput {
  readonly dtype: string;
  readonly shape: readonly number[];
  readonly strides: readonly number[];
  readonly offset: number;
  /** The index of the call's input storage this output shares (a view), else -1; null: unknown (empty output). */
  readonly alias: number | null;
  /** Blob key of the row-major values; null for ops whose values are not defined (empty). */
  readonly values: string | null;
  /** Whether it requires grad (a factory's requires_grad=True); absent in goldens recorded before it was kept. */
  readonly requires_grad?: boolean;
}

/** What PyTorch did with one request. */
export interface GoldenEntry {
  readonly out?: readonly GoldenOutput[];
  /** PyTorch raised: the exception's type and first line. */
  readonly raises?: string;
  /** Gradient requests: blob keys of d loss / d leaf, one per float64 leaf. */
  readonly grads?: readonly string[];
  readonly grad_raises?: string;
  /** Gradient requests whose output is not finite: no gradient to compare (as gradcheck skips them). */
  readonly grads_skipped?: string;
  /** Two identical PyTorch calls gave different results (uninitialised memory): nothing to compare with. */
  readonly unstable?: boolean;
  /** Ops that write their inputs: blob keys of each input storage's values after the call (the call's order). */
  readonly after?: readonly string[];
}

export interface GoldenFile {
  readonly format: number;
  readonly op: string;
  readonly torch: string;
  readonly entries: Readonly<Record<string, GoldenEntry>>;
  readonly blobs: Readonly<Record<string, string>>;
}

export function goldenPath(op: string, dir = GOLDEN_DIR): string {
  return join(dir, `${op}.json.gz`);
}

const cache = new Map<string, GoldenFile | null>();

/** An op's goldens (cached per process); null when none are recorded. */
export function readGolden(op: string, dir = GOLDEN_DIR): GoldenFile | null {
  const path = goldenPath(op, dir);
  if (!cache.has(path)) {
    cache.set(
      path,
      existsSync(path) ? (JSON.parse(gunzipSync(readFileSync(path)).toString()) as GoldenFile) : null,
    );
  }
  return cache.get(path)!;
}

export function blobKey(b64: string): string {
  return createHash('sha256').update(b64).digest('hex').slice(0, 16);
}

const sorted = <T>(o: Readonly<Record<string, T>>): Record<string, T> =>
  Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, o[k]]),
  );

/** The bytes of a golden file: canonical JSON, gzip'd with no timestamp (the same goldens give the same bytes). */
export function encodeGolden(g: GoldenFile): Buffer {
  const text = JSON.stringify({ ...g, entries: sorted(g.entries), blobs: sorted(g.blobs) });
  return gzipSync(Buffer.from(text), { level: 9 });
}

export function writeGolden(g: GoldenFile, dir = GOLDEN_DIR): string {
  mkdirSync(dir, { recursive: true });
  const path = goldenPath(g.op, dir);
  writeFileSync(path, encodeGolden(g));
  cache.delete(path);
  return path;
}

/** A blob of row-major values of `dtype` as a RefTensor of `shape`. */
export function decodeValues(g: GoldenFile, key: string, dtype: DType, shape: readonly number[]): RefTensor {
  const info = DTYPE_INFO[dtype];
  const bytes = Buffer.from(g.blobs[key], 'base64');
  const numel = shape.reduce((a, b) => a * b, 1);
  const arr = new info.storage(numel * info.lanes);
  new Uint8Array(arr.buffer).set(bytes.subarray(0, arr.byteLength));
  return fromRuntime(
    new Tensor(new Storage(dtype, 'cpu', numel, arr), [...shape], contiguousStrides(shape), 0),
  );
}
