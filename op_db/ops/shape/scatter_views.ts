/**
 * OpInfos for the *_scatter ops (slice_scatter, select_scatter, diagonal_scatter, as_strided_scatter): a clone of
 * self with a view region replaced by src. Differentiable (view backwards are written in them), so gradcheck and
 * gradgradcheck run on every sample.
 */

import { arg, dimErr, type ErrorCase, err, FOUR, type ViewCase, view } from '../../families/views.ts';
import type { Maker } from '../../make.ts';
import * as R from '../../refs/scatter_views.ts';
import type { RefTensor } from '../../refs/tensor.ts';
import type { OpInfo, SkipRule } from '../../types.ts';

/** self of `shape`, src of `src` (made by the sample's maker), then the view's arguments. */
const sc = (shape: readonly number[], src: readonly number[], ...rest: unknown[]): ViewCase => ({
  shape,
  args: (m: Maker) => [m(src), ...rest],
});
const scErr = (e: ErrorCase, src: readonly number[], ...rest: unknown[]): ErrorCase => ({
  ...e,
  args: (m: Maker) => [m(src), ...rest],
});
const SIZE = /expected src to have a size equal to the slice of self/;
const src = (s: { args: readonly unknown[] }) => s.args[0] as RefTensor;
const scatter = (
  name: string,
  ref: Parameters<typeof view>[1],
  cases: ViewCase[],
  errors: ErrorCase[],
  skips: SkipRule[] = [],
) =>
  view(name, ref, cases, errors, {
    flags: { isView: false, supportsAutograd: true, supportsGradgrad: true },
    skips,
  });

/** The layouts whose clone (preserve_format) keeps a non-row-major dense layout. */
const KEPT_LAYOUTS = ['transposed', 'channels_last'] as const;
const STORAGE_REF: SkipRule[] = (['reference', 'backward'] as const).flatMap((oracle) =>
  KEPT_LAYOUTS.map(
    (layout): SkipRule => ({
      kind: 'skip',
      oracle,
      layout,
      reason:
        "as_strided_scatter addresses the storage of self's clone, which keeps this layout: the region holds " +
        'other logical elements than for a contiguous self (so the reference, which reads row-major values as ' +
        'the storage, and the gradient of the contiguous copy differ by design, as in PyTorch)',
    }),
  ),
);

export const SCATTER_VIEW_OPINFOS: readonly OpInfo[] = [
  scatter(
    'slice_scatter',
    (s) => R.sliceScatterRef(s.input, src(s), arg(s, 1, 0), arg(s, 2, null), arg(s, 3, null), arg(s, 4, 1)),
    [
      sc([5, 4], [2, 4], 0, 1, 4, 2),
      sc([5, 4], [5, 2], 1, -2, null, 1),
      sc([5, 4], [5, 4]),
      sc([5, 4], [0, 4], 0, 4, 2, 1),
      sc([7], [2], 0, 2, null, 3),
      sc([0, 4], [0, 2], 1, 1, 3, 1),
      sc(FOUR, [2, 3, 1, 2], 2, 1, null, 1),
    ],
    [
      scErr(err('E_SHAPE_MISMATCH', SIZE, [5, 4]), [3, 4], 0, 1, 3, 1),
      scErr(err('E_INVALID_ARGUMENT', /slice step must be positive/, [5, 4]), [2, 4], 0, 1, 3, 0),
      scErr(dimErr([5, 4]), [5, 4], 2),
    ],
  ),
  scatter(
    'select_scatter',
    (s) => R.selectScatterRef(s.input, src(s), arg(s, 1), arg(s, 2)),
    [
      sc([3, 4], [4], 0, 1),
      sc([3, 4], [3], 1, -1),
      sc([2, 3, 4], [2, 4], 1, 2),
      sc([7], [], 0, 3),
      sc([0, 4], [0], 1, 2),
      sc(FOUR, [2, 3, 2], 2, -2),
    ],
    [
      scErr(err('E_SHAPE_MISMATCH', SIZE, [3, 4]), [3], 0, 1),
      scErr(err('E_INDEX_OUT_OF_RANGE', /index 7 is out of (bounds|range)/, [3, 4]), [3], 1, 7),
      scErr(err('E_INDEX_OUT_OF_RANGE', /select\(\) cannot be applied to a 0-dim tensor/, []), [], 0, 0),
      scErr(dimErr([3, 4]), [3], 2, 0),
    ],
  ),
  scatter(
    'diagonal_scatter',
    (s) => R.diagonalScatterRef(s.input, src(s), arg(s, 1, 0), arg(s, 2, 0), arg(s, 3, 1)),
    [
      sc([3, 4], [3]),
      sc([3, 4], [3], 1),
      sc([3, 4], [2], -1),
      sc([4, 3], [1], 2),
      sc([2, 3, 4], [2, 3], 0, 1, 2),
      sc([2, 3, 4], [3, 2], 1, 0, 2),
      sc([0, 4], [0]),
      sc(FOUR, [2, 3, 2], 0, 2, 3),
    ],
    [
      scErr(err('E_SHAPE_MISMATCH', SIZE, [3, 4]), [4]),
      scErr(err('E_INVALID_ARGUMENT', /diagonal dimensions cannot be identical/, [3, 4]), [3], 0, 1, 1),
      scErr(dimErr([3, 4]), [3], 0, 0, 2),
    ],
  ),
  scatter(
    'as_strided_scatter',
    (s) => R.asStridedScatterRef(s.input, src(s), arg(s, 1), arg(s, 2), arg(s, 3, null)),
    // Regions never overlap themselves (copy_ into an overlapping region raises, unlike PyTorch's; reported).
    [
      sc([2, 6], [2, 2], [2, 2], [1, 2]),
      sc([2, 6], [2, 2], [2, 2], [2, 1], 1),
      sc([3, 4], [3, 4], [3, 4], [4, 1]),
      sc([2, 6], [3], [3], [4], 2),
      sc([2, 6], [0, 3], [0, 3], [3, 1]),
      sc([], [], [], []),
      sc(FOUR, [2, 2, 3], [2, 2, 3], [6, 3, 1]),
    ],
    [
      scErr(err('E_SHAPE_MISMATCH', SIZE, [2, 4]), [3], [2], [1]),
      scErr(err('E_INDEX_OUT_OF_RANGE', /out of bounds for storage/, [2, 4]), [3, 3], [3, 3], [3, 1]),
    ],
    STORAGE_REF,
  ),
];
