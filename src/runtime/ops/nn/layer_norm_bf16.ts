/**
 * native_layer_norm of a bfloat16 cpu input, rounded where PyTorch 1.13's CPU kernel rounds: the row statistics in
 * bfloat16 (bf16_moments.ts), rstd = 1 / sqrt(var + eps) with eps and each step in bfloat16, the shift
 * -rstd * mean in bfloat16; then (x * rstd + shift) * weight + bias in float32, rounded once. The values come from
 * those roundings and the gradients from the decomposition (layer_norm.ts): each statistic is the decomposition's,
 * moved to the rounded value by a constant.
 */
import { numberReader } from '../../backends/cpu/index.ts';
import { roundBf16, Tensor } from '../../core/index.ts';
import { callTensor as t } from '../op_helpers.ts';
import { bf16RowMoments } from './bf16_moments.ts';

type Opt = Tensor | null;

/** `c` with `v`'s value (v needs no gradient) and c's gradient: c + (v - c), exact in float64 for float32 values. */
function pin(c: Tensor, v: Tensor): Tensor {
  const c64 = t('to', [c, 'float64']);
  const moved = t('add', [c64, t('detach', [t('sub', [t('to', [v, 'float64']), c64])])]);
  // Equal values (infinities included, where v - c is NaN) keep c itself.
  return t('where', [t('eq', [c, v]), c, t('to', [moved, c.dtype])]);
}

/** Per row of `x` (rows of n elements, contiguous): [mean, rstd, -rstd * mean] as PyTorch rounds them. */
function rowStats(x: Tensor, rows: number, n: number, eps: number, shape: readonly number[]): Tensor[] {
  const xc = t('contiguous', [x]);
  const read = numberReader('bfloat16');
  const data = xc.storage.data!;
  const out = [0, 1, 2].map(() => Tensor.empty([...shape], 'float32', 'cpu'));
  const [M, R, S] = out.map((o) => o.storage.data as Float32Array);
  const e = roundBf16(eps);
  const row = new Float64Array(n);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < n; j++) row[j] = read(data, xc.storageOffset + i * n + j);
    const [mean, variance] = bf16RowMoments(row);
    const rstd = roundBf16(1 / roundBf16(Math.sqrt(roundBf16(variance + e))));
    M[i] = mean;
    R[i] = rstd;
    S[i] = roundBf16(-rstd * mean);
  }
  return out;
}

/**
 * The outputs [y, mean, rstd] for x (bfloat16, cpu) normalized over its dims from `axis`; `mean` and `rstd` are the
 * decomposition's float32 statistics (their dims kept), `x32` the input in float32.
 */
export function layerNormBf16(
  x: Tensor,
  x32: Tensor,
  axis: number,
  eps: number,
  mean: Tensor,
  rstd: Tensor,
  weight: Opt,
  bias: Opt,
): [Tensor, Tensor, Tensor] {
  const n = x.shape.slice(axis).reduce((p, s) => p * s, 1);
  const rows = x.numel / n;
  const [meanR, rstdR, shiftR] = rowStats(x, rows, n, eps, mean.shape);
  const scale = pin(rstd, rstdR);
  const shift = pin(t('neg', [t('mul', [rstd, mean])]), shiftR);
  let y = t('add', [t('mul', [x32, scale]), shift]);
  if (weight) y = t('mul', [y, t('to', [weight, 'float32'])]);
  if (bias) y = t('add', [y, t('to', [bias, 'float32'])]);
  const stat = (v: Tensor) => t('to', [v, 'bfloat16']);
  return [t('to', [y, 'bfloat16']), stat(meanR), stat(rstdR)];
}
