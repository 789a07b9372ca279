/**
 * The CTC kernels (Graves et al. 2006) as PyTorch 1.13's CPU ones compute them: _ctc_loss runs the alpha
 * recursion in log space over the blank-extended targets l' (eq. 6-8) and returns each entry's negative log
 * likelihood with the log alphas; _ctc_loss_backward runs the beta recursion (eq. 10-11) and returns
 * exp(lp) - exp(log sum alpha beta + nll - lp) times the incoming gradient (eq. 16). float32 / float64 (aten's
 * dispatch); log_probs and targets are read through their strides.
 */

import { numberReader, numberWriter } from '../../../backends/cpu/index.ts';
import {
  DTYPE_INFO,
  DTypeUnsupportedError,
  InvalidArgumentError,
  ShapeMismatchError,
  type Tensor,
} from '../../../core/index.ts';
import type { BoundArgs } from '../../../dispatch/index.ts';
import { indexReader, notImplementedFor, callTensor as t } from '../../op_helpers.ts';

export const C = 'ctc_loss_cpu';
const NEG_INF = Number.NEGATIVE_INFINITY;

interface Ctc {
  readonly logProbs: Tensor;
  readonly targets: Tensor;
  readonly il: readonly number[];
  readonly tl: readonly number[];
  readonly blank: number;
  readonly batch: number;
  readonly labels: number;
  /** Where batch entry b's targets start, and the step between them. */
  readonly offsets: readonly number[];
  readonly stride: number;
  readonly maxTarget: number;
}

export const shapeError = (message: string, arg: string, got: unknown) =>
  new ShapeMismatchError(message, { op: 'ctc_loss', arg, got });

/** Lengths given as a tensor: integral, read on the host (aten's .to(kCPU, kLong)). */
export function lengthsOf(v: unknown, name: string): number[] {
  if (Array.isArray(v)) return v.map(Number);
  const x = v as Tensor;
  if (DTYPE_INFO[x.dtype].kind !== 'int')
    throw new DTypeUnsupportedError(`${name} must be integral`, { op: 'ctc_loss', arg: name, got: x.dtype });
  const cpu = t('contiguous', [t('to', [x, 'cpu'])]);
  const read = indexReader(cpu);
  return Array.from({ length: cpu.numel }, (_, i) => read(cpu.storageOffset + i));
}

/** ctc_loss_cpu_template's checks, in its order. */
export function checkCtc(a: BoundArgs): Ctc {
  const logProbs = a.log_probs as Tensor;
  const targets = a.targets as Tensor;
  const il = lengthsOf(a.input_lengths, 'input_lengths');
  const tl = lengthsOf(a.target_lengths, 'target_lengths');
  const blank = a.blank as number;
  if (targets.dtype !== 'int64')
    throw new DTypeUnsupportedError(
      `expected scalar type Long but found ${DTYPE_INFO[targets.dtype].torchName}`,
      { op: 'ctc_loss', arg: 'targets', got: targets.dtype, expected: 'int64' },
    );
  if (logProbs.dim() !== 3)
    throw shapeError(
      `Expected 3-dimensional tensor, but got ${logProbs.dim()}-dimensional tensor for argument #1 'log_probs' (while checking arguments for ${C})`,
      'log_probs',
      logProbs.dim(),
    );
  if (targets.dim() < 1 || targets.dim() > 2)
    throw shapeError(
      `Expected 1 to 2 dimensions, but got ${targets.dim()}-dimensional tensor for argument #2 'targets' (while checking arguments for ${C})`,
      'targets',
      targets.dim(),
    );
  const [, batch, labels] = logProbs.shape;
  if (!(blank >= 0 && blank < labels))
    throw new InvalidArgumentError('blank must be in label range', {
      op: 'ctc_loss',
      arg: 'blank',
      got: blank,
    });
  if (il.length !== batch)
    throw shapeError('input_lengths must be of size batch_size', 'input_lengths', il.length);
  if (tl.length !== batch)
    throw shapeError('target_lengths must be of size batch_size', 'target_lengths', tl.length);
  const maxTarget = Math.max(0, ...tl);
  const offsets: number[] = [];
  let stride: number;
  if (targets.dim() === 1) {
    let pos = 0;
    for (const n of tl) {
      offsets.push(pos);
      pos += n;
    }
    stride = targets.strides[0];
    if (targets.shape[0] !== pos)
      throw shapeError(
        `Expected tensor to have size ${pos} at dimension 0, but got size ${targets.shape[0]} for argument #2 'targets' (while checking arguments for ${C})`,
        'targets',
        targets.shape[0],
      );
    offsets.forEach((o, b) => {
      offsets[b] = o * stride;
    });
  } else {
    for (let b = 0; b < batch; b++) offsets.push(b * targets.strides[0]);
    stride = targets.strides[1];
    if (targets.shape[0] !== batch)
      throw shapeError(
        `Expected tensor to have size ${batch} at dimension 0, but got size ${targets.shape[0]} for argument #2 'targets' (while checking arguments for ${C})`,
        'targets',
        targets.shape[0],
      );
    if (targets.shape[1] < maxTarget)
      throw shapeError(
        `Expected tensor to have size at least ${maxTarget} at dimension 1, but got size ${targets.shape[1]} for argument #2 'targets' (while checking arguments for ${C})`,
        'targets',
        targets.shape[1],
      );
  }
  for (const n of il)
    if (n > logProbs.shape[0])
      throw shapeError(
        `Expected input_lengths to have value at most ${logProbs.shape[0]}, but got value ${n} (while checking arguments for ${C})`,
        'input_lengths',
        n,
      );
  if (logProbs.dtype !== 'float32' && logProbs.dtype !== 'float64')
    throw notImplementedFor(C, logProbs.dtype, 'ctc_loss', 'log_probs');
  return { logProbs, targets, il, tl, blank, batch, labels, offsets, stride, maxTarget };
}

/** log(exp(a) + exp(b) + exp(c)) as aten writes it: the maximum factored out, 0 when all are -inf. */
function logSum3(a: number, b: number, c: number): number {
  let m = Math.max(a, b, c);
  if (m === NEG_INF) m = 0;
  return Math.log(Math.exp(a - m) + Math.exp(b - m) + Math.exp(c - m)) + m;
}

/** Per-batch accessors: log_probs[t, b, c] through its strides, l'[s] (blank at even s). */
function accessors(k: Ctc, b: number) {
  const lp = k.logProbs;
  const read = numberReader(lp.dtype);
  const data = lp.storage.data!;
  const [st, sb, sc] = lp.strides;
  const base = lp.storageOffset + b * sb;
  const target = indexReader(k.targets);
  const tOff = k.targets.storageOffset + k.offsets[b];
  return {
    lp: (time: number, c: number) => read(data, base + time * st + c * sc),
    prime: (s: number) => (s % 2 === 0 ? k.blank : target(tOff + ((s - 1) / 2) * k.stride)),
  };
}

/** The dtype's rounding of each stored alpha / beta (aten's scalar_t). */
const rounder = (x: Tensor) => (x.dtype === 'float32' ? Math.fround : (v: number) => v);

export function ctcForward(a: BoundArgs): Tensor[] {
  const k = checkCtc(a);
  const [tMax] = k.logProbs.shape;
  const width = 2 * k.maxTarget + 1;
  const r = rounder(k.logProbs);
  const nll = t('empty', [[k.batch]], { dtype: k.logProbs.dtype });
  // Entries past an entry's input or target length stay -inf (aten leaves them uninitialised).
  const alpha = new Float64Array(k.batch * tMax * width).fill(NEG_INF);
  const write = numberWriter(k.logProbs.dtype);
  for (let b = 0; b < k.batch; b++) {
    const { lp, prime } = accessors(k, b);
    const [n, len] = [k.il[b], k.tl[b]];
    const at = (time: number, s: number) => (b * tMax + time) * width + s;
    alpha[at(0, 0)] = lp(0, k.blank);
    if (len > 0) alpha[at(0, 1)] = lp(0, prime(1));
    for (let time = 1; time < n; time++)
      for (let s = 0; s <= 2 * len; s++) {
        const la2 = s > 0 ? alpha[at(time - 1, s - 1)] : NEG_INF;
        const la3 = s > 1 && prime(s - 2) !== prime(s) ? alpha[at(time - 1, s - 2)] : NEG_INF;
        alpha[at(time, s)] = r(r(logSum3(alpha[at(time - 1, s)], la2, la3)) + lp(time, prime(s)));
      }
    let value: number;
    if (len === 0) value = -alpha[at(n - 1, 0)];
    else {
      const [l1, l2] = [alpha[at(n - 1, 2 * len)], alpha[at(n - 1, 2 * len - 1)]];
      let m = Math.max(l1, l2);
      if (m === NEG_INF) m = 0;
      value = -(Math.log(Math.exp(l1 - m) + Math.exp(l2 - m)) + m);
    }
    write(nll.storage.data!, b, value);
  }
  const logAlpha = t('empty', [[k.batch, tMax, width]], { dtype: k.logProbs.dtype });
  for (let i = 0; i < alpha.length; i++) write(logAlpha.storage.data!, i, alpha[i]);
  return [nll, logAlpha];
}

export function ctcMeta(a: BoundArgs): Tensor[] {
  const k = checkCtc(a);
  const o = { dtype: k.logProbs.dtype, device: 'meta' };
  return [t('empty', [[k.batch]], o), t('empty', [[k.batch, k.logProbs.shape[0], 2 * k.maxTarget + 1]], o)];
}

/** The beta recursion and eq. 16, per batch entry, as aten's ctc_loss_backward_cpu_template. */
export function ctcBackward(a: BoundArgs): Tensor {
  const k = checkCtc(a);
  const [tMax, , labels] = k.logProbs.shape;
  const width = 2 * k.maxTarget + 1;
  const r = rounder(k.logProbs);
  const readF = numberReader(k.logProbs.dtype);
  const vec = (x: Tensor) => (i: number) => readF(x.storage.data!, x.storageOffset + i * (x.strides[0] ?? 0));
  const gradOut = vec(a.grad as Tensor);
  const nllOf = vec(a.neg_log_likelihood as Tensor);
  const la = a.log_alpha as Tensor;
  const alphaAt = (b: number, time: number, s: number) =>
    readF(la.storage.data!, la.storageOffset + b * la.strides[0] + time * la.strides[1] + s * la.strides[2]);
  const grad = t('zeros', [[...k.logProbs.shape]], { dtype: k.logProbs.dtype });
  const write = numberWriter(grad.dtype);
  const [gt, gb] = [grad.strides[0], grad.strides[1]];
  for (let b = 0; b < k.batch; b++) {
    const nll = nllOf(b);
    const [n, len] = [k.il[b], k.tl[b]];
    if (n === 0 || (a.zero_infinity && nll === Number.POSITIVE_INFINITY)) continue;
    const { lp, prime } = accessors(k, b);
    const beta = new Float64Array(tMax * width).fill(NEG_INF);
    const collected = new Float64Array(tMax * labels).fill(NEG_INF);
    const add = (time: number, c: number, v: number) => {
      const i = time * labels + c;
      const cur = collected[i];
      if (cur === NEG_INF) collected[i] = v;
      else {
        const m = Math.max(cur, v);
        collected[i] = r(Math.log(Math.exp(cur - m) + Math.exp(v - m)) + m);
      }
    };
    beta[(n - 1) * width + 2 * len] = lp(n - 1, k.blank);
    collected[(n - 1) * labels + k.blank] = r(alphaAt(b, n - 1, 2 * len) + beta[(n - 1) * width + 2 * len]);
    if (len > 0) {
      const c = prime(2 * len - 1);
      beta[(n - 1) * width + 2 * len - 1] = lp(n - 1, c);
      collected[(n - 1) * labels + c] = r(
        alphaAt(b, n - 1, 2 * len - 1) + beta[(n - 1) * width + 2 * len - 1],
      );
    }
    for (let time = n - 2; time >= 0; time--)
      for (let s = 2 * len; s >= 0; s--) {
        const next = (time + 1) * width;
        const lb2 = s < 2 * len ? beta[next + s + 1] : NEG_INF;
        const lb3 = s < 2 * len - 1 && prime(s + 2) !== prime(s) ? beta[next + s + 2] : NEG_INF;
        const v = r(r(logSum3(beta[next + s], lb2, lb3)) + lp(time, prime(s)));
        beta[time * width + s] = v;
        add(time, prime(s), r(alphaAt(b, time, s) + v));
      }
    const g = gradOut(b);
    for (let time = 0; time < n; time++)
      for (let c = 0; c < labels; c++) {
        const p = lp(time, c);
        const v = (Math.exp(p) - Math.exp(collected[time * labels + c] + nll - p)) * g;
        write(grad.storage.data!, time * gt + b * gb + c * grad.strides[2], v);
      }
  }
  return grad;
}
