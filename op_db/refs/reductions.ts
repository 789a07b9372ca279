/**
 * References for reductions, scans and softmax: plain float64 loops over logical (row-major) indices, never
 * calling runtime ops. Integer results are computed exactly with bigints (wrapping like int64 arithmetic);
 * float results in float64 and rounded to the output dtype by the comparison. The PyTorch 1.13 CPU semantics
 * they encode: NaN propagates through max/min and wins arg-reductions (the first NaN), ties keep the first
 * index, empty sums are 0, empty products 1, empty means/variances NaN, logsumexp's max is replaced by 0 when
 * infinite, softmax's max is not (a +inf or all -inf line gives NaN).
 */
import { DTYPE_INFO, type DType } from '../../src/runtime/index.ts';
import type { RefSample } from '../types.ts';
import { castValue, numelOf, type RefTensor, unravel } from './tensor.ts';

const kindOf = (d: DType) => DTYPE_INFO[d].kind;
const isComplex = (d: DType) => kindOf(d) === 'complex';
const isIntLike = (d: DType) => kindOf(d) === 'int' || kindOf(d) === 'bool';
const realOf = (d: DType): DType => (d === 'complex64' ? 'float32' : d === 'complex128' ? 'float64' : d);

/** Argument `name` at schema position `pos` (after self): positional, else keyword, else the default. */
export function argOf<T>(s: RefSample, pos: number, name: string, dflt: T): T {
  if (pos < s.args.length) return s.args[pos] as T;
  if (name in s.kwargs) return s.kwargs[name] as T;
  return dflt;
}

function wrapDim(d: number, ndim: number): number {
  const n = Math.max(ndim, 1);
  if (d < -n || d >= n) throw new Error(`reference: dim ${d} out of range for ${ndim}-d input`);
  return d < 0 ? d + n : d;
}

/** The dims argument as a list (null = every dim); an int is a one-element list. */
function dimList(v: unknown): number[] | null {
  if (v === null || v === undefined) return null;
  return Array.isArray(v) ? (v as number[]) : [v as number];
}

export interface Groups {
  readonly outShape: number[];
  /** For each output element (row-major), the flat input indices folded into it, in row-major order. */
  readonly groups: number[][];
}

/** Which input elements each output element of a reduction over `dims` (null/[] = all) folds. */
export function reductionGroups(shape: readonly number[], dims: number[] | null, keepdim: boolean): Groups {
  const ndim = shape.length;
  const reduced = new Array<boolean>(ndim).fill(dims === null || dims.length === 0);
  if (dims !== null) for (const d of dims) if (ndim > 0) reduced[wrapDim(d, ndim)] = true;
  const keepShape = shape.map((s, d) => (reduced[d] ? 1 : s));
  const outShape = keepdim ? keepShape : shape.filter((_, d) => !reduced[d]);
  const groups: number[][] = Array.from({ length: numelOf(keepShape) }, () => []);
  const n = numelOf(shape);
  for (let i = 0; i < n; i++) {
    const idx = unravel(i, shape);
    let o = 0;
    for (let d = 0; d < ndim; d++) o = o * keepShape[d] + (reduced[d] ? 0 : idx[d]);
    groups[o].push(i);
  }
  return { outShape, groups };
}

/** One line per position of the other dims, along `dim` (a 0-dim input is one line of length 1). */
export function lines(shape: readonly number[], dim: number): number[][] {
  if (shape.length === 0) return [[0]];
  const d = wrapDim(dim, shape.length);
  const out: number[][] = [];
  const n = numelOf(shape);
  const stride = numelOf(shape.slice(d + 1));
  for (let i = 0; i < n; i++) {
    if (unravel(i, shape)[d] !== 0) continue;
    out.push(Array.from({ length: shape[d] }, (_, j) => i + j * stride));
  }
  return out;
}

const real = (shape: readonly number[], dtype: DType, re: number[]): RefTensor => ({
  shape: [...shape],
  dtype,
  re: Float64Array.from(re),
  im: null,
});

const cplx = (shape: readonly number[], dtype: DType, re: number[], im: number[]): RefTensor => ({
  shape: [...shape],
  dtype,
  re: Float64Array.from(re),
  im: Float64Array.from(im),
});

/** Element i of x cast to `dtype` (the cast PyTorch makes before computing): [re, im]. */
function load(x: RefTensor, i: number, dtype: DType): [number, number] {
  const r = realOf(dtype);
  const re = castValue(x.re[i], r);
  const im = isComplex(dtype) && x.im ? castValue(x.im[i], r) : 0;
  return [re, im];
}

/** Wraps an exact integer to `dtype`'s width (bool: nonzero). */
function wrapBig(v: bigint, dtype: DType): number {
  if (dtype === 'bool') return v !== 0n ? 1 : 0;
  const bits = DTYPE_INFO[dtype].itemsize * 8;
  return Number(dtype === 'uint8' ? BigInt.asUintN(bits, v) : BigInt.asIntN(bits, v));
}

/** The dtype sum/prod/cumsum/cumprod compute in: dtype=, else int64 for bool/int inputs. */
export function accumulateDType(input: DType, dtype: DType | null | undefined): DType {
  if (dtype) return dtype;
  return isIntLike(input) ? 'int64' : input;
}

type FoldKind = 'sum' | 'prod';

/** Sum or product of the elements at `idx` of x, computed in `dtype` ([re, im]). */
function fold(kind: FoldKind, x: RefTensor, idx: readonly number[], dtype: DType): [number, number] {
  if (isIntLike(dtype)) {
    let acc = kind === 'sum' ? 0n : 1n;
    for (const i of idx) {
      const v = BigInt(load(x, i, dtype)[0]);
      acc = kind === 'sum' ? acc + v : BigInt.asIntN(64, acc * v);
    }
    return [wrapBig(acc, dtype), 0];
  }
  let ar = kind === 'sum' ? 0 : 1;
  let ai = 0;
  for (const i of idx) {
    const [xr, xi] = load(x, i, dtype);
    if (kind === 'sum') {
      ar += xr;
      ai += xi;
    } else if (isComplex(dtype)) {
      const t = ar * xr - ai * xi;
      ai = ar * xi + ai * xr;
      ar = t;
    } else ar *= xr;
  }
  return [ar, ai];
}

function foldRef(kind: FoldKind, s: RefSample, dtype: DType, divide: boolean): RefTensor {
  const x = s.input;
  const { outShape, groups } = reductionGroups(
    x.shape,
    dimList(argOf(s, 0, 'dim', null)),
    argOf(s, 1, 'keepdim', false),
  );
  const re: number[] = [];
  const im: number[] = [];
  for (const g of groups) {
    let [r, i] = fold(kind, x, g, dtype);
    if (divide) {
      // sum / N as c10::complex division by (N + 0i): (a + b*0) / N, (b - a*0) / N, so an infinite part
      // spreads NaN to the other part (real dtypes: plain a / N).
      const n = g.length;
      [r, i] = [(r + i * 0) / n, (i - r * 0) / n];
    }
    re.push(r);
    im.push(i);
  }
  return isComplex(dtype) ? cplx(outShape, dtype, re, im) : real(outShape, dtype, re);
}

const dtypeKw = (s: RefSample) => (s.kwargs.dtype as DType | null | undefined) ?? null;

export const sumRef = (s: RefSample): RefTensor =>
  foldRef('sum', s, accumulateDType(s.input.dtype, dtypeKw(s)), false);
export const prodRef = (s: RefSample): RefTensor =>
  foldRef('prod', s, accumulateDType(s.input.dtype, dtypeKw(s)), false);
export const meanRef = (s: RefSample): RefTensor => foldRef('sum', s, dtypeKw(s) ?? s.input.dtype, true);

/**
 * all / any: a complex element counts as true when either part is nonzero. The runtime documents this as a
 * deliberate deviation from PyTorch 1.13's CPU kernel (which casts complex to bool through the real part
 * only); the reference follows the runtime's documented contract (bool(z), torch.ne(z, 0)).
 */
export const logicalRef =
  (kind: 'all' | 'any') =>
  (s: RefSample): RefTensor => {
    const x = s.input;
    const { outShape, groups } = reductionGroups(
      x.shape,
      dimList(argOf(s, 0, 'dim', null)),
      argOf(s, 1, 'keepdim', false),
    );
    const truthy = (i: number) => x.re[i] !== 0 || (x.im !== null && x.im[i] !== 0);
    const re = groups.map((g) => ((kind === 'all' ? g.every(truthy) : g.some(truthy)) ? 1 : 0));
    return real(outShape, x.dtype === 'uint8' ? 'uint8' : 'bool', re);
  };

type Which = 'max' | 'min';

/** Position (in `idx`) of the extreme: NaN wins (the first NaN), ties keep the first. */
function extremeAt(vals: Float64Array, idx: readonly number[], which: Which): number {
  let best = vals[idx[0]];
  let bi = 0;
  for (let j = 1; j < idx.length && !Number.isNaN(best); j++) {
    const v = vals[idx[j]];
    if (Number.isNaN(v) || (which === 'max' ? v > best : v < best)) {
      best = v;
      bi = j;
    }
  }
  return bi;
}

/** amax / amin (dim list, default all) and max() / min() (no dim). */
export const extremeRef =
  (which: Which) =>
  (s: RefSample): RefTensor => {
    const x = s.input;
    const { outShape, groups } = reductionGroups(
      x.shape,
      dimList(argOf(s, 0, 'dim', null)),
      argOf(s, 1, 'keepdim', false),
    );
    return real(
      outShape,
      x.dtype,
      groups.map((g) => x.re[g[extremeAt(x.re, g, which)]]),
    );
  };

/** max / min: the full reduction, or [values, indices] along one dim. */
export const maxMinRef =
  (which: Which) =>
  (s: RefSample): RefTensor | RefTensor[] => {
    const dim = argOf<number | null>(s, 0, 'dim', null);
    if (dim === null) return extremeRef(which)(s);
    const x = s.input;
    const { outShape, groups } = reductionGroups(x.shape, [dim], argOf(s, 1, 'keepdim', false));
    const at = groups.map((g) => extremeAt(x.re, g, which));
    return [
      real(
        outShape,
        x.dtype,
        groups.map((g, k) => x.re[g[at[k]]]),
      ),
      real(outShape, 'int64', at),
    ];
  };

/** argmax / argmin: along a dim, or the flat (row-major) index when dim is None. */
export const argRef =
  (which: Which) =>
  (s: RefSample): RefTensor => {
    const x = s.input;
    const dim = argOf<number | null>(s, 0, 'dim', null);
    const keepdim = argOf(s, 1, 'keepdim', false);
    const { outShape, groups } = reductionGroups(x.shape, dim === null ? null : [dim], keepdim);
    // PyTorch's argmax(x, dim=None, keepdim=True) keeps every dim as size 1.
    return real(
      outShape,
      'int64',
      groups.map((g) => extremeAt(x.re, g, which)),
    );
  };

/**
 * var / std over the overloads: (unbiased), (dim, unbiased, keepdim), (dim, *, correction, keepdim). Two
 * passes in float64: the mean, then the sum of squared distances |x - mean|^2 over max(0, N - correction).
 */
export const momentRef =
  (sqrt: boolean) =>
  (s: RefSample): RefTensor => {
    const x = s.input;
    const legacyFull = typeof s.args[0] === 'boolean';
    const dims = legacyFull ? null : dimList(argOf(s, 0, 'dim', null));
    const unbiased = legacyFull ? (s.args[0] as boolean) : argOf(s, 1, 'unbiased', true);
    const keepdim = legacyFull ? false : argOf(s, 2, 'keepdim', false);
    const correction = (s.kwargs.correction as number | null | undefined) ?? (unbiased === false ? 0 : 1);
    const { outShape, groups } = reductionGroups(x.shape, dims, keepdim);
    const re = groups.map((g) => {
      let mr = 0;
      let mi = 0;
      for (const i of g) {
        mr += x.re[i];
        mi += x.im ? x.im[i] : 0;
      }
      mr /= g.length;
      mi /= g.length;
      let m2 = 0;
      for (const i of g) {
        const dr = x.re[i] - mr;
        const di = (x.im ? x.im[i] : 0) - mi;
        m2 += dr * dr + di * di;
      }
      const v = m2 / Math.max(0, g.length - correction);
      return sqrt ? Math.sqrt(v) : v;
    });
    return real(outShape, realOf(x.dtype), re);
  };

/** The NaN-propagating maximum (-inf for no values). */
function maxOf(v: readonly number[]): number {
  let m = Number.NEGATIVE_INFINITY;
  for (const a of v) {
    if (Number.isNaN(a)) return a;
    if (a > m) m = a;
  }
  return m;
}

/** logsumexp: m = max (replaced by 0 when infinite), log(sum(exp(x - m))) + m; int inputs in float32. */
export const logsumexpRef = (s: RefSample): RefTensor => {
  const x = s.input;
  const dtype = isIntLike(x.dtype) ? 'float32' : x.dtype;
  const { outShape, groups } = reductionGroups(
    x.shape,
    dimList(argOf(s, 0, 'dim', null)),
    argOf(s, 1, 'keepdim', false),
  );
  const re = groups.map((g) => {
    const v = g.map((i) => load(x, i, dtype)[0]);
    let m = maxOf(v);
    if (Math.abs(m) === Number.POSITIVE_INFINITY) m = 0;
    let sum = 0;
    for (const a of v) sum += Math.exp(a - m);
    return Math.log(sum) + m;
  });
  return real(outShape, dtype, re);
};

/** cumsum / cumprod along a dim, in dtype= or int64 for bool/int inputs. */
export const scanRef =
  (kind: FoldKind) =>
  (s: RefSample): RefTensor => {
    const x = s.input;
    const dtype = accumulateDType(x.dtype, dtypeKw(s));
    const n = numelOf(x.shape);
    const re = new Array<number>(n).fill(0);
    const im = new Array<number>(n).fill(0);
    for (const line of lines(x.shape, argOf(s, 0, 'dim', 0))) {
      for (let j = 0; j < line.length; j++) {
        const [r, i] = fold(kind, x, line.slice(0, j + 1), dtype);
        re[line[j]] = r;
        im[line[j]] = i;
      }
    }
    return isComplex(dtype) ? cplx(x.shape, dtype, re, im) : real(x.shape, dtype, re);
  };

/** softmax / log_softmax along a dim: m = max (not masked), e = exp(x - m), e / sum(e) or x - m - log(sum). */
export const softmaxRef =
  (log: boolean) =>
  (s: RefSample): RefTensor => {
    const x = s.input;
    const dtype = argOf<DType | null>(s, 1, 'dtype', null) ?? x.dtype;
    const out = new Array<number>(numelOf(x.shape)).fill(0);
    for (const line of lines(x.shape, argOf(s, 0, 'dim', 0))) {
      const v = line.map((i) => load(x, i, dtype)[0]);
      const m = maxOf(v);
      let sum = 0;
      for (const a of v) sum += Math.exp(a - m);
      line.forEach((i, j) => {
        out[i] = log ? v[j] - m - Math.log(sum) : Math.exp(v[j] - m) / sum;
      });
    }
    return real(x.shape, dtype, out);
  };

/** The vector p-norm of |x_i| over a group: 2, 1, inf, -inf, 0 (count of nonzeros) or (sum |x|^p)^(1/p). */
function pNorm(abs: readonly number[], ord: number): number {
  if (ord === Number.POSITIVE_INFINITY) return abs.length === 0 ? 0 : maxOf(abs);
  if (ord === Number.NEGATIVE_INFINITY)
    return abs.length === 0 ? Number.POSITIVE_INFINITY : -maxOf(abs.map((a) => -a));
  if (ord === 0) return abs.filter((a) => a !== 0).length;
  let sum = 0;
  for (const a of abs) sum += a ** ord;
  return ord === 1 ? sum : sum ** (1 / ord);
}

function normOf(x: RefTensor, ord: number, dims: number[] | null, keepdim: boolean, dtype: DType): RefTensor {
  const { outShape, groups } = reductionGroups(x.shape, dims, keepdim);
  const re = groups.map((g) =>
    pNorm(
      g.map((i) => {
        const [r, m] = load(x, i, dtype);
        return Math.hypot(r, m);
      }),
      ord,
    ),
  );
  return real(outShape, realOf(dtype), re);
}

/** linalg.vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None). */
export const vectorNormRef = (s: RefSample): RefTensor =>
  normOf(
    s.input,
    argOf<number>(s, 0, 'ord', 2),
    dimList(argOf(s, 1, 'dim', null)),
    argOf(s, 2, 'keepdim', false),
    dtypeKw(s) ?? s.input.dtype,
  );

/**
 * torch.norm's Python forms (torch/functional.py): p a number, None (2) or 'fro' (the 2-norm of the flattened
 * dims), dim None (every dim), an int or a list; dtype= casts the input first.
 */
export const pythonNormRef = (s: RefSample): RefTensor => {
  const p = argOf<number | string | null>(s, 0, 'p', 'fro');
  return normOf(
    s.input,
    typeof p === 'number' ? p : 2,
    dimList(argOf(s, 1, 'dim', null)),
    argOf(s, 2, 'keepdim', false),
    dtypeKw(s) ?? s.input.dtype,
  );
};

/** torch.norm(x, p=2) / norm(x, p, dim, keepdim): p=None means 2. */
export const normRef = (s: RefSample): RefTensor =>
  normOf(
    s.input,
    argOf<number | null>(s, 0, 'p', 2) ?? 2,
    dimList(argOf(s, 1, 'dim', null)),
    argOf(s, 2, 'keepdim', false),
    s.input.dtype,
  );
