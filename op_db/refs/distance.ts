/**
 * References for the distances (cosine_similarity, pairwise_distance, pdist, cdist, dist) and normalize: float64 over
 * logical values, from the definitions in PyTorch's docs.
 */
import { DTYPE_GROUPS, type DType } from '../../src/runtime/index.ts';
import type { RefSample } from '../types.ts';
import { broadcastIndex, broadcastShape, castValue, numelOf, type RefTensor, unravel } from './tensor.ts';

/** The p-norm of magnitudes (legacy torch.norm: 0 for none, every p; p = 0 counts the nonzeros). */
export function pNorm(v: readonly number[], p: number): number {
  if (v.length === 0) return 0;
  const a = v.map(Math.abs);
  if (p === 0) return a.filter((x) => x !== 0).length;
  if (p === Number.POSITIVE_INFINITY) return Math.max(...a);
  if (p === Number.NEGATIVE_INFINITY) return Math.min(...a);
  return a.reduce((s, x) => s + x ** p, 0) ** (1 / p);
}

const at = (x: RefTensor, idx: readonly number[]) => broadcastIndex(x, idx);
export const realDType = (d: DType): DType =>
  d === 'complex64'
    ? 'float32'
    : d === 'complex128'
      ? 'float64'
      : DTYPE_GROUPS.integral.includes(d)
        ? 'float32'
        : d;

/** cosine_similarity: sum over dim of (x1 / max(|x1|, eps)) (x2 / max(|x2|, eps)), inputs broadcast. */
export function cosineRef(s: RefSample): RefTensor {
  const [x1, x2] = [s.input, s.args[0] as RefTensor];
  const shape = broadcastShape([x1.shape, x2.shape]);
  const nd = Math.max(shape.length, 1);
  const raw = Number(s.args[1] ?? s.kwargs.dim ?? 1);
  const dim = raw < 0 ? raw + nd : raw;
  const eps = Number(s.args[2] ?? s.kwargs.eps ?? 1e-8);
  const len = shape.length === 0 ? 1 : shape[dim];
  const outShape = shape.filter((_, d) => d !== dim);
  const re = new Float64Array(numelOf(outShape)).map((_, o) => {
    const base = unravel(o, outShape);
    const idx = (k: number) => (shape.length === 0 ? [] : [...base.slice(0, dim), k, ...base.slice(dim)]);
    const a = Array.from({ length: len }, (_, k) => x1.re[at(x1, idx(k))]);
    const b = Array.from({ length: len }, (_, k) => x2.re[at(x2, idx(k))]);
    const [na, nb] = [Math.max(pNorm(a, 2), eps), Math.max(pNorm(b, 2), eps)];
    return a.reduce((acc, v, k) => acc + (v / na) * (b[k] / nb), 0);
  });
  const dtype = DTYPE_GROUPS.integral.includes(x1.dtype) ? x2.dtype : x1.dtype;
  return { shape: outShape, dtype, re, im: null };
}

/** pairwise_distance: the p-norm over the last dim of x1 - x2 + eps (the difference in the inputs' dtype). */
export function pairwiseRef(s: RefSample): RefTensor {
  const [x1, x2] = [s.input, s.args[0] as RefTensor];
  const p = Number(s.args[1] ?? s.kwargs.p ?? 2);
  const eps = Number(s.args[2] ?? s.kwargs.eps ?? 1e-6);
  const keepdim = Boolean(s.args[3] ?? s.kwargs.keepdim ?? false);
  const shape = broadcastShape([x1.shape, x2.shape]);
  const len = shape.length === 0 ? 1 : shape[shape.length - 1];
  const lead = shape.slice(0, -1);
  const diff = (idx: readonly number[]) => {
    const [i, j] = [at(x1, idx), at(x2, idx)];
    const re = castValue(x1.re[i] - x2.re[j], x1.dtype) + eps;
    return Math.hypot(re, (x1.im?.[i] ?? 0) - (x2.im?.[j] ?? 0));
  };
  const re = new Float64Array(numelOf(lead)).map((_, o) => {
    const base = unravel(o, lead);
    return pNorm(
      Array.from({ length: len }, (_, k) => diff(shape.length === 0 ? [] : [...base, k])),
      p,
    );
  });
  const outShape = keepdim && shape.length > 0 ? [...lead, 1] : lead;
  return { shape: outShape, dtype: realDType(x1.dtype), re, im: null };
}

/** The p-distances between the rows of two [.., r, c] tensors (batch dims broadcast). */
function rowDistances(x1: RefTensor, x2: RefTensor, p: number): RefTensor {
  const [r1, c] = x1.shape.slice(-2);
  const r2 = x2.shape[x2.shape.length - 2];
  const batch = broadcastShape([x1.shape.slice(0, -2), x2.shape.slice(0, -2)]);
  const shape = [...batch, r1, r2];
  const re = new Float64Array(numelOf(shape)).map((_, o) => {
    const idx = unravel(o, shape);
    const b = idx.slice(0, -2);
    const [i, j] = idx.slice(-2);
    const d = Array.from({ length: c }, (_, k) => x1.re[at(x1, [...b, i, k])] - x2.re[at(x2, [...b, j, k])]);
    return pNorm(d, p);
  });
  return { shape, dtype: x1.dtype, re, im: null };
}

export const cdistRef = (s: RefSample): RefTensor =>
  rowDistances(s.input, s.args[0] as RefTensor, Number(s.args[1] ?? s.kwargs.p ?? 2));

/** pdist: the upper triangle (i < j) of the row distance matrix, row by row. */
export function pdistRef(s: RefSample): RefTensor {
  const d = rowDistances(s.input, s.input, Number(s.args[0] ?? s.kwargs.p ?? 2));
  const n = s.input.shape[0];
  const re: number[] = [];
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) re.push(d.re[i * n + j]);
  return { shape: [re.length], dtype: d.dtype, re: Float64Array.from(re), im: null };
}

/** normalize: x / max(||x||_p over dims, eps), complex parts divided by the same real norm. */
export function normalizeRef(s: RefSample): RefTensor {
  const x = s.input;
  const p = Number(s.args[0] ?? s.kwargs.p ?? 2);
  const rawDim = s.args[1] ?? s.kwargs.dim ?? 1;
  const eps = Number(s.args[2] ?? s.kwargs.eps ?? 1e-12);
  const nd = Math.max(x.shape.length, 1);
  const dims = (Array.isArray(rawDim) ? rawDim : [rawDim]).map((d) => (Number(d) + nd) % nd);
  const reduced = (idx: readonly number[]) => idx.map((v, d) => (dims.includes(d) ? 0 : v)).join(',');
  const groups = new Map<string, number[]>();
  for (let i = 0; i < x.re.length; i++) {
    const key = reduced(unravel(i, x.shape));
    groups.set(key, [...(groups.get(key) ?? []), Math.hypot(x.re[i], x.im?.[i] ?? 0)]);
  }
  const denom = (i: number) => Math.max(pNorm(groups.get(reduced(unravel(i, x.shape))) ?? [], p), eps);
  return {
    ...x,
    re: x.re.map((v, i) => v / denom(i)),
    im: x.im ? x.im.map((v, i) => v / denom(i)) : null,
  };
}

/** torch.dist: the p-norm (legacy torch.norm) of every element of x1 - x2, the difference in the inputs' dtype. */
export function distRef(s: RefSample): RefTensor {
  const [x1, x2] = [s.input, s.args[0] as RefTensor];
  const p = Number(s.args[1] ?? s.kwargs.p ?? 2);
  const shape = broadcastShape([x1.shape, x2.shape]);
  const part = realDType(x1.dtype);
  const magnitudes = Array.from({ length: numelOf(shape) }, (_, o) => {
    const [i, j] = [at(x1, unravel(o, shape)), at(x2, unravel(o, shape))];
    const re = castValue(x1.re[i] - x2.re[j], part);
    const im = x1.im ? castValue(x1.im[i] - (x2.im?.[j] ?? 0), part) : 0;
    return Math.hypot(re, im);
  });
  return { shape: [], dtype: part, re: Float64Array.of(pNorm(magnitudes, p)), im: null };
}
