/**
 * The OpInfo of nn.functional.grid_sample: every mode (bilinear, nearest, bicubic in 2-d; bilinear and nearest in
 * 3-d) with every padding mode and both align_corners, the grid reaching past [-1, 1] so padding matters. No float64
 * reference: the golden values recorded from PyTorch are the spec.
 */
import type { Tensor } from '../../../../src/runtime/index.ts';
import { errorCase, f32 } from '../../../families/shape.ts';
import { sample } from '../../../families/unary.ts';
import { opInfo } from '../../../info.ts';
import { maker } from '../../../make.ts';
import type { ErrorInput, SampleContext, SampleInput } from '../../../types.ts';

const GRID = { low: -1.3, high: 1.3 };

function gridSampleSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const grad = [
    sample(make([1, 2, 3, 4]), [make([1, 3, 2, 2], GRID)], {}, { name: 'bilinear, zeros (defaults)' }),
    sample(
      make([1, 1, 3, 3]),
      [make([1, 2, 2, 2], GRID)],
      { mode: 'bicubic', padding_mode: 'reflection', align_corners: true },
      { name: 'bicubic, reflection, align_corners' },
    ),
    sample(
      make([1, 1, 2, 3, 3]),
      [make([1, 2, 1, 2, 3], GRID)],
      { padding_mode: 'border', align_corners: true },
      { name: '3-d bilinear, border, align_corners' },
    ),
  ];
  if (ctx.requiresGrad) return grad;
  return [
    ...grad,
    sample(
      make([2, 2, 3, 3]),
      [make([2, 2, 3, 2], GRID), 'nearest', 'border', true],
      {},
      { name: 'nearest, border, align_corners (positional)' },
    ),
    sample(
      make([1, 2, 2, 3, 3]),
      [make([1, 2, 2, 1, 3], GRID)],
      { mode: 'nearest', padding_mode: 'reflection', align_corners: true },
      { name: '3-d nearest, reflection, align_corners' },
    ),
    sample(
      make([1, 1, 3, 3]),
      [make([1, 2, 2, 2], GRID)],
      { padding_mode: 'reflection', align_corners: false },
      { name: 'bilinear, reflection' },
    ),
  ];
}

function gridSampleErrors(ctx: SampleContext): ErrorInput[] {
  const make = f32(ctx);
  const x = make([1, 2, 3, 3]);
  const g = make([1, 2, 2, 2]);
  const shape = (input: Tensor, grid: Tensor, regex: RegExp, kwargs: Record<string, unknown> = {}) =>
    errorCase(input, [grid], kwargs, 'E_SHAPE_MISMATCH', regex);
  return [
    errorCase(
      x,
      [g],
      { mode: 'foo' },
      'E_INVALID_ARGUMENT',
      /expected mode to be 'bilinear', 'nearest' or 'bicubic', but got: 'foo'/,
    ),
    errorCase(
      x,
      [g],
      { padding_mode: 'foo' },
      'E_INVALID_ARGUMENT',
      /expected padding_mode to be 'zeros', 'border', or 'reflection', but got: 'foo'/,
    ),
    shape(x, make([1, 2, 2, 2, 2]), /expected grid to have same number of dimensions as input/),
    shape(x, make([2, 2, 2, 2]), /expected grid and input to have same batch size/),
    shape(
      x,
      make([1, 2, 2, 3]),
      /expected grid to have size 2 in last dimension, but got grid with sizes \[1, 2, 2, 3\]/,
    ),
    shape(
      make([1, 2, 0, 3]),
      g,
      /expected input to have non-empty spatial dimensions, but input has sizes \[1, 2, 0, 3\] with dimension 2 being empty/,
    ),
    shape(make([1, 2, 3]), make([1, 2, 1]), /expected 5D input and grid with same number of dimensions/),
    errorCase(
      make([1, 1, 2, 2, 2]),
      [make([1, 2, 2, 2, 3])],
      { mode: 'bicubic' },
      'E_INVALID_ARGUMENT',
      /bicubic interpolation only supports 4D input/,
    ),
    errorCase(
      x,
      [maker({ ...ctx, dtype: 'float64' })([1, 2, 2, 2])],
      {},
      'E_DTYPE_UNSUPPORTED',
      /expected scalar type Float but found Double/,
    ),
    errorCase(
      maker({ ...ctx, dtype: 'int32' })([1, 2, 3, 3]),
      [maker({ ...ctx, dtype: 'int32' })([1, 2, 2, 2])],
      {},
      'E_DTYPE_UNSUPPORTED',
      /grid_sampler_2d_cpu not implemented for Int/,
    ),
  ];
}

export const NN_GRID_SAMPLE_OPINFOS = [
  opInfo({
    name: 'nn.functional.grid_sample',
    op: 'grid_sample',
    family: 'nn',
    dtypes: ['float32', 'float64'],
    sampleInputs: gridSampleSamples,
    errorInputs: gridSampleErrors,
    resultDType: (s) => (s.input as Tensor).dtype,
  }),
];
