/**
 * OpInfos for nn.functional.fractional_max_pool2d / 3d. Samples with `_random_samples` given are deterministic
 * and compared with PyTorch exactly; without, the op draws torch.rand(N, C, 2 | 3) (`randomized`: every oracle
 * reseeds first; the golden oracle compares all but the drawn windows' values). No float64 reference: the windows
 * come from aten's interval generator itself, so PyTorch's recorded results are the spec.
 */
import { DTYPE_GROUPS, type Tensor } from '../../../../src/runtime/index.ts';
import { errorCase, exact, f32 } from '../../../families/shape.ts';
import { sample } from '../../../families/unary.ts';
import { opInfo } from '../../../info.ts';
import { maker } from '../../../make.ts';
import { numelOf, type RefTensor, refTensor } from '../../../refs/tensor.ts';
import type { ErrorInput, OpInfo, RefSample, SampleContext, SampleInput } from '../../../types.ts';

/** Uniform samples in [0, 0.95): a reduced float could round a value just under 1 up to 1. */
const UNIFORM = { low: 0, high: 0.95 } as const;

/**
 * Gradient samples draw their windows: a given float64 `_random_samples` would require grad too, which PyTorch
 * refuses (it is not differentiable).
 */
function samples2d(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const u = (shape: number[]) => make(shape, UNIFORM);
  if (ctx.requiresGrad)
    return [
      sample(make([1, 2, 4, 5]), [2, 3], { return_indices: true }, { name: 'drawn samples', draws: true }),
      sample(make([2, 3, 5]), [[2, 1]], { output_ratio: 0.6 }, { name: 'drawn, unbatched', draws: true }),
    ];
  return [
    sample(
      make([1, 2, 5, 7]),
      [2],
      { output_size: [3, 4], return_indices: true, _random_samples: u([1, 2, 2]) },
      { name: 'samples given, [1, 2, 5, 7] -> [3, 4], return_indices' },
    ),
    sample(
      make([2, 6, 6]),
      [[2, 3]],
      { output_ratio: 0.5, _random_samples: u([1, 2, 2]) },
      { name: 'samples given, unbatched, kernel (2, 3), output_ratio' },
    ),
    sample(
      make([2, 1, 3, 3]),
      [3, 1],
      { output_ratio: [0.9, 0.1], _random_samples: u([2, 1, 2]) },
      { name: 'samples given, one window of the whole plane (output_size wins)' },
    ),
    // The golden oracle runs contiguous layouts only: a slice gives _random_samples a storage offset itself.
    // Chosen values: [5, 7] -> [3, 4] with pool 2 has other windows for u = 0 than for u = 0.5 along both axes,
    // so reading the slice before (offset dropped) or one plane's width sample for its height shows.
    sample(
      make([1, 2, 5, 7]),
      [2],
      {
        output_size: [3, 4],
        _random_samples: make.values([0.5, 0.5, 0.5, 0.5, 0, 0.5, 0.5, 0], [2, 2, 2]).narrow(0, 1, 1),
      },
      { name: 'samples given as a slice (storage offset), width and height samples differ' },
    ),
    sample(make([2, 2, 5, 5]), [2, 3], { return_indices: true }, { name: 'drawn samples', draws: true }),
    sample(make([2, 4, 5]), [2], { output_size: [2, 3] }, { name: 'drawn, unbatched', draws: true }),
    sample(
      make([0, 2, 4, 4]),
      [2],
      { output_size: 2, _random_samples: u([0, 2, 2]) },
      { name: 'empty batch' },
    ),
  ];
}

function samples3d(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const u = (shape: number[]) => make(shape, UNIFORM);
  if (ctx.requiresGrad)
    return [
      sample(
        make([1, 1, 3, 4, 4]),
        [2, [1, 2, 2]],
        { return_indices: true },
        { name: 'drawn samples', draws: true },
      ),
    ];
  return [
    sample(
      make([1, 1, 3, 4, 4]),
      [2],
      { output_size: [1, 2, 2], return_indices: true, _random_samples: u([1, 1, 3]) },
      { name: 'samples given, [1, 1, 3, 4, 4] -> [1, 2, 2], return_indices' },
    ),
    sample(
      make([2, 3, 3, 3]),
      [[1, 2, 2]],
      { output_ratio: 0.5, _random_samples: u([1, 2, 3]) },
      { name: 'samples given, unbatched, kernel (1, 2, 2), output_ratio' },
    ),
    sample(make([1, 2, 4, 4, 4]), [2, 2], { return_indices: true }, { name: 'drawn samples', draws: true }),
    sample(
      make([0, 1, 3, 3, 3]),
      [2],
      { output_size: 1, _random_samples: u([0, 1, 3]) },
      { name: 'empty batch' },
    ),
  ];
}

function errors2d(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  const u = (shape: number[]) => f32({ ...ctx, seed: ctx.seed + 1 })(shape, UNIFORM);
  const given = (shape: number[]) => ({ output_size: 2, _random_samples: u(shape) });
  return [
    errorCase(
      f([1, 1, 5, 5]),
      [2],
      {},
      'E_INVALID_ARGUMENT',
      /fractional_max_pool2d requires specifying either an output_size or an output_ratio/,
    ),
    errorCase(
      f([1, 1, 1, 5, 5]),
      [2],
      given([1, 1, 2]),
      'E_INVALID_ARGUMENT',
      /fractional_max_pool2d\(\): Expected 3D or 4D tensor, but got: \[1, 1, 1, 5, 5\]/,
    ),
    errorCase(
      f([1, 1, 3, 5]),
      [2],
      { output_size: 3, _random_samples: u([1, 1, 2]) },
      'E_INVALID_ARGUMENT',
      /fractional_max_pool2d\(\): pool height 2 too large relative to input height 3/,
    ),
    // PyTorch 1.13 reads the first N * C * 2 samples in memory order without checking (op_db/deviations.ts).
    errorCase(
      f([1, 1, 5, 5]),
      [2],
      { output_size: 2, _random_samples: u([1, 1, 3]) },
      'E_INVALID_ARGUMENT',
      /fractional_max_pool2d: random_samples must have shape \[1, 1, 2\], but got \[1, 1, 3\]/,
      'random_samples of another shape',
    ),
    // At the bound: a window may reach the last element (2d), not one past it.
    errorCase(
      f([1, 1, 4, 4]),
      [3],
      { output_size: 3, _random_samples: u([1, 1, 2]) },
      'E_INVALID_ARGUMENT',
      /fractional_max_pool2d\(\): pool height 3 too large relative to input height 4/,
    ),
    errorCase(
      f([2, 0, 5, 5]),
      [2],
      given([2, 0, 2]),
      'E_INVALID_ARGUMENT',
      /fractional_max_pool2d\(\): Expected input to have non-zero size for non-batch dimensions, but got\[2, 0, 5, 5\] with dimension 1 being empty./,
    ),
    errorCase(
      f([1, 1, 5, 5]),
      [[1, 2, 3]],
      given([1, 1, 2]),
      'E_INVALID_ARGUMENT',
      /fractional_max_pool2d: kernel_size must either be a single Int or tuple of Ints/,
    ),
    errorCase(
      f([1, 1, 5, 5]),
      [2],
      { output_size: 2, _random_samples: exact(ctx, [0.5, 0.5], [1, 1, 2], 'float64') },
      'E_DTYPE_UNSUPPORTED',
      /expected scalar type Float but found Double/,
    ),
    errorCase(
      f([5, 5]),
      [2],
      { output_size: 2 },
      'E_DIM_OUT_OF_RANGE',
      /Dimension out of range \(expected to be in range of \[-2, 1\], but got -3\)/,
    ),
    // Integer samples too: drawn ones would fail in uniform_ first.
    errorCase(
      exact(ctx, new Array(25).fill(1), [1, 1, 5, 5], 'int64'),
      [2],
      { output_size: 2, _random_samples: exact(ctx, [0, 0], [1, 1, 2], 'int64') },
      'E_DTYPE_UNSUPPORTED',
      /"fractional_max_pool2d_out_frame" not implemented for 'Long'/,
    ),
  ];
}

function errors3d(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  const u = (shape: number[]) => f32({ ...ctx, seed: ctx.seed + 1 })(shape, UNIFORM);
  return [
    errorCase(
      f([1, 1, 4, 4, 4]),
      [2],
      {},
      'E_INVALID_ARGUMENT',
      /fractional_max_pool3d requires specifying either an output_size or an output_ratio/,
    ),
    errorCase(
      f([1, 1, 4, 5, 5]),
      [2],
      { output_size: 3, _random_samples: u([1, 1, 3]) },
      'E_INVALID_ARGUMENT',
      /fractional_max_pool3d_out\(\): pool time 2 too large relative to input time 4/,
    ),
    errorCase(
      f([1, 1, 4, 4, 3]),
      [2],
      { output_size: 2, _random_samples: u([1, 1, 3]) },
      'E_INVALID_ARGUMENT',
      /fractional_max_pool3d_out\(\): pool width 2 too large relative to input width 3/,
    ),
    errorCase(
      f([1, 1, 1, 4, 4, 4]),
      [2],
      { output_size: 2, _random_samples: u([1, 1, 3]) },
      'E_INVALID_ARGUMENT',
      /fractional_max_pool3d_out\(\): Expected 4D or 5D tensor, but got: \[1, 1, 1, 4, 4, 4\]/,
    ),
    errorCase(
      f([1, 1, 4, 4, 4]),
      [2],
      { output_size: [2, 2], _random_samples: u([1, 1, 3]) },
      'E_INVALID_ARGUMENT',
      /fractional_max_pool3d: output_size must either be a single Int or tuple of three Ints/,
    ),
    errorCase(
      exact(ctx, new Array(64).fill(1), [1, 1, 4, 4, 4], 'int32'),
      [2],
      { output_size: 2, _random_samples: exact(ctx, [0, 0, 0], [1, 1, 3], 'int32') },
      'E_DTYPE_UNSUPPORTED',
      /"fractional_max_pool3d_out_frame" not implemented for 'Int'/,
    ),
  ];
}

/** PyTorch 1.13 reads `_random_samples` in memory order, ignoring its strides (a bug); the runtime reads strides. */
const STRIDED_SAMPLES = (['transposed', 'strided', 'expanded'] as const).map((layout) => ({
  kind: 'skip' as const,
  oracle: 'golden' as const,
  layout,
  reason:
    "PyTorch 1.13's fractional_max_pool kernels read _random_samples through its data pointer in memory order, " +
    'ignoring its strides, so a non-contiguous samples tensor gives other windows; the runtime reads its values',
}));

/**
 * aten's generate_intervals (FractionalMaxPool2d.cpp): window starts trunc((i + u) * alpha) - trunc(u * alpha),
 * alpha = (in - pool) / (out - 1), the last window flush with the end, in the kernel's scalar type (float, or
 * double for float64 inputs).
 */
function starts(u: number, inSize: number, outSize: number, pool: number, round: (v: number) => number) {
  const alpha = outSize > 1 ? round(round(inSize - pool) / round(outSize - 1)) : 0;
  return Array.from({ length: outSize }, (_, i) =>
    i === outSize - 1
      ? inSize - pool
      : Math.trunc(round(round(i + u) * alpha)) - Math.trunc(round(u * alpha)),
  );
}

/**
 * aten::fractional_max_pool2d(self, kernel_size, output_size, random_samples): each plane's windows from its
 * samples (width's first, then height's); the window's maximum, a NaN winning, and its flat in-plane index.
 */
function fractionalRef(s: RefSample): RefTensor[] {
  const x = s.input;
  const [pool, size, samples] = s.args as [number[], number[], RefTensor];
  const round = x.dtype === 'float64' ? (v: number) => v : Math.fround;
  const lead = x.shape.slice(0, -2);
  const [H, W] = x.shape.slice(-2);
  const values: number[] = [];
  const indices: number[] = [];
  for (let p = 0; p < numelOf(lead); p++) {
    const hs = starts(samples.re[2 * p + 1], H, size[0], pool[0], round);
    const ws = starts(samples.re[2 * p], W, size[1], pool[1], round);
    for (const h0 of hs)
      for (const w0 of ws) {
        let best = h0 * W + w0;
        for (let h = h0; h < h0 + pool[0]; h++)
          for (let w = w0; w < w0 + pool[1]; w++) {
            const v = x.re[p * H * W + h * W + w];
            if (v > x.re[p * H * W + best] || Number.isNaN(v)) best = h * W + w;
          }
        values.push(x.re[p * H * W + best]);
        indices.push(best);
      }
  }
  const shape = [...lead, ...size];
  return [refTensor(shape, x.dtype, values), refTensor(shape, 'int64', indices)];
}

/**
 * aten::fractional_max_pool2d with its samples given as a slice (a storage offset; contiguous, as PyTorch 1.13
 * reads them in memory order) whose width and height samples give other windows: its float64 reference lets
 * the reference oracle run every layout of self, and its `.output(output, indices)` overload the out= checks.
 */
function atenSamples2d(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const aten = (name: string) => ({ name, aten: true });
  // The gradient oracles make every float64 tensor differentiable, which PyTorch refuses for random_samples:
  // F's OpInfo (drawn samples) checks the gradients.
  if (ctx.requiresGrad) return [];
  // [5, 7] -> [3, 4] with pool 2: u = 0 and u = 0.5 give other windows along both axes.
  const slice = (v: number[], n: number) => make.values(v, [n, 2, 2]).narrow(0, n - 1, 1);
  return [
    sample(
      make([1, 2, 5, 7]),
      [[2, 2], [3, 4], slice([0.5, 0.5, 0.5, 0.5, 0, 0.5, 0.5, 0], 2)],
      {},
      aten('batch 1, channels 2, samples a slice'),
    ),
    sample(
      make([2, 5, 7]),
      [[2, 3], [3, 2], slice([0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.5, 0, 0, 0.5], 3)],
      {},
      aten('unbatched, kernel (2, 3), samples a slice'),
    ),
  ];
}

function fractionalInfo(k: 2 | 3): OpInfo {
  return opInfo({
    name: `nn.functional.fractional_max_pool${k}d`,
    op: `_functional_fractional_max_pool${k}d`,
    family: 'pooling',
    dtypes: DTYPE_GROUPS.floating,
    sampleInputs: k === 2 ? samples2d : samples3d,
    errorInputs: k === 2 ? errors2d : errors3d,
    resultDType: (s) => (s.input as Tensor).dtype,
    unsupported: { webgpu: 'no webgpu kernel: the windows are generated and walked on the host' },
    flags: { supportsAutograd: true, supportsGradgrad: true, randomized: true },
    skips: STRIDED_SAMPLES,
  });
}

export const NN_FRACTIONAL_POOL_OPINFOS: readonly OpInfo[] = [
  fractionalInfo(2),
  fractionalInfo(3),
  opInfo({
    name: 'fractional_max_pool2d',
    op: 'fractional_max_pool2d',
    family: 'pooling',
    dtypes: DTYPE_GROUPS.floating,
    sampleInputs: atenSamples2d,
    ref: fractionalRef,
    unsupported: { webgpu: 'no webgpu kernel: the windows are generated and walked on the host' },
    skips: STRIDED_SAMPLES,
  }),
];
