/**
 * References for the losses: float64 over logical values, from the formulas in torch.nn's docs (the elementwise
 * loss l_n, then none / mean / sum), with torch.nn.functional's argument spelling (reduction names, the legacy
 * size_average / reduce, kl_div's batchmean).
 */
import type { RefSample } from '../types.ts';
import { realDType } from './distance.ts';
import { elementwise } from './pointwise.ts';
import { castValue, numelOf, type RefTensor } from './tensor.ts';

/** A keyword argument of the sample, or its default. */
export const kw = <T>(s: RefSample, name: string, dflt: T): T =>
  (s.kwargs[name] === undefined || s.kwargs[name] === null ? dflt : s.kwargs[name]) as T;

/** The reduction F applies: the legacy booleans win when either is given. */
export function reductionOf(s: RefSample): string {
  const sizeAverage = kw<boolean | null>(s, 'size_average', null);
  const reduce = kw<boolean | null>(s, 'reduce', null);
  if (sizeAverage === null && reduce === null) return kw(s, 'reduction', 'mean');
  if (reduce ?? true) return (sizeAverage ?? true) ? 'mean' : 'sum';
  return 'none';
}

/** none / mean / sum of an elementwise loss (the mean of nothing is NaN, as 0 / 0). */
export function reduce(loss: RefTensor, reduction: string): RefTensor {
  if (reduction === 'none') return loss;
  const sum = loss.re.reduce((a, v) => a + v, 0);
  const v = reduction === 'mean' ? sum / numelOf(loss.shape) : sum;
  return { shape: [], dtype: loss.dtype, re: Float64Array.of(v), im: null };
}

/** A pointwise loss l(x, y, sample) over broadcast input and target, reduced. */
export const pointwiseLossRef =
  (l: (x: number, y: number, s: RefSample) => number) =>
  (s: RefSample): RefTensor => {
    const target = s.args[0] as RefTensor;
    const loss = elementwise([s.input, target], (x, y) => l(x, y, s), s.input.dtype);
    return reduce(loss, reductionOf(s));
  };

/** |x - y|, the difference in the inputs' dtype first (integers wrap, as PyTorch's do); complex: its modulus. */
export function l1Ref(s: RefSample): RefTensor {
  const target = s.args[0] as RefTensor;
  const dtype = s.input.dtype;
  const complex = s.input.im !== null;
  const loss = elementwise(
    [s.input, target],
    (x, y) => castValue(Math.abs(castValue(x - y, dtype)), dtype),
    complex ? realDType(dtype) : dtype,
    (xr, xi, yr, yi) => [Math.hypot(xr - yr, xi - yi), 0],
  );
  return reduce({ ...loss, im: null }, reductionOf(s));
}
export const mseRef = pointwiseLossRef((x, y) => (x - y) ** 2);

export const smoothL1Ref = pointwiseLossRef((x, y, s) => {
  const beta = kw(s, 'beta', 1);
  const z = Math.abs(x - y);
  return z < beta ? (0.5 * z * z) / beta : z - 0.5 * beta;
});

export const huberRef = pointwiseLossRef((x, y, s) => {
  const delta = kw(s, 'delta', 1);
  const z = Math.abs(x - y);
  return z < delta ? 0.5 * z * z : delta * (z - 0.5 * delta);
});

/** KL(target || exp(input)) pointwise: y (log y - x), 0 where y is 0; exp(y) (y - x) for a log target. */
export function klDivRef(s: RefSample): RefTensor {
  const logTarget = kw(s, 'log_target', false);
  const target = s.args[0] as RefTensor;
  const loss = elementwise(
    [s.input, target],
    (x, y) => (logTarget ? Math.exp(y) * (y - x) : (y === 0 ? 0 : y * Math.log(y)) - y * x),
    s.input.dtype,
  );
  const name = kw<string>(s, 'reduction', 'mean');
  const legacy = kw(s, 'size_average', null) !== null || kw(s, 'reduce', null) !== null;
  const reduced = reduce(loss, legacy ? reductionOf(s) : name === 'batchmean' ? 'sum' : name);
  if (name !== 'batchmean' || s.input.shape.length === 0) return reduced;
  return { ...reduced, re: reduced.re.map((v) => v / s.input.shape[0]) };
}

/** exp(x) - y x (log input) or x - y log(x + eps), plus Stirling's y log y - y + log(2 pi y) / 2 for y > 1. */
export const poissonNllRef = pointwiseLossRef((x, y, s) => {
  const loss = kw(s, 'log_input', true) ? Math.exp(x) - y * x : x - y * Math.log(x + kw(s, 'eps', 1e-8));
  const stirling = y > 1 ? y * Math.log(y) - y + 0.5 * Math.log(2 * Math.PI * y) : 0;
  return loss + (kw(s, 'full', false) ? stirling : 0);
});

/** (log max(var, eps) + (x - y)^2 / max(var, eps)) / 2 (+ log(2 pi) / 2 when full); var one per row or element. */
export function gaussianNllRef(s: RefSample): RefTensor {
  const [target, v0] = [s.args[0] as RefTensor, (s.args[1] ?? s.kwargs.var) as RefTensor];
  const x = s.input;
  const rowVar = v0.shape.length === x.shape.length - 1;
  const v = rowVar ? { ...v0, shape: [...v0.shape, 1] } : v0;
  const eps = kw(s, 'eps', 1e-6);
  const full = kw(s, 'full', false) ? 0.5 * Math.log(2 * Math.PI) : 0;
  const loss = elementwise(
    [x, target, v],
    (a, b, w) => {
      const c = Math.max(w, eps);
      return 0.5 * (Math.log(c) + (a - b) ** 2 / c) + full;
    },
    x.dtype,
  );
  return reduce(loss, kw(s, 'reduction', 'mean'));
}

/** The weight of class c (1 without weights). */
const classWeight = (w: RefTensor | undefined | null, c: number) => (w ? w.re[c] : 1);

/** The class dim (1, or 0 for an unbatched input), its size and the positions around it. */
function classLayout(x: RefTensor) {
  const classDim = x.shape.length === 1 ? 0 : 1;
  const classes = x.shape[classDim];
  const outer = x.shape.length === 1 ? 1 : x.shape[0];
  const inner = numelOf(x.shape.slice(classDim + 1));
  const outShape = x.shape.filter((_, d) => d !== classDim);
  const at = (o: number, c: number, i: number) => (o * classes + c) * inner + i;
  return { classes, outer, inner, outShape, at, items: outer * inner };
}

/** log_softmax over the class dim, in float64. */
function logSoftmax(x: RefTensor): RefTensor {
  const { classes, outer, inner, at } = classLayout(x);
  const re = new Float64Array(x.re.length);
  for (let o = 0; o < outer; o++)
    for (let i = 0; i < inner; i++) {
      let m = Number.NEGATIVE_INFINITY;
      for (let c = 0; c < classes; c++) m = Math.max(m, x.re[at(o, c, i)]);
      let z = 0;
      for (let c = 0; c < classes; c++) z += Math.exp(x.re[at(o, c, i)] - m);
      for (let c = 0; c < classes; c++) re[at(o, c, i)] = x.re[at(o, c, i)] - m - Math.log(z);
    }
  return { ...x, re };
}

/**
 * The negative log-likelihood of class targets y_n: -w_{y_n} x_{n, y_n} (0 where y_n is ignore_index), and with
 * label smoothing s, (1 - s) times it plus s / C times -sum_c w_c x_{n, c}; mean divides by the kept targets' weights.
 */
function classTargetLoss(x: RefTensor, y: RefTensor, s: RefSample, smoothing: number): RefTensor {
  const w = s.kwargs.weight as RefTensor | undefined;
  const ignore = kw(s, 'ignore_index', -100);
  const { classes, inner, outShape, at, items } = classLayout(x);
  const loss = new Float64Array(items);
  const smooth = new Float64Array(items);
  let total = 0;
  for (let n = 0; n < items; n++) {
    const [o, i] = [Math.floor(n / inner), n % inner];
    const c = y.re[n];
    if (c === ignore) continue;
    total += classWeight(w, c);
    loss[n] = -classWeight(w, c) * x.re[at(o, c, i)];
    for (let k = 0; k < classes; k++) smooth[n] -= classWeight(w, k) * x.re[at(o, k, i)];
  }
  const mixed = loss.map((l, n) => (1 - smoothing) * l + (smoothing / classes) * smooth[n]);
  const reduction = reductionOf(s);
  const sum = mixed.reduce((a, v) => a + v, 0);
  if (reduction === 'none') return { shape: outShape, dtype: x.dtype, re: mixed, im: null };
  return {
    shape: [],
    dtype: x.dtype,
    re: Float64Array.of(reduction === 'sum' ? sum : sum / total),
    im: null,
  };
}

export const nllRef = (s: RefSample): RefTensor => classTargetLoss(s.input, s.args[0] as RefTensor, s, 0);

/** Class probabilities p (smoothed to (1 - s) p + s / C): -sum_c w_c p_c log_softmax(x)_c; mean over the items. */
export function crossEntropyRef(s: RefSample): RefTensor {
  const y = s.args[0] as RefTensor;
  const x = logSoftmax(s.input);
  const smoothing = kw(s, 'label_smoothing', 0);
  if (y.shape.length !== x.shape.length) return classTargetLoss(x, y, s, smoothing);
  const w = s.kwargs.weight as RefTensor | undefined;
  const { classes, inner, outShape, at, items } = classLayout(x);
  const loss = new Float64Array(items);
  for (let n = 0; n < items; n++) {
    const [o, i] = [Math.floor(n / inner), n % inner];
    for (let c = 0; c < classes; c++) {
      const p = (1 - smoothing) * y.re[at(o, c, i)] + smoothing / classes;
      loss[n] -= classWeight(w, c) * p * x.re[at(o, c, i)];
    }
  }
  return reduce({ shape: outShape, dtype: x.dtype, re: loss, im: null }, reductionOf(s));
}

/** -w (y max(log x, -100) + (1 - y) max(log(1 - x), -100)). */
export function bceRef(s: RefSample): RefTensor {
  const w = s.kwargs.weight as RefTensor | undefined;
  const operands = [s.input, s.args[0] as RefTensor, ...(w ? [w] : [])];
  const loss = elementwise(
    operands,
    (x, y, wt = 1) => -wt * (y * Math.max(Math.log(x), -100) + (1 - y) * Math.max(Math.log1p(-x), -100)),
    s.input.dtype,
  );
  return reduce(loss, reductionOf(s));
}

const softplus = (z: number) => Math.max(z, 0) + Math.log1p(Math.exp(-Math.abs(z)));

/** -w (p y log sigmoid(x) + (1 - y) log(1 - sigmoid(x))), log sigmoid(x) = -softplus(-x). */
export function bceWithLogitsRef(s: RefSample): RefTensor {
  const w = s.kwargs.weight as RefTensor | undefined;
  const pw = s.kwargs.pos_weight as RefTensor | undefined;
  const one: RefTensor = { shape: [], dtype: 'float64', re: Float64Array.of(1), im: null };
  const loss = elementwise(
    [s.input, s.args[0] as RefTensor, w ?? one, pw ?? one],
    (x, y, wt, p) => wt * (p * y * softplus(-x) + (1 - y) * softplus(x)),
    s.input.dtype,
  );
  return reduce(loss, reductionOf(s));
}
