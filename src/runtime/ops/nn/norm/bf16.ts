/**
 * layer_norm and group_norm of a bfloat16 cpu input, rounded where PyTorch 1.13's CPU kernels round. The values come
 * from those roundings and the gradients from the decomposition (layer_norm.ts): each statistic is the
 * decomposition's, moved to the rounded value by a constant.
 */
import { numberReader } from '../../../backends/cpu/index.ts';
import { roundBf16, Tensor } from '../../../core/index.ts';
import { callTensor as t } from '../../op_helpers.ts';
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
 * native_layer_norm: the row statistics in bfloat16 (bf16_moments.ts), rstd = 1 / sqrt(var + eps) with eps and each
 * step in bfloat16, the shift -rstd * mean in bfloat16; then (x * rstd + shift) * weight + bias in float32, rounded
 * once. The outputs [y, mean, rstd] for x normalized over its dims from `axis`; `mean` and `rstd` are the
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

/**
 * group_norm of a bfloat16 cpu input in channels-first memory, rounded as PyTorch 1.13's GroupNormKernelImpl
 * (probed bit for bit): each group's statistics as layer_norm's (RowwiseMoments in bfloat16, rstd in bfloat16),
 * then every step in bfloat16, (x - mean) * rstd, or with weight or bias scale * x + shift where
 * scale = rstd * weight and shift = -scale * mean + bias. `mean` and `rstd` are the decomposition's ([N, G, 1]).
 */
export function groupNormBf16(
  x: Tensor,
  x32: Tensor,
  groups: number,
  eps: number,
  mean: Tensor,
  rstd: Tensor,
  weight: Opt,
  bias: Opt,
): Tensor {
  const [N, C] = x.shape;
  const n = x.numel / (N * groups);
  const [meanR, rstdR] = rowStats(x, N * groups, n, eps, mean.shape);
  const perChannel = (s: Tensor) => {
    const byChannel = t('reshape', [t('expand', [s, [N, groups, C / groups]]), [N, C]]);
    return t('reshape', [byChannel, [N, C, ...x.shape.slice(2).map(() => 1)]]);
  };
  const m = perChannel(pin(mean, meanR));
  const r = perChannel(pin(rstd, rstdR));
  const bf = (v: Tensor) => t('to', [t('to', [v, 'bfloat16']), 'float32']);
  const param = (p: Tensor) => t('reshape', [t('to', [p, 'float32']), [C, ...x.shape.slice(2).map(() => 1)]]);
  if (!weight && !bias) return t('to', [t('mul', [bf(t('sub', [x32, m])), r]), 'bfloat16']);
  const scale = weight ? bf(t('mul', [r, param(weight)])) : r;
  const negMean = bf(t('mul', [t('neg', [scale]), m]));
  const shift = bias ? bf(t('add', [negMean, param(bias)])) : negMean;
  return t('to', [t('add', [bf(t('mul', [scale, x32])), shift]), 'bfloat16']);
}
