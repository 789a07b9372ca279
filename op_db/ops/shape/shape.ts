/**
 * OpInfos for the copying shape ops (cat, stack, flip, roll, tril, triu). SHAPE_OPINFOS also gathers the
 * ternary selections (ternary.ts: where, clamp), the index ops (indexing.ts), the products (linalg.ts) and
 * sorting (sorting.ts).
 */
import { DTYPE_GROUPS, type DType, type Tensor } from '../../../src/runtime/index.ts';
import { errorCase, FOUR_D, f32, gen, sample, tensorList } from '../../families/shape.ts';
import { opInfo } from '../../info.ts';
import { tableResultType } from '../../refs/promotion.ts';
import * as R from '../../refs/shape.ts';
import type { ErrorInput, OpInfo, SampleContext, SampleInput } from '../../types.ts';
import { INDEXING_OPINFOS } from '../indexing/index.ts';
import { LINALG_OPINFOS } from '../linalg/index.ts';
import { TERNARY_OPINFOS } from '../pointwise/index.ts';
import { SORTING_OPINFOS } from '../sort_search/index.ts';

const ALL = DTYPE_GROUPS.all;
const dtypeOf = (t: unknown) => (t as Tensor).dtype;

/** result_type over tensors that all have dims (cat / stack): promote_types folded over the list. */
const listResultType = (s: SampleInput): DType =>
  (s.input as unknown as Tensor[])
    .map(dtypeOf)
    .reduce((a, b) => tableResultType({ dtype: a, dim: 1 }, { dtype: b, dim: 1 }));

/**
 * The harness applies layouts only to a sample's Tensor input and args, not to the members of a Tensor[]
 * input, so the list samples carry their own transposed / strided / expanded members.
 */
function catSamples(ctx: SampleContext): SampleInput[] {
  const { make, of } = gen(ctx);
  const L = tensorList;
  const sliced = make([2, 6]).slice(1, null, null, 2);
  return [
    sample(L([make([2, 3]), make([4, 3])]), [0], {}, { name: 'dim 0' }),
    sample(L([make([2, 3]), make([2, 1]), make([2, 4])]), [-1], {}, { name: 'three, dim -1' }),
    sample(L([make([2, 3, 4]), make([2, 1, 4])]), [], { dim: 1 }, { name: '3-D, dim=1 keyword' }),
    sample(L([make(FOUR_D), make([2, 1, 2, 2])]), [1], {}, { name: '4-D' }),
    sample(L([make([5])]), [], {}, { name: 'one 1-D tensor' }),
    sample(L([make([0, 3]), make([2, 3])]), [0], {}, { name: 'zero-size member' }),
    sample(L([make([2, 0]), make([2, 0])]), [1], {}, { name: 'all zero-size' }),
    sample(L([make([0]), make([2, 3])]), [1], {}, { name: 'legacy 1-D empty is skipped' }),
    // Nothing left to concatenate: the result is [0] and dim is never wrapped (1 is out of range for 1-D).
    sample(L([make([0]), of('int64')([0])]), [1], {}, { name: 'only legacy 1-D empties, dim 1' }),
    sample(
      L([make([3, 2]).t(), sliced, make([2, 1]).expand([2, 3])]),
      [1],
      {},
      { name: 'transposed, strided and expanded members' },
    ),
    sample(L([make([2, 3]), of('int64')([1, 3])]), [0], {}, { name: 'with an int64 member' }),
  ];
}

function stackSamples(ctx: SampleContext): SampleInput[] {
  const { make } = gen(ctx);
  const L = tensorList;
  return [
    sample(L([make([2, 3]), make([2, 3])]), [0], {}, { name: 'dim 0' }),
    sample(L([make([2, 3]), make([2, 3]), make([2, 3])]), [-1], {}, { name: 'dim -1' }),
    sample(L([make([2, 3]), make([2, 3])]), [], { dim: 2 }, { name: 'dim == ndim' }),
    sample(L([make([]), make([]), make([])]), [], {}, { name: '0-dim members' }),
    sample(L([make([0, 3]), make([0, 3])]), [1], {}, { name: 'zero-size' }),
    sample(L([make([2, 3, 2]), make([2, 3, 2])]), [1], {}, { name: '4-D result' }),
    sample(L([make([4])]), [0], {}, { name: 'one tensor' }),
    sample(L([make([3, 2]).t(), make([1, 3]).expand([2, 3])]), [1], {}, { name: 'transposed, expanded' }),
  ];
}

function catErrors(op: 'cat' | 'stack') {
  return (ctx: SampleContext): ErrorInput[] => {
    const f = f32(ctx);
    const L = tensorList;
    const common: ErrorInput[] = [
      errorCase(L([f([2, 3])]), [op === 'cat' ? 2 : 3], {}, 'E_DIM_OUT_OF_RANGE', /Dimension out of range/),
    ];
    if (op === 'stack') {
      return [
        ...common,
        errorCase(L([]), [0], {}, 'E_INVALID_ARGUMENT', /stack expects a non-empty TensorList/),
        errorCase(
          L([f([2, 3]), f([3, 2])]),
          [0],
          {},
          'E_SHAPE_MISMATCH',
          /stack expects each tensor to be equal size, but got \[2, 3\] at entry 0 and \[3, 2\] at entry 1/,
        ),
      ];
    }
    return [
      ...common,
      errorCase(L([]), [0], {}, 'E_INVALID_ARGUMENT', /torch\.cat\(\): expected a non-empty list of Tensors/),
      errorCase(
        L([f([]), f([])]),
        [0],
        {},
        'E_SHAPE_MISMATCH',
        /zero-dimensional tensor \(at position 0\) cannot be concatenated/,
      ),
      errorCase(
        L([f([2, 3]), f([3])]),
        [0],
        {},
        'E_SHAPE_MISMATCH',
        /Tensors must have same number of dimensions: got 2 and 1/,
      ),
      errorCase(
        L([f([2, 3]), f([2, 4])]),
        [0],
        {},
        'E_SHAPE_MISMATCH',
        /Sizes of tensors must match except in dimension 0\. Expected size 3 but got size 4 for tensor number 1 in the list\./,
      ),
      errorCase(
        L([f([2])]),
        [0],
        { out: f([0]).to('int64') },
        'E_RESULT_TYPE',
        /torch\.cat\(\): input types can't be cast to the desired output type Long/,
      ),
    ];
  };
}

/** Samples as data: [input shape, args, kwargs?, the Tensor method's own form?]. */
type Case = readonly [readonly number[], readonly unknown[], Record<string, unknown>?, 'method'?];
const fromCases =
  (cases: readonly Case[]) =>
  (ctx: SampleContext): SampleInput[] => {
    const { make } = gen(ctx);
    return cases.map(([shape, args, kwargs, form]) =>
      sample(
        make(shape),
        [...args],
        { ...(kwargs ?? {}) },
        { name: `[${shape.join(', ')}] ${JSON.stringify(args)}`, ...(form && { method: true }) },
      ),
    );
  };
const errorsOf =
  (cases: readonly (readonly [readonly number[], readonly unknown[], ErrorInput['code'], RegExp])[]) =>
  (ctx: SampleContext): ErrorInput[] => {
    const f = f32(ctx);
    return cases.map(([shape, args, code, regex]) => errorCase(f(shape), [...args], {}, code, regex));
  };

const triOpInfo = (name: 'tril' | 'triu') =>
  opInfo({
    name,
    family: 'shape',
    dtypes: ALL,
    sampleInputs: fromCases([
      [[3, 5], []],
      [[3, 5], [1]],
      [[3, 5], [-1]],
      [[5, 3], [2]],
      [[5, 3], [-7]],
      [[3, 3], [], { diagonal: 10 }],
      [[2, 3, 4], []],
      [[0, 3], []],
      [[2, 0, 3], [1]],
      [FOUR_D, [-1]],
    ]),
    errorInputs: (ctx) => [
      ...errorsOf([
        [[4], [], 'E_DIM_OUT_OF_RANGE', /Dimension out of range/],
        [[], [], 'E_DIM_OUT_OF_RANGE', /Dimension out of range/],
      ])(ctx),
      errorCase(
        f32(ctx)([2, 2]),
        [],
        { out: f32(ctx)([2, 2]).double() },
        'E_RESULT_TYPE',
        /Expected out tensor to have dtype float, but got double instead/,
      ),
    ],
    ref: R.triRef(name === 'tril'),
    resultDType: (s) => dtypeOf(s.input),
    flags: { exactRounding: true },
  });

export const SHAPE_OPINFOS: readonly OpInfo[] = [
  opInfo({
    name: 'cat',
    family: 'shape',
    dtypes: ALL,
    sampleInputs: catSamples,
    errorInputs: catErrors('cat'),
    ref: R.catRef,
    resultDType: listResultType,
    flags: { exactRounding: true },
  }),
  opInfo({
    name: 'stack',
    family: 'shape',
    dtypes: ALL,
    sampleInputs: stackSamples,
    errorInputs: catErrors('stack'),
    ref: R.stackRef,
    resultDType: listResultType,
    flags: { exactRounding: true },
  }),
  opInfo({
    name: 'flip',
    family: 'shape',
    dtypes: ALL,
    sampleInputs: fromCases([
      [[], [[]]],
      [[7], [[0]]],
      [[3, 5], [[0, 1]]],
      [[3, 5], [[-1]]],
      [[3, 5], [[]]],
      [[2, 3, 4], [[-1, 0]]],
      [[0, 4], [[1]]],
      [FOUR_D, [[1, 3]]],
      // Tensor.flip(*dims): varargs, the method's form only (torch.flip takes one list).
      [[2, 3, 4], [2, 0], {}, 'method'],
    ]),
    errorInputs: errorsOf([
      [[2, 3], [[0, -2]], 'E_INVALID_ARGUMENT', /dim 0 appears multiple times in the list of dims/],
      [[2, 3], [[2]], 'E_DIM_OUT_OF_RANGE', /Dimension out of range/],
    ]),
    ref: R.flipRef,
    resultDType: (s) => dtypeOf(s.input),
    flags: { exactRounding: true },
  }),
  opInfo({
    name: 'roll',
    family: 'shape',
    dtypes: ALL,
    sampleInputs: fromCases([
      [[7], [2]],
      [
        [3, 5],
        [[1], [0]],
      ],
      [
        [3, 5],
        [
          [1, -2],
          [0, 1],
        ],
      ],
      [
        [3, 5],
        [-7, -1],
      ],
      [[3, 5], [3]],
      [[2, 3, 4], [2], { dims: 1 }],
      [
        [0, 4],
        [1, 1],
      ],
      [[], [1]],
      [
        FOUR_D,
        [
          [1, 1],
          [1, 3],
        ],
      ],
    ]),
    errorInputs: errorsOf([
      [[3, 2], [[1, 2], [0]], 'E_INVALID_ARGUMENT', /shifts and dimensions must align\. shifts: 2, dims:1/],
      [[3, 2], [[], []], 'E_INVALID_ARGUMENT', /`shifts` required/],
      [[], [[1], [0]], 'E_DIM_OUT_OF_RANGE', /Dimension specified as 0 but tensor has no dimensions/],
      [[3, 2], [[1], [2]], 'E_DIM_OUT_OF_RANGE', /Dimension out of range/],
    ]),
    ref: R.rollRef,
    resultDType: (s) => dtypeOf(s.input),
    flags: { exactRounding: true },
  }),
  triOpInfo('tril'),
  triOpInfo('triu'),
  ...TERNARY_OPINFOS,
  ...INDEXING_OPINFOS,
  ...LINALG_OPINFOS,
  ...SORTING_OPINFOS,
];
