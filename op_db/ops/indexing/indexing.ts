/**
 * OpInfos for the index ops: gather, scatter (src / value / reduce overloads), index_select, masked_fill.
 * Index tensors are int64 (int32 where PyTorch accepts it) on the sample's device and stay in range under every
 * layout (the expanded layout only repeats index values). scatter samples keep the index unique per output
 * slot (PyTorch leaves duplicate writes unordered) also after the expanded layout: their scatter dim is never
 * the first dim of size > 1 of the index, which is the dim the expanded layout makes constant.
 */
import { DTYPE_GROUPS, float, type Tensor } from '../../../src/runtime/index.ts';
import {
  errorCase,
  exact,
  FOUR_D,
  f32,
  gen,
  indexOf,
  onValues,
  pyScalar,
  sample,
} from '../../families/shape.ts';
import { opInfo } from '../../info.ts';
import * as R from '../../refs/shape.ts';
import type { ErrorInput, OpInfo, SampleContext, SampleInput } from '../../types.ts';

const ALL = DTYPE_GROUPS.all;
const sameDType = (s: SampleInput) => (s.input as Tensor).dtype;
const i64 = (ctx: SampleContext, values: number[], shape: number[]) => indexOf(ctx, values, shape);

function gatherSamples(ctx: SampleContext): SampleInput[] {
  const { make, index } = gen(ctx);
  return [
    sample(make([3, 5]), [1, index([3, 2], 5)], {}, { name: 'dim 1' }),
    sample(make([3, 5]), [0, index([2, 5], 3)], {}, { name: 'dim 0' }),
    sample(make([3, 5]), [-1, index([2, 3], 5)], {}, { name: 'dim -1, smaller index' }),
    sample(make([2, 3, 4]), [1, index([2, 5, 4], 3)], {}, { name: 'index longer along dim' }),
    sample(make([5]), [0, index([7], 5)], { sparse_grad: false }, { name: '1-D' }),
    sample(make([]), [0, i64(ctx, [0], [])], {}, { name: '0-dim' }),
    sample(make([3, 5]), [1, index([3, 0], 5)], {}, { name: 'empty index' }),
    sample(make([0, 4]), [0, index([0, 4], 1)], {}, { name: 'zero-size' }),
    sample(make(FOUR_D), [2, index([2, 3, 3, 2], 2)], {}, { name: '4-D' }),
    // The index is a narrow of a wider tensor whose next element along dim is out of range (99): the range check
    // must stop at the line's end (a `<=` bound reads the neighbour and raises).
    sample(
      make([3, 5]),
      [1, i64(ctx, [0, 4, 99, 3, 1, 99, 2, 2, 99], [3, 3]).narrow(1, 0, 2)],
      {},
      { name: 'index narrowed, out-of-range neighbour' },
    ),
  ];
}

function gatherErrors(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  return [
    onValues(
      errorCase(
        f([2, 3]),
        [1, i64(ctx, [5], [1, 1])],
        {},
        'E_INDEX_OUT_OF_RANGE',
        /index 5 is out of bounds for dimension 1 with size 3/,
      ),
    ),
    // An index equal to the size: the first one past the end (a `>` for `>=` bound check lets it through).
    onValues(
      errorCase(
        f([2, 3]),
        [1, i64(ctx, [3], [1, 1])],
        {},
        'E_INDEX_OUT_OF_RANGE',
        /index 3 is out of bounds for dimension 1 with size 3/,
      ),
    ),
    onValues(
      errorCase(
        f([2, 3]),
        [1, i64(ctx, [-1], [1, 1])],
        {},
        'E_INDEX_OUT_OF_RANGE',
        /index -1 is out of bounds for dimension 1 with size 3/,
      ),
    ),
    errorCase(
      f([2, 3]),
      [1, exact(ctx, [0], [1, 1], 'int32')],
      {},
      'E_DTYPE_UNSUPPORTED',
      /gather\(\): Expected dtype int64 for index/,
    ),
    errorCase(
      f([2, 3]),
      [1, i64(ctx, [0], [1])],
      {},
      'E_SHAPE_MISMATCH',
      /Index tensor must have the same number of dimensions as input tensor/,
    ),
    errorCase(
      f([2, 3]),
      [1, i64(ctx, [0, 0, 0], [3, 1])],
      {},
      'E_SHAPE_MISMATCH',
      /Size does not match at dimension 0 expected index \[3, 1\] to be smaller than self \[2, 3\] apart from dimension 1/,
    ),
    errorCase(f([2, 3]), [2, i64(ctx, [0], [1, 1])], {}, 'E_DIM_OUT_OF_RANGE', /Dimension out of range/),
  ];
}

/**
 * Gradient samples keep src the shape of index and no reduce: PyTorch's scatter backward (src: gather(grad))
 * gives index's shape, and 1.13 has no derivative for reduce=.
 */
function scatterSamples(ctx: SampleContext): SampleInput[] {
  const all = scatterSamplesAll(ctx);
  if (!ctx.requiresGrad) return all;
  return all.filter((s) => {
    const [, index, src] = s.args as [number, Tensor, unknown];
    return (
      !s.kwargs.reduce &&
      (!(src instanceof Object) ||
        !('shape' in (src as object)) ||
        (src as Tensor).shape.join() === index.shape.join())
    );
  });
}

function scatterSamplesAll(ctx: SampleContext): SampleInput[] {
  const { make, uniqueIndex } = gen(ctx);
  const value = pyScalar(ctx.dtype, 2.5);
  return [
    sample(make([3, 5]), [1, uniqueIndex([2, 3], 1, 5), make([2, 4])], {}, { name: 'src, dim 1' }),
    sample(make([3, 5]), [-1, uniqueIndex([3, 2], -1, 5), value], {}, { name: 'value, dim -1' }),
    sample(make([4, 3]), [0, uniqueIndex([1, 3], 0, 4), make([2, 3])], {}, { name: 'src, dim 0' }),
    sample(make([2, 4, 3]), [1, uniqueIndex([2, 3, 2], 1, 4), make([2, 3, 3])], {}, { name: '3-D' }),
    sample(make(FOUR_D), [1, uniqueIndex([2, 2, 2, 2], 1, 3), make(FOUR_D)], {}, { name: '4-D' }),
    sample(make([6]), [0, i64(ctx, [4], [1]), make([3])], {}, { name: '1-D' }),
    sample(make([]), [0, i64(ctx, [0], []), make([])], {}, { name: '0-dim' }),
    sample(make([3, 5]), [0, uniqueIndex([0, 5], 0, 3), make([2, 5])], {}, { name: 'empty index' }),
    sample(
      make([3, 5]),
      [1, uniqueIndex([3, 4], 1, 5), make([3, 4])],
      { reduce: 'add' },
      { name: 'reduce add' },
    ),
    sample(
      make([3, 5]),
      [1, uniqueIndex([2, 5], 1, 5), make([2, 5])],
      { reduce: 'multiply' },
      { name: 'reduce multiply' },
    ),
    sample(
      make([3, 5]),
      [-1, uniqueIndex([3, 2], -1, 5), value],
      { reduce: 'add' },
      { name: 'value, reduce add' },
    ),
    sample(
      make([4, 3]),
      [0, uniqueIndex([1, 3], 0, 4), value],
      { reduce: 'multiply' },
      { name: 'value, reduce multiply' },
    ),
    // By keyword (`x.scatter(0, index, value=2.5)`): binds scatter.value itself, not scatter.src.
    sample(make([3, 5]), [0, uniqueIndex([2, 5], 0, 3)], { value }, { name: 'value=' }),
    sample(
      make([3, 5]),
      [1, uniqueIndex([3, 2], 1, 5)],
      { value, reduce: 'add' },
      { name: 'value=, reduce' },
    ),
  ];
}

function scatterErrors(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  const zeros = (shape: number[]) => i64(ctx, new Array(shape.reduce((a, b) => a * b, 1)).fill(0), shape);
  return [
    onValues(
      errorCase(
        f([3, 4]),
        [0, i64(ctx, [3], [1, 1]), f([1, 1])],
        {},
        'E_INDEX_OUT_OF_RANGE',
        /index 3 is out of bounds for dimension 0 with size 3/,
      ),
    ),
    errorCase(
      f([3, 4]),
      [0, zeros([1, 1]), f([1, 1]).double()],
      {},
      'E_DTYPE_UNSUPPORTED',
      /scatter\(\): Expected self\.dtype to be equal to src\.dtype/,
    ),
    errorCase(
      f([3, 4]),
      [0, exact(ctx, [0], [1, 1], 'int32'), f([1, 1])],
      {},
      'E_DTYPE_UNSUPPORTED',
      /scatter\(\): Expected dtype int64 for index/,
    ),
    errorCase(
      f([3, 4]),
      [0, zeros([1, 5]), f([2, 4])],
      {},
      'E_SHAPE_MISMATCH',
      /Expected index \[1, 5\] to be smaller than self \[3, 4\] apart from dimension 0 and to be smaller size than src \[2, 4\]/,
    ),
    errorCase(
      f([3, 4]),
      [0, zeros([1])],
      { src: f([1]) },
      'E_SHAPE_MISMATCH',
      /Index tensor must have the same number of dimensions as self tensor/,
    ),
    errorCase(
      f([3, 3]),
      [0, zeros([2, 2]), f([2, 2, 2])],
      {},
      'E_SHAPE_MISMATCH',
      /Index tensor must have the same number of dimensions as src tensor/,
    ),
    errorCase(
      f([3, 4]),
      [0, zeros([1, 1]), f([1, 1])],
      { reduce: 'max' },
      'E_INVALID_ARGUMENT',
      /reduce argument must be either add or multiply\./,
    ),
    errorCase(
      f([3, 4]).to('int8'),
      [0, zeros([1, 1]), 300],
      {},
      'E_INVALID_ARGUMENT',
      /value cannot be converted to type int8_t without overflow/,
    ),
  ];
}

function indexSelectSamples(ctx: SampleContext): SampleInput[] {
  const { make, index } = gen(ctx);
  return [
    sample(make([3, 5]), [0, i64(ctx, [2, 0, 2], [3])], {}, { name: 'dim 0, repeated rows' }),
    sample(make([3, 5]), [-1, exact(ctx, [4, 0, 1], [3], 'int32')], {}, { name: 'int32 index, dim -1' }),
    sample(make([2, 3, 4]), [1, index([2], 3)], {}, { name: '3-D' }),
    sample(make([5]), [0, i64(ctx, [3], [])], {}, { name: '0-dim index' }),
    sample(make([]), [0, i64(ctx, [0], [1])], {}, { name: '0-dim self' }),
    sample(make([3, 5]), [1, i64(ctx, [], [0])], {}, { name: 'empty index' }),
    sample(make([0, 4]), [1, i64(ctx, [3, 1], [2])], {}, { name: 'zero-size self' }),
    sample(make(FOUR_D), [3, i64(ctx, [1, 0, 1], [3])], {}, { name: '4-D' }),
  ];
}

function indexSelectErrors(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  return [
    onValues(
      errorCase(f([3, 4]), [0, i64(ctx, [3], [1])], {}, 'E_INDEX_OUT_OF_RANGE', /index out of range in self/),
    ),
    errorCase(
      f([3, 4]),
      [0, f([1])],
      {},
      'E_DTYPE_UNSUPPORTED',
      /index_select\(\): Expected dtype int32 or int64 for index/,
    ),
    errorCase(
      f([3, 4]),
      [0, i64(ctx, [0, 1], [1, 2])],
      {},
      'E_SHAPE_MISMATCH',
      /index_select\(\): Index is supposed to be a vector/,
    ),
    errorCase(
      f([3, 4]),
      [0, i64(ctx, [0], [1])],
      { out: f([0]).double() },
      'E_RESULT_TYPE',
      /index_select\(\): self and result must have the same scalar type/,
    ),
  ];
}

function maskedFillSamples(ctx: SampleContext): SampleInput[] {
  const { make, bools } = gen(ctx);
  const value = pyScalar(ctx.dtype, -2.5);
  return [
    sample(make([3, 4]), [bools([3, 4]), value], {}, { name: 'same shape' }),
    sample(make([3, 4]), [bools([4]), value], {}, { name: 'broadcast mask' }),
    sample(make([3, 4]), [bools([3, 1]), make([])], {}, { name: '0-dim Tensor value' }),
    sample(make([]), [bools([]), value], {}, { name: '0-dim' }),
    sample(make([0, 4]), [bools([4]), value], {}, { name: 'zero-size' }),
    sample(make(FOUR_D), [bools(FOUR_D), value], {}, { name: '4-D' }),
    sample(make([3, 4]), [bools([3, 4]).to('uint8'), value], {}, { name: 'uint8 mask (deprecated)' }),
    sample(make([4]), [bools([3, 4]), value], {}, { name: 'mask broadcasts self', broadcastsInput: true }),
    ...rangeEdgeValues(ctx).map(([v, name]) =>
      sample(make([3]), [bools([3], { excludeZero: true }), v], {}, { name: `value ${name}` }),
    ),
  ];
}

/** The largest finite value of each float dtype (c10's checked conversion accepts it, one ulp more overflows). */
const FLOAT_EDGE: Partial<Record<string, number>> = {
  float16: 65504,
  bfloat16: 3.3895313892515355e38,
  float32: 3.4028234663852886e38,
};

/**
 * Scalar values at the edges of the dtype's range, which c10's checked conversion (Scalar::to) accepts: the
 * largest finite float, an int dtype's max as a float Scalar, uint8's -255 (a negative int wraps: 1).
 */
function rangeEdgeValues(ctx: SampleContext): [unknown, string][] {
  const d = ctx.dtype;
  const edge = FLOAT_EDGE[d];
  if (edge !== undefined) return [[float(edge), 'largest finite']];
  if (d === 'int8') return [[float(127), '127.0 (int8 max as a float)']];
  if (d === 'int32') return [[float(2147483647), 'int32 max as a float']];
  if (d === 'uint8') return [[-255, '-255 (wraps to 1)']];
  return [];
}

function maskedFillErrors(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  const { bools } = gen(ctx);
  return [
    errorCase(f([3]), [f([3]), 1], {}, 'E_DTYPE_UNSUPPORTED', /masked_fill_ only supports boolean masks/),
    errorCase(
      f([3]),
      [bools([3]), f([2])],
      {},
      'E_INVALID_ARGUMENT',
      /only supports a 0-dimensional value tensor, but got tensor with 1 dimension\(s\)\./,
    ),
    errorCase(
      f([3]).to('int8'),
      [bools([3]), 300],
      {},
      'E_INVALID_ARGUMENT',
      /value cannot be converted to type int8_t without overflow/,
    ),
    errorCase(f([4]), [bools([3]), float(1)], {}, 'E_SHAPE_MISMATCH', /must match the size of tensor b/),
  ];
}

export const INDEXING_OPINFOS: readonly OpInfo[] = [
  opInfo({
    name: 'gather',
    family: 'index',
    dtypes: ALL,
    sampleInputs: gatherSamples,
    errorInputs: gatherErrors,
    ref: R.gatherRef,
    resultDType: sameDType,
    flags: { exactRounding: true },
  }),
  opInfo({
    name: 'scatter',
    family: 'index',
    dtypes: ALL,
    sampleInputs: scatterSamples,
    errorInputs: scatterErrors,
    ref: R.scatterRef,
    resultDType: sameDType,
    // reduce='add' / 'multiply' with unique indices is one correctly rounded add or product per element.
    flags: { exactRounding: true },
  }),
  opInfo({
    name: 'index_select',
    family: 'index',
    dtypes: ALL,
    sampleInputs: indexSelectSamples,
    errorInputs: indexSelectErrors,
    ref: R.indexSelectRef,
    resultDType: sameDType,
    flags: { exactRounding: true },
  }),
  opInfo({
    name: 'masked_fill',
    family: 'index',
    dtypes: ALL,
    sampleInputs: maskedFillSamples,
    errorInputs: maskedFillErrors,
    ref: R.maskedFillRef,
    resultDType: sameDType,
    flags: { exactRounding: true },
  }),
];
