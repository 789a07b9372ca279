/**
 * The reference oracle's out= check into views that start in the middle of a larger storage: each out is a view
 * of exactly its result's shape and layout at storage offset numel of a 3×numel storage whose every byte is a
 * sentinel. Such an out is used as it is (no resize), so a kernel that drops the out's storage offset, or runs
 * one iteration past an output dim, writes a sentinel element: JS typed arrays drop out-of-bounds writes, so
 * without elements around the view neither would show. Tuple results get one such view per out argument of
 * the op's overload (`max_pool2d_with_indices.out(..., *, out, indices)`).
 */
import type { DeviceType } from '../runtime/index.ts';
import { callOp, contiguousStrides, operatorTable, Tensor } from './runtime_face.ts';
import { onHost, snapshot } from './sample_io.ts';

const writtenArgs = new Map<string, readonly string[] | null>();

/**
 * The kwarg-only written arguments (schema order) of `op`'s overload that takes one out per result, or null.
 * Named `out` for most ops, `output` / `values` / `indices` for some (fractional_max_pool2d.output).
 */
export function outArgNames(op: string, results: number): readonly string[] | null {
  const key = `${op}/${results}`;
  if (!writtenArgs.has(key)) {
    let found: readonly string[] | null = null;
    for (const e of operatorTable.resolve(op)) {
      const names = e.schema.args.filter((a) => a.kwargOnly && a.type.alias?.isWrite).map((a) => a.name);
      if (names.length === results) {
        found = names;
        break;
      }
    }
    writtenArgs.set(key, found);
  }
  return writtenArgs.get(key) ?? null;
}

/** The result's strides when they are dense and non-overlapping (channels-last, transposed), else contiguous. */
function denseLayout(t: Tensor): readonly number[] {
  const dims = t.shape
    .map((_, d) => d)
    .filter((d) => t.shape[d] > 1)
    .sort((a, b) => t.strides[a] - t.strides[b]);
  let next = 1;
  for (const d of dims) {
    if (t.strides[d] !== next) return contiguousStrides(t.shape);
    next *= t.shape[d];
  }
  return t.strides;
}

async function storageBytes(base: Tensor): Promise<Uint8Array> {
  return snapshot(base.device === 'cpu' ? base : (await onHost([base]))[0])!;
}

export interface GuardedOuts {
  /** One view per result, in the overload's out order. */
  readonly views: Tensor[];
  /** The out kwargs of the call. */
  readonly kwargs: Record<string, Tensor>;
  /** After the call: what went wrong with the storages around the views (or their version counters), or null. */
  readonly verify: () => Promise<string | null>;
}

/** Sentinel-filled storages with a view per result in their middle (null if a result is empty). */
export async function guardedOuts(
  results: readonly Tensor[],
  names: readonly string[],
  device: DeviceType,
): Promise<GuardedOuts | null> {
  if (results.some((r) => r.numel === 0)) return null;
  const bases = results.map((r) => {
    const host = Tensor.empty([3 * r.numel], r.dtype, 'cpu');
    const d = host.storage.data!;
    new Uint8Array(d.buffer, d.byteOffset, d.byteLength).fill(0xa5);
    return device === 'cpu' ? host : host.to(device);
  });
  const before = await Promise.all(bases.map(storageBytes));
  const views = results.map(
    (r, j) => callOp('as_strided', [bases[j], r.shape, denseLayout(r), r.numel]) as Tensor,
  );
  const versions = views.map((v) => v.version);
  const verify = async (): Promise<string | null> => {
    for (const [j, v] of views.entries()) {
      const n = results[j].numel;
      const where = `out= view '${names[j]}' (storage elements ${n}..${2 * n - 1} of ${3 * n})`;
      if (v.storage !== bases[j].storage || v.storageOffset !== n)
        return `${where} of the result's shape was given another storage or offset`;
      if (v.version <= versions[j]) return `${where} did not bump the version counter (still ${v.version})`;
      const after = await storageBytes(bases[j]);
      const size = after.length / (3 * n);
      for (let i = 0; i < after.length; i++) {
        const e = Math.floor(i / size);
        if ((e < n || e >= 2 * n) && after[i] !== before[j][i])
          return `${where}: storage element ${e}, ${e < n ? 'before' : 'after'} the view, was written`;
      }
    }
    return null;
  };
  return { views, kwargs: Object.fromEntries(names.map((m, j) => [m, views[j]])), verify };
}
