/**
 * References for the copying shape ops (cat, stack, flip, roll, tril, triu), the index ops (gather, scatter,
 * index_select, masked_fill), the ternary selections (where, clamp) and sorting (sort, topk): plain loops over
 * logical multi-indices in float64 on RefTensors. Nothing here calls a runtime op or kernel; tensors that the
 * harness leaves as runtime tensors (the members of a Tensor[] input) are only read back.
 */
import { introsort, type Tensor, topkOrder } from '../../src/runtime/index.ts';
import type { RefSample } from '../types.ts';
import { asRef, elementwise } from './pointwise.ts';
import { fromRuntime, numelOf, type RefTensor, unravel } from './tensor.ts';

/** A RefTensor, or a runtime tensor read back (list inputs reach references unconverted). */
export function refOf(x: unknown): RefTensor {
  if (typeof x === 'object' && x !== null && 're' in x) return x as RefTensor;
  return fromRuntime(x as Tensor);
}

export const isRefTensor = (x: unknown): x is RefTensor => typeof x === 'object' && x !== null && 're' in x;

/** maybe_wrap_dim (a 0-dim tensor takes dims -1 and 0). */
export const wrap = (d: number, ndim: number): number => (d < 0 ? d + Math.max(ndim, 1) : d);

/** Row-major flat index of `idx` in `shape`. */
export function ravelIndex(idx: readonly number[], shape: readonly number[]): number {
  let flat = 0;
  for (let d = 0; d < shape.length; d++) flat = flat * shape[d] + idx[d];
  return flat;
}

/** A zero-filled RefTensor (complex when `complex`). */
export function zerosRef(shape: readonly number[], like: RefTensor, complex = like.im !== null): RefTensor {
  const n = numelOf(shape);
  return {
    shape: [...shape],
    dtype: like.dtype,
    re: new Float64Array(n),
    im: complex ? new Float64Array(n) : null,
  };
}

function put(o: RefTensor, oi: number, s: RefTensor, si: number): void {
  o.re[oi] = s.re[si];
  if (o.im) o.im[oi] = s.im ? s.im[si] : 0;
}

/** `out[idx] = x[map(idx)]` over the output's logical indices. */
function remap(x: RefTensor, shape: readonly number[], map: (idx: number[]) => readonly number[]): RefTensor {
  const out = zerosRef(shape, x);
  for (let i = 0; i < out.re.length; i++) put(out, i, x, ravelIndex(map(unravel(i, shape)), x.shape));
  return out;
}

/** The sample's i-th positional argument, else keyword `name`, else `dflt`. */
export function argOf<T>(s: RefSample, i: number, name: string, dflt: T): T {
  if (s.args.length > i && s.args[i] !== undefined) return s.args[i] as T;
  if (s.kwargs[name] !== undefined) return s.kwargs[name] as T;
  return dflt;
}

// ---------------------------------------------------------------------------------------------- cat / stack

function concat(list: readonly RefTensor[], dim: number): RefTensor {
  // Legacy 1-D empty tensors are ignored by cat (they only take part in dtype promotion).
  const kept = list.filter((t) => !(t.shape.length === 1 && t.shape[0] === 0));
  const complex = list.some((t) => t.im !== null);
  if (kept.length === 0) return zerosRef([0], list[0], complex);
  const d = wrap(dim, kept[0].shape.length);
  const shape = [...kept[0].shape];
  shape[d] = kept.reduce((a, t) => a + t.shape[d], 0);
  const out = zerosRef(shape, kept[0], complex);
  for (let i = 0; i < out.re.length; i++) {
    const idx = unravel(i, shape);
    let k = 0;
    let at = idx[d];
    while (at >= kept[k].shape[d]) at -= kept[k++].shape[d];
    const src = [...idx];
    src[d] = at;
    put(out, i, kept[k], ravelIndex(src, kept[k].shape));
  }
  return out;
}

export function catRef(s: RefSample): RefTensor {
  const list = (s.input as unknown as unknown[]).map(refOf);
  return concat(list, argOf(s, 0, 'dim', 0));
}

export function stackRef(s: RefSample): RefTensor {
  const list = (s.input as unknown as unknown[]).map(refOf);
  const d = wrap(argOf(s, 0, 'dim', 0), list[0].shape.length + 1);
  const unsqueezed = list.map((t) => {
    const shape = [...t.shape];
    shape.splice(d, 0, 1);
    return { ...t, shape };
  });
  return concat(unsqueezed, d);
}

// ------------------------------------------------------------------------------------ flip / roll / tril

export function flipRef(s: RefSample): RefTensor {
  const x = s.input;
  // dims as one list, or as the Tensor method's varargs (x.flip(2, 0)).
  const given = typeof s.args[0] === 'number' ? (s.args as number[]) : argOf<number[]>(s, 0, 'dims', []);
  const dims = given.map((d) => wrap(d, x.shape.length));
  return remap(x, x.shape, (idx) => {
    for (const d of dims) idx[d] = x.shape[d] - 1 - idx[d];
    return idx;
  });
}

const asList = (v: number | readonly number[]): number[] => (typeof v === 'number' ? [v] : [...v]);
const mod = (a: number, n: number) => ((a % n) + n) % n;

export function rollRef(s: RefSample): RefTensor {
  const x = s.input;
  const shifts = asList(argOf<number | number[]>(s, 0, 'shifts', []));
  const dims = asList(argOf<number | number[]>(s, 1, 'dims', [])).map((d) => wrap(d, x.shape.length));
  if (dims.length === 0) {
    // Roll of the flattened tensor: logical element i moves to i + shift.
    const n = x.re.length;
    const out = zerosRef(x.shape, x);
    for (let i = 0; i < n; i++) put(out, mod(i + shifts[0], n), x, i);
    return out;
  }
  return remap(x, x.shape, (idx) => {
    dims.forEach((d, k) => {
      idx[d] = mod(idx[d] - shifts[k], x.shape[d]);
    });
    return idx;
  });
}

/** tril keeps j - i <= k, triu keeps j - i >= k over the last two dims; the rest becomes zero. */
export const triRef =
  (lower: boolean) =>
  (s: RefSample): RefTensor => {
    const x = s.input;
    const k = argOf(s, 0, 'diagonal', 0);
    const nd = x.shape.length;
    const out = zerosRef(x.shape, x);
    for (let i = 0; i < x.re.length; i++) {
      const idx = unravel(i, x.shape);
      const diff = idx[nd - 1] - idx[nd - 2];
      if (lower ? diff <= k : diff >= k) put(out, i, x, i);
    }
    return out;
  };

// ---------------------------------------------------------------------------------------------- indexing

/** A 0-dim tensor seen as 1-D of size 1 (PyTorch's ensure_nonempty_dim in scatter/gather). */
const nonEmpty = (shape: readonly number[]) => (shape.length === 0 ? [1] : [...shape]);

export function gatherRef(s: RefSample): RefTensor {
  const x = s.input;
  const dim = wrap(argOf(s, 0, 'dim', 0), x.shape.length);
  const index = argOf<RefTensor>(s, 1, 'index', x);
  const xs = nonEmpty(x.shape);
  const out = zerosRef(index.shape, x);
  const ixShape = nonEmpty(index.shape);
  for (let i = 0; i < out.re.length; i++) {
    const idx = unravel(i, ixShape);
    idx[dim] = index.re[i];
    put(out, i, x, ravelIndex(idx, xs));
  }
  return out;
}

/**
 * scatter (src / value, optional reduce='add'|'multiply'): a copy of self where each index element writes its
 * src element (or the value) into position `index` along dim. Samples use indices unique per output slot.
 */
export function scatterRef(s: RefSample): RefTensor {
  const x = s.input;
  const dim = wrap(argOf(s, 0, 'dim', 0), x.shape.length);
  const index = argOf<RefTensor>(s, 1, 'index', x);
  const last = s.args.length > 2 ? s.args[2] : (s.kwargs.src ?? s.kwargs.value);
  const reduce = s.kwargs.reduce as string | undefined;
  const src = isRefTensor(last) ? last : asRef(last);
  const complex = x.im !== null;
  const out: RefTensor = { ...x, re: x.re.slice(), im: x.im ? x.im.slice() : null };
  const xs = nonEmpty(x.shape);
  const ixShape = nonEmpty(index.shape);
  const ss = nonEmpty(src.shape);
  for (let i = 0; i < index.re.length; i++) {
    const idx = unravel(i, ixShape);
    const si = isRefTensor(last) ? ravelIndex(idx, ss) : 0;
    const [br, bi] = [src.re[si], src.im ? src.im[si] : 0];
    idx[dim] = index.re[i];
    const t = ravelIndex(idx, xs);
    const [ar, ai] = [out.re[t], out.im ? out.im[t] : 0];
    let r = br;
    let m = bi;
    if (reduce === 'add') [r, m] = [ar + br, ai + bi];
    else if (reduce === 'multiply') [r, m] = complex ? [ar * br - ai * bi, ar * bi + ai * br] : [ar * br, 0];
    out.re[t] = x.dtype === 'bool' ? (r !== 0 ? 1 : 0) : r;
    if (out.im) out.im[t] = m;
  }
  return out;
}

export function indexSelectRef(s: RefSample): RefTensor {
  const x = s.input;
  const dim = wrap(argOf(s, 0, 'dim', 0), x.shape.length);
  const index = argOf<RefTensor>(s, 1, 'index', x);
  if (x.shape.length === 0) return remap(x, [], () => []);
  const shape = [...x.shape];
  shape[dim] = index.re.length;
  return remap(x, shape, (idx) => {
    idx[dim] = index.re[idx[dim]];
    return idx;
  });
}

export function maskedFillRef(s: RefSample): RefTensor {
  const x = s.input;
  const mask = argOf<RefTensor>(s, 0, 'mask', x);
  const value = argOf<unknown>(s, 1, 'value', 0);
  const v = isRefTensor(value) ? value : asRef(value);
  return elementwise(
    [mask, x, v],
    (m, a, b) => (m ? b : a),
    x.dtype,
    x.im ? (m, _mi, ar, ai, br, bi) => (m ? [br, bi] : [ar, ai]) : undefined,
  );
}

// ------------------------------------------------------------------------------------------ where / clamp

export function whereRef(s: RefSample): RefTensor {
  const [x, y] = [s.args[0], s.args[1]].map((a) => (isRefTensor(a) ? a : asRef(a)));
  const complex = x.im !== null || y.im !== null;
  return elementwise(
    [s.input, x, y],
    (c, a, b) => (c ? a : b),
    x.dtype,
    complex ? (c, ci, ar, ai, br, bi) => (c || ci ? [ar, ai] : [br, bi]) : undefined,
  );
}

// std::max / std::min argument order: a NaN in x propagates, a NaN Scalar bound compares false.
// biome-ignore lint/complexity/useMathMinMax: Math.max would turn a NaN bound into NaN
const lower = (x: number, lo: number) => (x < lo ? lo : x);
// biome-ignore lint/complexity/useMathMinMax: see lower
const upper = (x: number, hi: number) => (hi < x ? hi : x);

/**
 * clamp with Scalar bounds (a NaN bound is ignored when alone and fills NaN when both are given) or with
 * Tensor bounds (NaN in any bound propagates, like maximum / minimum / clamp_cpu).
 */
export function clampRef(s: RefSample): RefTensor {
  const x = s.input;
  const lo = argOf<unknown>(s, 0, 'min', null);
  const hi = argOf<unknown>(s, 1, 'max', null);
  const tensors = [lo, hi].filter((b) => b !== null).every(isRefTensor);
  const ops: RefTensor[] = [x];
  // c10's checked conversion lets a negative Python int bound wrap into uint8 (-255 -> 1).
  const wrap = (b: unknown) => (x.dtype === 'uint8' && typeof b === 'number' && b < 0 ? b + 256 : b);
  if (lo !== null) ops.push(isRefTensor(lo) ? lo : asRef(wrap(lo)));
  if (hi !== null) ops.push(isRefTensor(hi) ? hi : asRef(wrap(hi)));
  const nan = Number.isNaN;
  return elementwise(
    ops,
    (v, a, b) => {
      if (lo !== null && hi !== null) {
        if (nan(a) || nan(b)) return Number.NaN;
        return upper(lower(v, a), b);
      }
      if (tensors && nan(a)) return Number.NaN;
      return lo !== null ? lower(v, a) : upper(v, a);
    },
    x.dtype,
  );
}

// -------------------------------------------------------------------------------------------- sort / topk

/** Ascending with NaN largest (all NaNs equal); ties are left to the stable sort. */
function ascending(a: number, b: number): number {
  if (Number.isNaN(a)) return Number.isNaN(b) ? 0 : 1;
  if (Number.isNaN(b)) return -1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Stable sort of every line along `dim`, keeping the first `count` of each: [values, indices]. */
/**
 * Which order equal values take: input order (`stable`), PyTorch 1.13's CPU std::sort order (`sort`), or its topk
 * selection (`topk`). The tie order is a convention, not arithmetic: the reference takes it from the runtime's
 * port of libstdc++ (ops/sort_search/sort_order.ts) with its own comparator, and the golden oracle holds both to the indices
 * PyTorch recorded.
 */
type TieOrder = 'stable' | 'sort' | { readonly topk: boolean };

function sortLines(
  x: RefTensor,
  dim: number,
  descending: boolean,
  count: number,
  ties: TieOrder = 'stable',
): [RefTensor, RefTensor] {
  const shape = nonEmpty(x.shape);
  const outShape = [...x.shape];
  if (x.shape.length > 0) outShape[dim] = count;
  const values = zerosRef(outShape, x);
  const indices: RefTensor = { ...zerosRef(outShape, x, false), dtype: 'int64' };
  const n = shape[dim];
  const oShape = nonEmpty(outShape);
  const lineShape = [...shape];
  lineShape[dim] = 1;
  for (let l = 0; l < numelOf(lineShape); l++) {
    const base = unravel(l, lineShape);
    const at = (i: number, sh: readonly number[]) => {
      const idx = [...base];
      idx[dim] = i;
      return ravelIndex(idx, sh);
    };
    const order = Array.from({ length: n }, (_, i) => i);
    const key = (i: number) => x.re[at(i, shape)];
    if (ties === 'stable')
      order.sort((i, j) => (descending ? ascending(key(j), key(i)) : ascending(key(i), key(j))));
    else {
      // NaN is the largest value; `before(i, j)`: i goes first.
      const before = (i: number, j: number) => {
        const c = ascending(key(i), key(j));
        return descending ? c > 0 : c < 0;
      };
      if (ties === 'sort') introsort(order, 0, n, before);
      else topkOrder(order, n, count, ties.topk, before);
    }
    for (let r = 0; r < count; r++) {
      put(values, at(r, oShape), x, at(order[r], shape));
      indices.re[at(r, oShape)] = order[r];
    }
  }
  return [values, indices];
}

export function sortRef(s: RefSample): RefTensor[] {
  const x = s.input;
  const stableOverload = s.kwargs.stable !== undefined;
  const dim = wrap(
    stableOverload ? ((s.kwargs.dim as number) ?? -1) : argOf(s, 0, 'dim', -1),
    x.shape.length,
  );
  const descending = stableOverload
    ? ((s.kwargs.descending as boolean) ?? false)
    : argOf(s, 1, 'descending', false);
  // sort and sort(stable=False) order equal values as std::sort does; stable=True keeps their input order.
  const ties = s.kwargs.stable === true ? 'stable' : 'sort';
  return sortLines(x, dim, descending, x.shape.length === 0 ? 1 : x.shape[dim], ties);
}

/** topk: PyTorch's selection of the top k (sorted, or in nth_element's order for sorted=False). */
export function topkRef(s: RefSample): RefTensor[] {
  const x = s.input;
  const k = argOf(s, 0, 'k', 1);
  const dim = wrap(argOf(s, 1, 'dim', -1), x.shape.length);
  const largest = argOf(s, 2, 'largest', true);
  return sortLines(x, dim, largest, k, { topk: argOf(s, 3, 'sorted', true) });
}
