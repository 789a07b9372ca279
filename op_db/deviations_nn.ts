/**
 * Declared deviations of the nn ops (torch.nn.functional and their aten ops) from PyTorch 1.13's recorded results:
 * mostly the CPU kernels PyTorch 1.13 lacks for float16 / bfloat16. See deviations.ts for the rules.
 */
import {
  BF16_TRANSPOSED,
  bf16ResampleSums,
  COMPLEX_BLAS_DOT,
  type Declared,
  NO_HALF_DISTANCE,
  NO_SPARSE,
  nnf,
  noCpuKernel,
  noPoolKernel,
  noResampleKernel,
} from './deviation_kinds.ts';

export const NN_DEVIATIONS: Readonly<Record<string, Declared>> = {
  'nn.functional.mish': noCpuKernel('float16', 'bfloat16'),
  'nn.functional.soft_margin_loss': noCpuKernel('float16'),
  'nn.functional.multilabel_soft_margin_loss': noCpuKernel('float16'),
  'nn.functional.gelu': noCpuKernel('float16'),
  ...Object.fromEntries(['conv1d', 'conv2d', 'conv3d'].map((n) => [nnf(n), noCpuKernel('float16')])),
  ...Object.fromEntries(
    ['conv_transpose1d', 'conv_transpose2d', 'conv_transpose3d'].map((n) => [
      nnf(n),
      { deviations: [...(noCpuKernel('float16').deviations ?? []), BF16_TRANSPOSED] },
    ]),
  ),
  'nn.functional.mse_loss': noCpuKernel('bfloat16'),
  'nn.functional.nll_loss': noCpuKernel('float16'),
  'nn.functional.binary_cross_entropy': noCpuKernel('float16', 'bfloat16'),
  'nn.functional.poisson_nll_loss': noCpuKernel('float16'),
  'nn.functional.kl_div': {
    deviations: noCpuKernel('float16').deviations!.map((d) => ({ ...d, sample: 'log_target' })),
  },
  ...Object.fromEntries(
    ['batch_norm', 'instance_norm', 'layer_norm', 'group_norm']
      .map(nnf)
      .concat('native_batch_norm', 'native_layer_norm')
      .map((op) => [op, noCpuKernel('float16')]),
  ),
  'nn.functional.local_response_norm': {
    deviations: [
      {
        dtypes: ['float16'],
        kind: 'sample',
        reason:
          'PyTorch 1.13 has no CPU float16 avg_pool2d / avg_pool3d kernel (it raises "not implemented for ' +
          "'Half'\"); the runtime computes local_response_norm's steps in float16 as Python does, with the " +
          'window average accumulated in float32 and rounded once, as the bfloat16 kernel does',
      },
      ...['4-d', '5-d'].map((sample) => ({
        dtypes: ['bfloat16' as const],
        sample,
        kind: 'sample' as const,
        reason:
          'PyTorch 1.13 has no CPU bfloat16 avg_pool3d kernel, which local_response_norm uses past 3 dims (it ' +
          'raises "avg_pool3d_out_frame" not implemented for \'BFloat16\'); the runtime computes it as it does in 3 ' +
          'dims (avg_pool2d, which has a bfloat16 kernel)',
      })),
    ],
  },
  ...Object.fromEntries(
    [1, 2].flatMap((n) => [
      [nnf(`max_pool${n}d`), noCpuKernel('float16')],
      [nnf(`avg_pool${n}d`), noCpuKernel('float16')],
    ]),
  ),
  ...Object.fromEntries(
    ['max_pool3d', 'avg_pool3d', 'max_unpool1d', 'max_unpool2d', 'max_unpool3d'].map((n) => [
      nnf(n),
      noCpuKernel('float16', 'bfloat16'),
    ]),
  ),
  // aten::max_unpool2d itself (its OpInfo reaches the out= kernel), the same missing kernel.
  max_unpool2d: noCpuKernel('float16', 'bfloat16'),
  // The aten ops whose OpInfos reach the pooling out= kernels: the same missing kernels as F's.
  max_pool2d_with_indices: noCpuKernel('float16'),
  max_pool3d_with_indices: noCpuKernel('float16', 'bfloat16'),
  adaptive_avg_pool2d: noCpuKernel('float16'),
  adaptive_max_pool2d: noCpuKernel('float16'),
  fractional_max_pool2d: noCpuKernel('float16', 'bfloat16'),
  'nn.functional.pad': {
    deviations: [
      ...['reflect 1-d', 'reflect 2-d', 'replicate'].flatMap((sample) =>
        (['float16', 'bfloat16'] as const).map((dtype) => ({
          dtypes: [dtype],
          sample,
          kind: 'sample' as const,
          reason:
            `PyTorch 1.13 has no CPU ${dtype} kernel for reflection_pad1d / reflection_pad2d / replication_pad{1,2,3}d ` +
            "(it raises \"not implemented for 'Half'\" or 'BFloat16'; reflection_pad3d has both); padding only moves " +
            "elements, so the runtime pads every floating dtype, as PyTorch's CUDA kernels do",
        })),
      ),
      {
        kind: 'error',
        sample: 'unsupported operation: some elements of',
        reason:
          'a circular pad wider than the cropped window ([3, -1] on width 3) makes PyTorch 1.13 copy between ' +
          'overlapping slices of its output: it returns uninitialised memory in a fresh process and raises the ' +
          'overlap error after other calls (allocator-dependent, so a recording flips per dtype); the runtime ' +
          'always raises that error',
      },
    ],
  },
  'nn.functional.adaptive_avg_pool1d': noPoolKernel('float16'),
  'nn.functional.adaptive_avg_pool2d': noPoolKernel('float16'),
  'nn.functional.adaptive_avg_pool3d': noPoolKernel('bfloat16'),
  'nn.functional.adaptive_max_pool1d': noCpuKernel('float16'),
  'nn.functional.adaptive_max_pool2d': noCpuKernel('float16'),
  'nn.functional.adaptive_max_pool3d': noCpuKernel('float16', 'bfloat16'),
  'nn.functional.fractional_max_pool2d': {
    deviations: [
      ...noCpuKernel('float16', 'bfloat16').deviations!,
      {
        kind: 'error',
        sample: 'random_samples of another shape',
        reason:
          'PyTorch 1.13 reads N * C * 2 values of _random_samples in memory order without checking its shape (a ' +
          'longer tensor is used in part, a shorter one read past its end); the runtime raises a shape check',
      },
    ],
  },
  'nn.functional.fractional_max_pool3d': noCpuKernel('float16', 'bfloat16'),
  'nn.functional.embedding': NO_SPARSE,
  'nn.functional.multi_margin_loss': {
    deviations: [
      {
        kind: 'error',
        sample: 'weight of 5 for 4 classes',
        reason:
          'PyTorch 1.13 reads weight[target] without checking the weight has one element per class (a longer ' +
          'weight is used in part, a shorter one read past its end); the runtime raises the size check later ' +
          'releases have ("inconsistent weight size")',
      },
    ],
  },
  'nn.functional.embedding_bag': {
    ...NO_SPARSE,
    tolerances: {
      float16: {
        rtol: 5e-3,
        atol: 1e-5,
        reason:
          "max_norm: PyTorch 1.13's CPU norm accumulates a float16 row's powers in float16, so its renormalising " +
          'factor is off by a few float16 ulps; the runtime accumulates in float32',
      },
    },
  },
  'nn.functional.interpolate': {
    deviations: [
      ...noResampleKernel({
        float16: ['nearest', 'linear', 'bicubic', 'area 2-d'],
        bfloat16: ['nearest-exact', 'area 3-d', 'antialias bilinear'],
      }).deviations!,
      {
        dtypes: ['bfloat16'],
        sample: 'bicubic',
        reason:
          "PyTorch 1.13's CPU bfloat16 bicubic computes the cubic coefficients and their sums in bfloat16 " +
          'arithmetic (each step rounded), up to 25% off; the runtime computes them in float32 and rounds once',
      },
    ],
    tolerances: bf16ResampleSums({ rtol: 1.6e-2, atol: 1.5e-2 }),
  },
  upsample_nearest2d: noCpuKernel('float16'),
  upsample_bilinear2d: {
    ...noCpuKernel('float16'),
    tolerances: bf16ResampleSums({ rtol: 1.6e-2, atol: 1.2e-2 }),
  },
  nll_loss2d: noCpuKernel('float16'),
  nll_loss: noCpuKernel('float16'),
  soft_margin_loss: noCpuKernel('float16'),
  'nn.functional.upsample_nearest': noResampleKernel({ float16: ['nearest'] }),
  'nn.functional.upsample_bilinear': {
    ...noResampleKernel({ float16: ['bilinear'] }),
    tolerances: bf16ResampleSums({ rtol: 1.6e-2, atol: 1.2e-2 }),
  },
  'nn.functional.linear': {
    deviations: [{ ...COMPLEX_BLAS_DOT.deviations![0], sample: '(dot)' }],
  },
  'nn.functional.pdist': NO_HALF_DISTANCE,
  cdist: NO_HALF_DISTANCE,
};
