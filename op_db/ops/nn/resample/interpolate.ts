/**
 * OpInfos for resampling: nn.functional.interpolate (every mode over 1-3 spatial dims: sizes versus scale factors,
 * align_corners, recompute_scale_factor), and its deprecated wrappers upsample_nearest and upsample_bilinear
 * (align_corners=True). Sample names start with the mode, so deviations can name the modes PyTorch's cpu kernels
 * lack a dtype for. No float64 reference: the index arithmetic is PyTorch's own (float32 nearest indices, clamped
 * taps), so golden values recorded from PyTorch are the spec.
 */
import type { Tensor } from '../../../../src/runtime/index.ts';
import { errorCase, f32 } from '../../../families/shape.ts';
import { sample } from '../../../families/unary.ts';
import { opInfo } from '../../../info.ts';
import { maker } from '../../../make.ts';
import type { ErrorInput, SampleContext, SampleInput } from '../../../types.ts';

const FLOATING = ['float16', 'bfloat16', 'float32', 'float64'] as const;
const inputDType = (s: SampleInput) => (s.input as Tensor).dtype;
const isByte = (ctx: SampleContext) => ctx.dtype === 'uint8';

function interpolateSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const nearest = [
    sample(make([2, 3, 5]), [7], {}, { name: 'nearest 1-d, size=7 (positional)' }),
    sample(make([1, 2, 4, 4]), [], { scale_factor: 1.7 }, { name: 'nearest 2-d, scale_factor=1.7' }),
    sample(make([1, 1, 3, 3, 3]), [[2, 4, 5]], {}, { name: 'nearest 3-d, size list' }),
    sample(make([2, 3, 5]), [], { scale_factor: 1.5, mode: 'nearest-exact' }, { name: 'nearest-exact 1-d' }),
    sample(make([1, 1, 2, 3, 3]), [[3, 2, 4]], { mode: 'nearest-exact' }, { name: 'nearest-exact 3-d' }),
    sample(
      make([1, 2, 3, 4]),
      [],
      { scale_factor: [2, 0.6], mode: 'nearest-exact', recompute_scale_factor: true },
      { name: 'nearest-exact 2-d, recompute_scale_factor' },
    ),
  ];
  const interpolating = [
    sample(
      make([2, 3, 5]),
      [null, 2.5, 'linear'],
      { recompute_scale_factor: false },
      { name: 'linear 1-d, scale_factor=2.5' },
    ),
    sample(
      make([1, 2, 4, 4]),
      [[3, 7]],
      { mode: 'bilinear', align_corners: true },
      { name: 'bilinear, size=[3, 7], align_corners' },
    ),
    sample(
      make([1, 2, 4, 4]),
      [],
      { scale_factor: 1.5, mode: 'bicubic', align_corners: false, antialias: false },
      { name: 'bicubic, scale_factor=1.5' },
    ),
    sample(
      make([1, 1, 3, 3, 3]),
      [],
      { scale_factor: [1.5, 2, 0.8], mode: 'trilinear' },
      { name: 'trilinear, scale factors' },
    ),
    sample(
      make([1, 2, 5, 6]),
      [[3, 4]],
      { mode: 'bilinear', antialias: true },
      { name: 'antialias bilinear, size=[3, 4]' },
    ),
    sample(
      make([1, 1, 4, 5]),
      [],
      { scale_factor: [0.6, 1.5], mode: 'bicubic', align_corners: true, antialias: true },
      { name: 'antialias bicubic, align_corners' },
    ),
    sample(make([1, 2, 5, 5]), [3], { mode: 'area' }, { name: 'area 2-d, size=3' }),
    sample(
      make([1, 1, 3, 3, 3]),
      [],
      { scale_factor: 0.7, mode: 'area' },
      { name: 'area 3-d, scale_factor' },
    ),
  ];
  // Gradients: one nearest and each interpolating kind once (the antialiased bicubic and 2-d area share theirs).
  if (ctx.requiresGrad) return [nearest[0], ...[0, 1, 2, 3, 4, 7].map((i) => interpolating[i])];
  const extra = [sample(make([0, 2, 4]), [3], {}, { name: 'nearest 1-d, zero batch' })];
  return isByte(ctx) ? [...nearest, ...extra] : [...nearest, ...interpolating, ...extra];
}

function interpolateErrors(ctx: SampleContext): ErrorInput[] {
  const make = f32(ctx);
  const x3 = make([1, 2, 4]);
  const x4 = make([1, 2, 4, 4]);
  const invalid = (kwargs: Record<string, unknown>, regex: RegExp, input = x4) =>
    errorCase(input, [], kwargs, 'E_INVALID_ARGUMENT', regex);
  return [
    invalid({ size: 3, scale_factor: 2 }, /only one of size or scale_factor should be defined/),
    invalid({}, /either size or scale_factor should be defined/),
    invalid(
      { size: 3, align_corners: true },
      /align_corners option can only be set with the interpolating modes/,
    ),
    invalid(
      { size: [3, 3, 3] },
      /Input and output must have the same number of spatial dimensions, but got input with spatial dimensions of \[4, 4\]/,
    ),
    invalid({ scale_factor: [2] }, /Input and scale_factor must have the same number of spatial dimensions/),
    invalid(
      { size: 3, recompute_scale_factor: true },
      /recompute_scale_factor is not meaningful with an explicit size/,
    ),
    invalid(
      { size: 3, antialias: true },
      /Anti-alias option is only supported for bilinear and bicubic modes/,
    ),
    invalid(
      { size: 0 },
      /Input and output sizes should be greater than 0, but got input \(W: 4\) and output \(W: 0\)/,
      x3,
    ),
    invalid({ scale_factor: 0.1, mode: 'bilinear' }, /output \(H: 0, W: 0\)/),
    errorCase(
      make([1, 0, 4, 4]),
      [3],
      {},
      'E_SHAPE_MISMATCH',
      /Non-empty 4D data tensor expected but got a tensor with sizes \[1, 0, 4, 4\]/,
    ),
    errorCase(
      x3,
      [3],
      { mode: 'bilinear' },
      'E_NOT_IMPLEMENTED',
      /Got 3D input, but bilinear mode needs 4D input/,
    ),
    errorCase(
      make([2, 3]),
      [3],
      {},
      'E_NOT_IMPLEMENTED',
      /Only 3D, 4D and 5D input Tensors supported \(got 2D\)/,
    ),
    errorCase(
      maker({ ...ctx, dtype: 'int32' })([1, 2, 4, 4]),
      [3],
      {},
      'E_DTYPE_UNSUPPORTED',
      /"compute_indices_weights_nearest" not implemented for 'Int'/,
    ),
    errorCase(
      maker({ ...ctx, dtype: 'uint8' })([1, 2, 4, 4]),
      [3],
      { mode: 'bicubic' },
      'E_DTYPE_UNSUPPORTED',
      /"compute_indices_weights_cubic" not implemented for 'Byte'/,
    ),
  ];
}

/** F.upsample_nearest(input, size=None, scale_factor=None): interpolate's nearest mode. */
function upsampleNearestSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  return [
    sample(make([1, 2, 3, 3]), [[4, 5]], {}, { name: 'nearest 2-d, size list' }),
    sample(
      make([1, 1, 2, 3, 3]),
      [],
      { size: null, scale_factor: 2 },
      { name: 'nearest 3-d, scale_factor=2' },
    ),
  ];
}

/** F.upsample_bilinear(input, size=None, scale_factor=None): bilinear with align_corners=True. */
function upsampleBilinearSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  return [
    sample(make([1, 2, 3, 3]), [5], {}, { name: 'bilinear, size=5' }),
    sample(make([2, 1, 3, 4]), [null, [1.5, 2]], {}, { name: 'bilinear, scale factors' }),
  ];
}

const resampleErrors = (ctx: SampleContext): ErrorInput[] => [
  errorCase(
    f32(ctx)([1, 2, 4, 4]),
    [],
    {},
    'E_INVALID_ARGUMENT',
    /either size or scale_factor should be defined/,
  ),
];

export const NN_RESAMPLE_OPINFOS = [
  opInfo({
    name: 'nn.functional.interpolate',
    op: 'interpolate',
    family: 'nn',
    dtypes: ['uint8', ...FLOATING],
    sampleInputs: interpolateSamples,
    errorInputs: interpolateErrors,
    resultDType: inputDType,
  }),
  opInfo({
    name: 'nn.functional.upsample_nearest',
    op: 'upsample_nearest',
    family: 'nn',
    dtypes: ['uint8', ...FLOATING],
    sampleInputs: upsampleNearestSamples,
    errorInputs: resampleErrors,
    resultDType: inputDType,
  }),
  opInfo({
    name: 'nn.functional.upsample_bilinear',
    op: 'upsample_bilinear',
    family: 'nn',
    dtypes: [...FLOATING],
    sampleInputs: upsampleBilinearSamples,
    errorInputs: resampleErrors,
    resultDType: inputDType,
  }),
];
