/**
 * Shared by the normalization OpInfos (op_db/ops/nn/norm/batch_norm.ts and layer_norm.ts): sample makers, skip
 * rules and the tolerances PyTorch's less accurate bfloat16 kernels need.
 */
import type { Tensor } from '../../src/runtime/index.ts';
import { maker } from '../make.ts';
import type { RefTensor } from '../refs/tensor.ts';
import type { ErrorInput, SampleContext, SampleInput, SkipRule, Tolerance } from '../types.ts';

export type Opt = RefTensor | null;
export const ofInput = (s: SampleInput) => (s.input as Tensor).dtype;

/** The running statistics a sample writes: the expanded layout makes them overlap themselves. */
export const EXPANDED_STATS: SkipRule = {
  kind: 'skip',
  layout: 'expanded',
  reason:
    'the expanded layout makes the written-to running statistics internally overlapping (stride 0): the runtime ' +
    "refuses to write them, as copy_ and PyTorch's instance_norm do (PyTorch's batch_norm kernel writes each " +
    'element through, the last channel winning)',
};

/** The golden tolerance for bfloat16 (rtol, atol per op: a few times what its recorded samples need). */
export const bf16Stats = (tol: Tolerance) => ({
  bfloat16: {
    ...tol,
    reason:
      "PyTorch 1.13's CPU normalization kernels compute a bfloat16 input's statistics and the folded affine " +
      'coefficients (x * rstd * weight + (bias - mean * rstd * weight)) in bfloat16 arithmetic (group_norm on ' +
      "channels-first input: layer_norm's Welford steps, then each product and sum rounded; its channels-last " +
      'kernel rounds in other places), so the result is off by a bfloat16 ulp of those larger intermediates ' +
      'where they cancel; the runtime computes in float32 and rounds once (the reference oracle holds it to the ' +
      'exact result)',
  },
});

/** PyTorch's gradcheck checks non-differentiable outputs only when no output is differentiable; the platform's always. */
export const STATS_NOT_DIFFERENTIABLE: SkipRule = {
  kind: 'skip',
  oracle: 'gradcheck',
  reason:
    'the saved mean / 1/std outputs are not differentiable (output_differentiability [True, False, False], as in ' +
    "PyTorch) yet change with the input, which this gradcheck refuses and PyTorch's (checking them only when no " +
    'output is differentiable) allows; gradgradcheck, the golden gradients and the nn.functional spelling check ' +
    'output 0',
};

export const raises = (s: SampleInput, code: ErrorInput['code'], regex: RegExp): ErrorInput => ({
  sample: s,
  code,
  regex,
});

/** Tensors of a sample: values in [-9, 9]; running variances and grad-free stats positive. */
export function makers(ctx: SampleContext) {
  const make = maker(ctx);
  const positive = (shape: number[]) => make(shape, { low: 0.5, high: 2 });
  // bfloat16 inputs also take float32 parameters (PyTorch's mixed-dtype batch norm).
  const f32 = maker({ ...ctx, dtype: 'float32' }, 7);
  return { make, positive, f32 };
}
