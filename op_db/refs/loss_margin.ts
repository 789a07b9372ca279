/**
 * References for the margin and embedding losses: float64 over logical values, from the formulas in PyTorch's
 * docs (torch.nn.HingeEmbeddingLoss, MarginRankingLoss, SoftMarginLoss, MultiLabelSoftMarginLoss,
 * CosineEmbeddingLoss, TripletMarginLoss, MultiMarginLoss, MultiLabelMarginLoss), each reduced as `reduction`
 * says (the legacy size_average / reduce flags win when set).
 */
import { DTYPE_INFO, type DType } from '../../src/runtime/index.ts';
import type { RefSample } from '../types.ts';
import { pNorm } from './distance.ts';
import {
  broadcastIndex,
  broadcastShape,
  castValue,
  numelOf,
  type RefTensor,
  refTensor,
  unravel,
} from './tensor.ts';

/** A loss's dtype: a floating input's own, a complex input's real part, else the default float dtype. */
export const floatDType = (d: DType): DType =>
  d === 'complex64'
    ? 'float32'
    : d === 'complex128'
      ? 'float64'
      : DTYPE_INFO[d].kind === 'float'
        ? d
        : 'float32';

/** An argument by position (after the input) or Python keyword. */
export function pyArg<T>(s: RefSample, index: number, name: string, dflt: T): T {
  const v = index < s.args.length ? s.args[index] : s.kwargs[name];
  return (v === undefined || v === null ? dflt : v) as T;
}

/** The reduction a Python loss applies: the legacy flags when set, else `reduction`. */
export function reductionOf(s: RefSample, index: number): string {
  const sizeAverage = pyArg<boolean | null>(s, index, 'size_average', null);
  const reduce = pyArg<boolean | null>(s, index + 1, 'reduce', null);
  if (sizeAverage !== null || reduce !== null) {
    if (!(reduce ?? true)) return 'none';
    return (sizeAverage ?? true) ? 'mean' : 'sum';
  }
  const r: string = pyArg(s, index + 2, 'reduction', 'mean');
  return r === 'elementwise_mean' ? 'mean' : r;
}

/** Per-element losses reduced: none keeps the shape, mean / sum give a 0-dim result (sum of ints is int64). */
export function reduced(
  loss: Float64Array,
  shape: readonly number[],
  dtype: DType,
  reduction: string,
): RefTensor {
  if (reduction === 'none')
    return refTensor(
      shape,
      dtype,
      loss.map((v) => castValue(v, dtype)),
    );
  const total = loss.reduce((a, b) => a + b, 0);
  if (reduction === 'sum') {
    const sumType =
      DTYPE_INFO[dtype].kind === 'float' || DTYPE_INFO[dtype].kind === 'complex' ? dtype : 'int64';
    return refTensor([], sumType, new Float64Array([total]));
  }
  return refTensor([], dtype, new Float64Array([total / loss.length]));
}

/** Elementwise over the broadcast of the tensors, each read at its broadcast index. */
function over(ts: readonly RefTensor[], f: (...v: number[]) => number): [Float64Array, number[]] {
  const shape = broadcastShape(ts.map((x) => x.shape));
  const out = new Float64Array(numelOf(shape));
  for (let i = 0; i < out.length; i++) {
    const idx = unravel(i, shape);
    out[i] = f(...ts.map((x) => x.re[broadcastIndex(x, idx)]));
  }
  return [out, shape];
}

/** hinge: x where y = 1, max(0, margin - x) where y = -1 (other targets count both, as aten computes). */
export function hingeRef(s: RefSample): RefTensor {
  const [x, y] = [s.input, s.args[0] as RefTensor];
  const dtype = x.dtype;
  const isInt = DTYPE_INFO[dtype].kind === 'int';
  // An integral input holds the margin truncated, and margin - x wraps in its dtype.
  const margin = isInt ? Math.trunc(pyArg(s, 1, 'margin', 1)) : pyArg(s, 1, 'margin', 1);
  const [loss, shape] = over([x, y], (xv, yv) => {
    const m = Math.max(0, castValue(margin - xv, dtype));
    return (yv !== 1 ? m : 0) + (yv !== -1 ? xv : 0);
  });
  return reduced(loss, shape, dtype, reductionOf(s, 2));
}

/** margin ranking: max(0, -y (x1 - x2) + margin); integral inputs give the default float dtype. */
export function marginRankingRef(s: RefSample): RefTensor {
  const [x1, x2, y] = [s.input, s.args[0] as RefTensor, s.args[1] as RefTensor];
  const margin = pyArg(s, 2, 'margin', 0);
  // x1 - x2 is computed in the inputs' dtype (uint8 wraps) before the float margin joins.
  const [loss, shape] = over([x1, x2, y], (a, b, t) => Math.max(0, -t * castValue(a - b, x1.dtype) + margin));
  return reduced(loss, shape, floatDType(x1.dtype), reductionOf(s, 3));
}

/**
 * soft margin: log(1 + exp(-y x)), in input's shape and dtype, with aten's in-place steps rounded to the dtype
 * (-x y, exp, 1 + exp: in bfloat16, 1 + 6e-4 is 1, so the loss is 0 there).
 */
export function softMarginRef(s: RefSample): RefTensor {
  const [x, y] = [s.input, s.args[0] as RefTensor];
  const reduction = reductionOf(s, 1);
  if (x.im || y.im) return complexSoftMargin(x, y, reduction);
  const r = (v: number) => castValue(v, x.dtype);
  const [loss, shape] = over([x, y], (a, b) => Math.log(r(1 + r(Math.exp(r(-a * b))))));
  return reduced(loss, shape, x.dtype, reduction);
}

/** Complex soft margin: the principal log of 1 + exp(-x y), reduced part by part. */
function complexSoftMargin(x: RefTensor, y: RefTensor, reduction: string): RefTensor {
  const shape = broadcastShape([x.shape, y.shape]);
  const n = numelOf(shape);
  const [re, im] = [new Float64Array(n), new Float64Array(n)];
  for (let i = 0; i < n; i++) {
    const idx = unravel(i, shape);
    const [j, k] = [broadcastIndex(x, idx), broadcastIndex(y, idx)];
    const [a, b, c, d] = [x.re[j], x.im?.[j] ?? 0, y.re[k], y.im?.[k] ?? 0];
    const [zr, zi] = [-(a * c - b * d), -(a * d + b * c)];
    const [wr, wi] = [1 + Math.exp(zr) * Math.cos(zi), Math.exp(zr) * Math.sin(zi)];
    re[i] = Math.log(Math.hypot(wr, wi));
    im[i] = Math.atan2(wi, wr);
  }
  if (reduction === 'none') return refTensor(shape, x.dtype, re, im);
  const scale = reduction === 'mean' ? 1 / n : 1;
  const total = (v: Float64Array) => v.reduce((p, q) => p + q, 0) * scale;
  return refTensor([], x.dtype, [total(re)], [total(im)]);
}

const logSigmoid = (v: number) => Math.min(v, 0) - Math.log1p(Math.exp(-Math.abs(v)));

/** multilabel soft margin: -mean over classes of w (y log sigmoid(x) + (1 - y) log sigmoid(-x)). */
export function multilabelSoftMarginRef(s: RefSample): RefTensor {
  const [x, y] = [s.input, s.args[0] as RefTensor];
  const w = pyArg<RefTensor | null>(s, 1, 'weight', null);
  const ts = w ? [x, y, w] : [x, y];
  const [loss, shape] = over(ts, (a, b, c = 1) => -c * (b * logSigmoid(a) + (1 - b) * logSigmoid(-a)));
  const classes = shape[shape.length - 1];
  const rows = new Float64Array(loss.length / classes);
  for (let r = 0; r < rows.length; r++)
    for (let c = 0; c < classes; c++) rows[r] += loss[r * classes + c] / classes;
  return reduced(rows, shape.slice(0, -1), x.dtype, reductionOf(s, 2));
}

/** cosine embedding: 1 - cos where y = 1, max(0, cos - margin) where y = -1, 0 elsewhere. */
export function cosineEmbeddingRef(s: RefSample): RefTensor {
  const [x1, x2, y] = [s.input, s.args[0] as RefTensor, s.args[1] as RefTensor];
  const margin = pyArg(s, 2, 'margin', 0);
  const n = y.shape.length === 0 ? 1 : y.shape[0];
  const d = x1.shape[x1.shape.length - 1];
  const loss = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let [dot, m1, m2] = [0, 0, 0];
    for (let j = 0; j < d; j++) {
      const [a, b] = [x1.re[i * d + j], x2.re[i * d + j]];
      dot += a * b;
      m1 += a * a;
      m2 += b * b;
    }
    const cos = dot / Math.sqrt((m1 + 1e-12) * (m2 + 1e-12));
    loss[i] = y.re[i] === 1 ? 1 - cos : y.re[i] === -1 ? Math.max(0, cos - margin) : 0;
  }
  return reduced(loss, y.shape, floatDType(x1.dtype), reductionOf(s, 3));
}

/** Distances ||x - y + eps||_p over the last dim, the inputs broadcast (pairwise_distance's definition). */
function distances(x: RefTensor, y: RefTensor, p: number, eps: number): [number[], number[]] {
  const shape = broadcastShape([x.shape, y.shape]);
  const d = shape.length === 0 ? 1 : shape[shape.length - 1];
  const outShape = shape.slice(0, -1);
  const out: number[] = [];
  for (let o = 0; o < numelOf(outShape); o++) {
    const v: number[] = [];
    for (let j = 0; j < d; j++) {
      const idx = [...unravel(o, outShape), j].slice(0, Math.max(shape.length, 0));
      const at = (t: RefTensor) => broadcastIndex(t, idx);
      const [xr, yr] = [x.re[at(x)], y.re[at(y)]];
      const [xi, yi] = [x.im?.[at(x)] ?? 0, y.im?.[at(y)] ?? 0];
      // The difference is taken in the inputs' dtype (an integral one wraps) before eps joins.
      v.push(x.im || y.im ? Math.hypot(xr - yr + eps, xi - yi) : castValue(xr - yr, x.dtype) + eps);
    }
    out.push(pNorm(v, p));
  }
  return [out, outShape];
}

/** triplet margin: max(0, d(a, p) - d(a, n) + margin), d(a, n) the smaller of d(a, n) and d(p, n) with swap. */
export function tripletRef(withDistance: boolean) {
  return (s: RefSample): RefTensor => {
    const [a, pos, neg] = [s.input, s.args[0] as RefTensor, s.args[1] as RefTensor];
    const kw = (name: string, index: number, dflt: number | boolean) =>
      withDistance ? (s.kwargs[name] ?? dflt) : pyArg(s, index, name, dflt);
    const margin = kw('margin', 2, 1) as number;
    const p = withDistance ? 2 : (kw('p', 3, 2) as number);
    const eps = withDistance ? 1e-6 : (kw('eps', 4, 1e-6) as number);
    const swap = kw('swap', 5, false) as boolean;
    const [dp, shape] = distances(a, pos, p, eps);
    const [dn] = distances(a, neg, p, eps);
    const ds = swap ? distances(pos, neg, p, eps)[0] : dn;
    const loss = Float64Array.from(dp, (v, i) => Math.max(0, v - Math.min(dn[i], ds[i]) + margin));
    const reduction = withDistance ? String(s.kwargs.reduction ?? 'mean') : reductionOf(s, 6);
    return reduced(loss, shape, floatDType(a.dtype), reduction);
  };
}

/** A [N, C] input's frame count and classes (a 1-D input is one frame, a 0-dim one a frame of one class). */
const framesOf = (x: RefTensor): [number, number] =>
  x.shape.length === 2 ? [x.shape[0], x.shape[1]] : [1, x.shape.length === 1 ? x.shape[0] : 1];

/** Per-frame losses as PyTorch shapes them: [N] unreduced when `batched`, else reduced to 0-dim. */
function frameLosses(loss: Float64Array, dtype: DType, reduction: string, batched: boolean): RefTensor {
  if (reduction === 'none' && !batched) return refTensor([], dtype, loss);
  return reduced(loss, [loss.length], dtype, reduction);
}

/** multi margin: sum over c != y of w[y] max(0, margin - x[y] + x[c])^p, over C. */
export function multiMarginRef(s: RefSample): RefTensor {
  const [x, y] = [s.input, s.args[0] as RefTensor];
  const p = Number(pyArg(s, 1, 'p', 1));
  const margin = pyArg(s, 2, 'margin', 1);
  const w = pyArg<RefTensor | null>(s, 3, 'weight', null);
  const [n, c] = framesOf(x);
  const loss = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const target = y.re[i];
    for (let k = 0; k < c; k++) {
      const z = margin - x.re[i * c + target] + x.re[i * c + k];
      // Only classes inside the margin count (z > 0): a class exactly at it adds nothing, even times an inf weight.
      if (k !== target && z > 0) loss[i] += (w ? w.re[target] : 1) * z ** p;
    }
    loss[i] /= c;
  }
  return frameLosses(loss, x.dtype, reductionOf(s, 4), y.shape.length > 0);
}

/** multilabel margin: over targets j (the row up to its first -1) and non-targets c, max(0, 1 - (x[j] - x[c])), over C. */
export function multilabelMarginRef(s: RefSample): RefTensor {
  const [x, y] = [s.input, s.args[0] as RefTensor];
  const [n, c] = framesOf(x);
  const loss = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const row = Array.from(y.re.subarray(i * c, i * c + c));
    const end = row.indexOf(-1);
    const targets = end < 0 ? row : row.slice(0, end);
    for (const j of targets)
      for (let k = 0; k < c; k++)
        if (!targets.includes(k)) loss[i] += Math.max(0, 1 - x.re[i * c + j] + x.re[i * c + k]);
    loss[i] /= c;
  }
  return frameLosses(loss, x.dtype, reductionOf(s, 1), y.shape.length > 1);
}
