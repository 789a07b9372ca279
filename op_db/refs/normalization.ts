/**
 * References for the normalization ops, from their definitions in PyTorch's docs: y = (x - E[x]) / sqrt(Var[x] + eps)
 * * weight + bias, with the biased variance, over each op's groups of elements (per channel for batch norm, per
 * sample and channel for instance norm, per leading index for layer norm, per sample and channel group for group
 * norm), and local response normalization's b_c = a_c / (k + alpha / n * sum of a^2 over the window)^beta.
 */
import type { DType } from '../../src/runtime/index.ts';
import type { RefSample } from '../types.ts';
import { numelOf, type RefTensor, refTensor, unravel } from './tensor.ts';

type Opt = RefTensor | null;

/** An argument given by position or keyword (an explicit None is null), else its default. */
export function argOf(s: RefSample, pos: number, name: string, dflt: unknown): unknown {
  if (pos < s.args.length) return s.args[pos];
  return name in s.kwargs ? s.kwargs[name] : dflt;
}

interface Standardized {
  readonly out: Float64Array;
  readonly mean: Float64Array;
  readonly rstd: Float64Array;
  /** The unbiased variance per group (n / (n - 1) times the biased one). */
  readonly unbiased: Float64Array;
}

/** (x - mean) / sqrt(var + eps) over the elements that share a group, the variance biased. */
function standardize(x: RefTensor, group: (i: number) => number, groups: number, eps: number): Standardized {
  const n = x.re.length;
  const keys = Int32Array.from({ length: n }, (_, i) => group(i));
  const count = new Float64Array(groups);
  const mean = new Float64Array(groups);
  for (let i = 0; i < n; i++) {
    count[keys[i]]++;
    mean[keys[i]] += x.re[i];
  }
  for (let g = 0; g < groups; g++) mean[g] /= count[g];
  const ss = new Float64Array(groups);
  for (let i = 0; i < n; i++) ss[keys[i]] += (x.re[i] - mean[keys[i]]) ** 2;
  const rstd = ss.map((v, g) => 1 / Math.sqrt(v / count[g] + eps));
  const unbiased = ss.map((v, g) => v / (count[g] - 1));
  const out = x.re.map((v, i) => (v - mean[keys[i]]) * rstd[keys[i]]);
  return { out, mean, rstd, unbiased };
}

/** y * weight + bias, the parameter of element i at index `at(i)`. */
function affine(y: Float64Array, w: Opt, b: Opt, at: (i: number) => number): Float64Array {
  return y.map((v, i) => v * (w ? w.re[at(i)] : 1) + (b ? b.re[at(i)] : 0));
}

const channelOf = (x: RefTensor) => (i: number) => unravel(i, x.shape)[1];

export interface BatchNormRef {
  readonly input: RefTensor;
  readonly weight: Opt;
  readonly bias: Opt;
  readonly runningMean: Opt;
  readonly runningVar: Opt;
  readonly training: boolean;
  readonly eps: number;
  /** Batch norm: per channel; instance norm: per sample and channel. */
  readonly perSample: boolean;
}

/** (output, save_mean, save_invstd) of native_batch_norm; instance norm's output with `perSample`. */
export function batchNormRef(a: BatchNormRef): { out: RefTensor; mean: Float64Array; invstd: Float64Array } {
  const x = a.input;
  const C = x.shape[1];
  const channel = channelOf(x);
  const ch = (i: number) => channel(i);
  let y: Float64Array;
  let mean: Float64Array = new Float64Array(0);
  let invstd: Float64Array = new Float64Array(0);
  if (a.training) {
    const group = a.perSample ? (i: number) => unravel(i, x.shape)[0] * C + channel(i) : ch;
    const s = standardize(x, group, a.perSample ? x.shape[0] * C : C, a.eps);
    y = s.out;
    mean = s.mean;
    invstd = s.rstd;
  } else {
    const rm = a.runningMean!;
    const rv = a.runningVar!;
    y = x.re.map((v, i) => (v - rm.re[ch(i)]) / Math.sqrt(rv.re[ch(i)] + a.eps));
  }
  return { out: refTensor(x.shape, x.dtype, affine(y, a.weight, a.bias, ch)), mean, invstd };
}

/** native_layer_norm: (output, mean, rstd), mean and rstd of shape [*leading, 1, ..., 1]. */
export function layerNormRef(s: RefSample): RefTensor[] {
  const x = s.input;
  const shape = argOf(s, 0, 'normalized_shape', []) as number[];
  const w = argOf(s, 1, 'weight', null) as Opt;
  const b = argOf(s, 2, 'bias', null) as Opt;
  const eps = argOf(s, 3, 'eps', 1e-5) as number;
  const n = numelOf(shape);
  const axis = x.shape.length - shape.length;
  const rows = numelOf(x.shape.slice(0, axis));
  const st = standardize(x, (i) => Math.floor(i / n), rows, eps);
  const statShape = x.shape.map((m, d) => (d < axis ? m : 1));
  return [
    refTensor(
      x.shape,
      x.dtype,
      affine(st.out, w, b, (i) => i % n),
    ),
    // An empty row's mean is 0 (PyTorch's moments start there); its rstd 1 / sqrt(0 / 0 + eps) is NaN.
    refTensor(statShape, x.dtype, n === 0 ? st.mean.map(() => 0) : st.mean),
    refTensor(statShape, x.dtype, st.rstd),
  ];
}

export function groupNormRef(s: RefSample): RefTensor {
  const x = s.input;
  const groups = argOf(s, 0, 'num_groups', 1) as number;
  const w = argOf(s, 1, 'weight', null) as Opt;
  const b = argOf(s, 2, 'bias', null) as Opt;
  const eps = argOf(s, 3, 'eps', 1e-5) as number;
  const C = x.shape[1];
  const per = C / groups;
  const channel = channelOf(x);
  const group = (i: number) => unravel(i, x.shape)[0] * groups + Math.floor(channel(i) / per);
  const st = standardize(x, group, x.shape[0] * groups, eps);
  return refTensor(x.shape, x.dtype, affine(st.out, w, b, channel));
}

/**
 * b_c = a_c / (k + alpha * avg)^beta, avg the mean of a^2 over channels c - floor(size / 2) to
 * c + floor((size - 1) / 2) with zeros past the edges, always divided by size (an int64 input's average is an
 * integer division, and its result float32).
 */
export function localResponseNormRef(s: RefSample): RefTensor {
  const x = s.input;
  const size = argOf(s, 0, 'size', 1) as number;
  const alpha = argOf(s, 1, 'alpha', 1e-4) as number;
  const beta = argOf(s, 2, 'beta', 0.75) as number;
  const k = argOf(s, 3, 'k', 1) as number;
  const C = x.shape[1];
  const inner = numelOf(x.shape.slice(2));
  const isInt = x.dtype === 'int64';
  const out = x.re.map((v, i) => {
    const c = Math.floor(i / inner) % C;
    let sum = 0;
    for (let j = c - Math.floor(size / 2); j <= c + Math.floor((size - 1) / 2); j++)
      if (j >= 0 && j < C) sum += x.re[i + (j - c) * inner] ** 2;
    const avg = isInt ? Math.floor(sum / size) : sum / size;
    return v / (k + alpha * avg) ** beta;
  });
  const dtype: DType = isInt ? 'float32' : x.dtype;
  return refTensor(x.shape, dtype, out);
}
