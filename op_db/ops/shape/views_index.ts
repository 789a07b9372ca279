/**
 * OpInfos for indexing views: narrow, select, slice, as_strided, unfold, diagonal, movedim and the multi-output
 * split, split_with_sizes, chunk, unbind. Part of VIEW_OPINFOS (views.ts).
 */
import { arg, c, dimErr, err, FOUR, view } from '../../families/views.ts';
import * as R from '../../refs/views.ts';
import type { OpInfo, SkipRule } from '../../types.ts';

const NON_CONTIGUOUS = ['transposed', 'strided', 'expanded', 'offset', 'channels_last'] as const;
const STORAGE_REF: SkipRule[] = [
  ...NON_CONTIGUOUS.map((layout) => ({
    kind: 'skip' as const,
    oracle: 'reference' as const,
    layout,
    reason:
      'as_strided addresses storage, not logical elements: its reference reads the row-major values as the ' +
      'storage, which holds only for the fresh contiguous layout',
  })),
  // Backward consistency compares a layout against its contiguous copy; as_strided reads different storage
  // elements in each, so the two gradients legitimately differ.
  ...NON_CONTIGUOUS.map((layout) => ({
    kind: 'skip' as const,
    oracle: 'backward' as const,
    layout,
    reason:
      'as_strided addresses storage: a non-contiguous input and its contiguous copy expose different storage elements',
  })),
];
const ZERO_DIM = /cannot be applied to a 0-dim tensor/;
const ONE_DIM = /expects at least a 1-dimensional tensor/;

const INDEXING: OpInfo[] = [
  view(
    'narrow',
    (s) => R.narrowRef(s.input, arg(s, 0), arg(s, 1), arg(s, 2)),
    [
      c([5, 4], 0, 1, 3),
      c([5, 4], 1, -3, 2),
      c([5, 4], -1, 0, 4),
      c([5, 4], 0, 5, 0),
      c([7], 0, 2, 0),
    ].concat([c([0, 4], 1, 1, 2), c(FOUR, 3, 1, 1)]),
    [
      err(
        'E_INDEX_OUT_OF_RANGE',
        /start \(2\) \+ length \(3\) exceeds dimension size \(4\)/,
        [5, 4],
        1,
        2,
        3,
      ),
      dimErr([5, 4], 2, 0, 1),
      err('E_INVALID_ARGUMENT', ZERO_DIM, [], 0, 0, 1),
    ],
  ),
  view(
    'select',
    (s) => R.selectRef(s.input, arg(s, 0), arg(s, 1)),
    [
      c([3, 4], 0, 1),
      c([3, 4], 1, -1),
      c([3, 4], -1, 0),
      c([2, 3, 4], 1, 2),
      c([7], 0, 3),
      c([0, 4], 1, 2),
      // index -size: the first element (a `<= -size` bound refuses it).
      c([3, 4], 1, -4),
    ].concat([c(FOUR, 1, -2)]),
    [
      err('E_INDEX_OUT_OF_RANGE', /index 3 is out of bounds for dimension 0 with size 3/, [3, 4], 0, 3),
      err('E_INDEX_OUT_OF_RANGE', /index -5 is out of bounds for dimension 1 with size 4/, [3, 4], 1, -5),
      err('E_INDEX_OUT_OF_RANGE', ZERO_DIM, [], 0, 0),
      dimErr([3, 4], 2, 0),
    ],
  ),
  view(
    'slice',
    (s) => R.sliceRef(s.input, arg(s, 0, 0), arg(s, 1, null), arg(s, 2, null), arg(s, 3, 1)),
    [
      c([5, 4], 0, 1, 4, 2),
      c([5, 4], 1, null, null, 1),
      c([5, 4], -1, -3, null, 1),
      c([5, 4], 0, -100, 100, 3),
    ].concat([c([5, 4], 0, 4, 2, 1), c([7], 0, 2, null, 3), c([0, 4], 1, 1, 3, 1), c(FOUR, 2, 1, null, 1)]),
    [
      err('E_INVALID_ARGUMENT', /slice step must be positive/, [5, 4], 0, 0, 5, 0),
      dimErr([5, 4], 2),
      err('E_INVALID_ARGUMENT', ZERO_DIM, [], 0),
    ],
    {
      skips: [],
    },
  ),
  view(
    'as_strided',
    (s) => R.asStridedRef(s.input, arg(s, 0), arg(s, 1), arg(s, 2, 0)),
    // Every window fits each layout's storage (the expanded layout keeps only numel / size[0] elements).
    [
      c([2, 6], [2, 2], [1, 2]),
      c([2, 6], [2, 2], [2, 1], 1),
      c([2, 6], [3, 3], [1, 1]),
      c([2, 6], [3], [0]),
    ].concat([c([2, 6], [0, 3], [3, 1]), c([], [], []), c(FOUR, [2, 2, 3], [6, 3, 1])]),
    [
      err(
        'E_INDEX_OUT_OF_RANGE',
        /sizes \[3, 3\], strides \[3, 1\], storage offset 0.* out of bounds/,
        [2, 4],
        [3, 3],
        [3, 1],
      ),
      err('E_SHAPE_MISMATCH', /mismatch in length of strides and shape/, [2, 4], [2, 2], [1]),
      err('E_INVALID_ARGUMENT', /Negative strides are not supported at the moment/, [2, 4], [2], [-1]),
      err('E_INVALID_ARGUMENT', /Tensor: invalid storage offset -1/, [2, 4], [2], [1], -1),
    ],
    { skips: STORAGE_REF },
  ),
  view(
    'unfold',
    (s) => R.unfoldRef(s.input, arg(s, 0), arg(s, 1), arg(s, 2)),
    [c([7], 0, 3, 2), c([3, 5], 1, 2, 1), c([3, 5], -1, 5, 5), c([3, 5], 0, 3, 3), c([], 0, 1, 1)].concat([
      c([0, 4], 1, 2, 2),
      c([0, 4], 0, 0, 1),
      c(FOUR, 2, 2, 1),
    ]),
    [
      err('E_SHAPE_MISMATCH', /maximum size for tensor at dimension 1 is 4 but size is 5/, [3, 4], 1, 5, 1),
      err('E_INVALID_ARGUMENT', /step is 0 but must be > 0/, [3, 4], 1, 2, 0),
      // PyTorch 1.13 says "Storage size calculation overflowed with sizes=[3, 6, -1]"; the runtime says what 2.x does.
      err('E_INVALID_ARGUMENT', /size is -1 but must be >= 0/, [3, 4], 1, -1, 1),
      dimErr([3, 4], 2, 1, 1),
    ],
  ),
  view(
    'diagonal',
    (s) => R.diagonalRef(s.input, arg(s, 0, 0), arg(s, 1, 0), arg(s, 2, 1)),
    [c([3, 4]), c([3, 4], 1), c([3, 4], -1), c([3, 4], -5), c([4, 3], 2), c([2, 3, 4], 0, 1, 2)].concat([
      c([2, 3, 4], 1, 0, 2),
      c([2, 3, 4], -1, -1, 0),
      c([0, 4]),
      c(FOUR, 0, 2, 3),
    ]),
    [
      err('E_INVALID_ARGUMENT', /diagonal dimensions cannot be identical/, [3, 4], 0, 1, 1),
      dimErr([3, 4], 0, 0, 2),
    ],
  ),
  view(
    'movedim',
    (s) => R.movedimRef(s.input, arg(s, 0), arg(s, 1)),
    [c([2, 3, 4], 0, 2), c([2, 3, 4], -1, 0), c([2, 3, 4], 1, 1), c([0, 4], 0, 1), c(FOUR, 1, -1)].concat([
      c([], 0, 0),
      // movedim.intlist
      c([2, 3, 4], [0, 1], [2, 0]),
      c(FOUR, [-1, 0], [0, -1]),
      c([2, 3, 4], [], []),
    ]),
    [
      dimErr([2, 3], 2, 0),
      dimErr([2, 3], 0, -3),
      err(
        'E_INVALID_ARGUMENT',
        /should contain the same number of dims as destination/,
        [2, 3, 4],
        [0, 1],
        [0],
      ),
      err('E_INVALID_ARGUMENT', /movedim: repeated dim in `source` \(\[0, 0\]\)/, [2, 3, 4], [0, 0], [1, 2]),
    ],
  ),
];

/** Multi-output views: resultDType is only checked for single outputs. */
const multi = (...a: Parameters<typeof view>): OpInfo =>
  view(a[0], a[1], a[2], a[3], { resultDType: null, ...a[4] });

const SPLITS: OpInfo[] = [
  multi(
    'split',
    (s) =>
      Array.isArray(s.args[0])
        ? R.splitWithSizesRef(s.input, arg(s, 0), arg(s, 1, 0))
        : R.splitRef(s.input, arg(s, 0), arg(s, 1, 0)),
    [
      c([5, 4], 2),
      c([5, 4], 2, 1),
      c([5, 4], 3, -1),
      c([5, 4], 5),
      c([5, 4], 10),
      c([0, 4], 2),
      c([5, 4], [2, 3]),
    ].concat([c([5, 4], [1, 0, 3], 1), c(FOUR, 1, 1)]),
    [
      err('E_INVALID_ARGUMENT', /split expects split_size be non-negative/, [5, 4], -1),
      dimErr([5, 4], 2, 2),
      err('E_INVALID_ARGUMENT', ONE_DIM, [], 1),
    ],
  ),
  multi(
    'split_with_sizes',
    (s) => R.splitWithSizesRef(s.input, arg(s, 0), arg(s, 1, 0)),
    [
      c([5, 4], [2, 3]),
      c([5, 4], [1, 1, 2], 1),
      c([5, 4], [0, 5]),
      c([5, 4], [4], -1),
      c([0, 4], [0, 0]),
    ].concat([c(FOUR, [1, 2], 1)]),
    [
      err('E_SHAPE_MISMATCH', /expects split_sizes to sum exactly to 5/, [5, 4], [1, 2]),
      dimErr([5, 4], [5], 2),
      err(
        'E_INVALID_ARGUMENT',
        /split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=\[6, -1\]/,
        [5, 4],
        [6, -1],
      ),
    ],
    {},
  ),
  multi(
    'chunk',
    (s) => R.chunkRef(s.input, arg(s, 0), arg(s, 1, 0)),
    [
      c([5, 4], 2),
      c([5, 4], 3, 1),
      c([5, 4], 6),
      c([5, 4], 1, -1),
      c([0, 4], 2, 1),
      c([4], 3),
      c(FOUR, 2, -1),
    ].concat([c([0, 4], 2)]),
    [
      err('E_INVALID_ARGUMENT', /chunk expects `chunks` to be greater than 0/, [5, 4], 0),
      dimErr([5, 4], 2, 2),
      err('E_INVALID_ARGUMENT', ONE_DIM, [], 1),
    ],
  ),
  multi(
    'unbind',
    (s) => R.unbindRef(s.input, arg(s, 0, 0)),
    [c([3, 4]), c([3, 4], 1), c([3, 4], -1), c([2, 3, 4], 1), c([0, 4], 0), c([0, 4], 1), c([1]), c(FOUR, 3)],
    [
      dimErr([3, 4], 2),
      err('E_DIM_OUT_OF_RANGE', /Dimension specified as 0 but tensor has no dimensions/, [], 0),
    ],
  ),
];

export const INDEX_VIEW_OPINFOS: readonly OpInfo[] = [...INDEXING, ...SPLITS];
