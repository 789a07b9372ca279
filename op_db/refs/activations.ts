/**
 * float64 references for torch.nn.functional's pointwise activations, from their definitions in PyTorch's
 * documentation (not aten's kernels): piecewise formulas, Phi(x) through erfRef, logsigmoid as -log(1 + e^-x).
 */
import { erfRef } from './special.ts';

const SELU_ALPHA = 1.6732632423543772;
const SELU_SCALE = 1.0507009873554805;
/** Numbers in a sample's kwargs (Scalars already numbers in a RefSample), with the documented defaults. */
export type Kw = Readonly<Record<string, unknown>>;
const n = (kw: Kw, name: string, dflt: number): number => (kw[name] === undefined ? dflt : Number(kw[name]));
const softplus = (x: number) => (x > 30 ? x : Math.log(1 + Math.exp(x)));

/** ELU(x) = scale * (x if x > 0 else alpha * (exp(input_scale * x) - 1)). */
export const eluRef = (x: number, kw: Kw) =>
  x > 0
    ? n(kw, 'scale', 1) * x
    : n(kw, 'scale', 1) * n(kw, 'alpha', 1) * (Math.exp(n(kw, 'input_scale', 1) * x) - 1);

export const ACTIVATION_REFS: Readonly<Record<string, (x: number, kw: Kw) => number>> = {
  elu: eluRef,
  celu: (x, kw) => Math.max(0, x) + Math.min(0, n(kw, 'alpha', 1) * (Math.exp(x / n(kw, 'alpha', 1)) - 1)),
  selu: (x) => SELU_SCALE * (Math.max(0, x) + Math.min(0, SELU_ALPHA * (Math.exp(x) - 1))),
  gelu: (x, kw) =>
    kw.approximate === 'tanh'
      ? 0.5 * x * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (x + 0.044715 * x ** 3)))
      : x * 0.5 * (1 + erfRef(x / Math.SQRT2)),
  hardshrink: (x, kw) => (Math.abs(x) > n(kw, 'lambd', 0.5) || Number.isNaN(x) ? x : 0),
  softshrink: (x, kw) => {
    const l = n(kw, 'lambd', 0.5);
    return x > l ? x - l : x < -l ? x + l : 0;
  },
  hardsigmoid: (x) => (x <= -3 ? 0 : x >= 3 ? 1 : x / 6 + 0.5),
  // x * relu6(x + 3) / 6 in that order, as PyTorch evaluates it: x * 6 overflows to inf near the float max.
  hardswish: (x) => (x * Math.min(Math.max(x + 3, 0), 6)) / 6,
  // The documented max_val if x > max_val, min_val if x < min_val: the upper limit wins when they cross.
  hardtanh: (x, kw) =>
    x > n(kw, 'max_val', 1)
      ? n(kw, 'max_val', 1)
      : x < n(kw, 'min_val', -1)
        ? Math.min(n(kw, 'min_val', -1), n(kw, 'max_val', 1))
        : x,
  relu6: (x) => Math.min(Math.max(x, 0), 6),
  leaky_relu: (x, kw) => (x >= 0 ? x : n(kw, 'negative_slope', 0.01) * x),
  log_sigmoid: (x) => (x >= 0 ? -Math.log1p(Math.exp(-x)) : x - Math.log1p(Math.exp(x))),
  mish: (x) => x * Math.tanh(softplus(x)),
  threshold: (x, kw) => (x > Number(kw.threshold) || Number.isNaN(x) ? x : Number(kw.value)),
};
