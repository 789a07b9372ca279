/**
 * OpInfos for shape views (view, reshape, flatten, permute, transpose, t, expand, expand_as, squeeze, unsqueeze);
 * VIEW_OPINFOS also gathers the indexing views (views_index.ts) and the copies (copies.ts). Samples are valid
 * under every layout: `view` only splits dim 0 or inserts size-1 dims, which no layout's strides prevent.
 */
import { arg, c, dimErr, err, FOUR, sizeArg, type ViewCase, view } from '../../families/views.ts';
import type { RefTensor } from '../../refs/tensor.ts';
import * as R from '../../refs/views.ts';
import type { OpInfo } from '../../types.ts';
import { COPY_OPINFOS } from './copies.ts';
import { INDEX_VIEW_OPINFOS } from './views_index.ts';

const numelErrors = [
  err('E_SHAPE_MISMATCH', /shape '\[5\]' is invalid for input of size 12/, [3, 4], [5]),
  err('E_INVALID_ARGUMENT', /only one dimension can be inferred/, [3, 4], [-1, -1]),
  err('E_INVALID_ARGUMENT', /invalid shape dimension -2/, [6], [-2, 3]),
  // The inferred size must divide the element count.
  err('E_SHAPE_MISMATCH', /shape '\[-1, 4\]' is invalid for input of size 6/, [6], [-1, 4]),
];
const sameValues = (x: RefTensor) => R.reshapeRef(x, x.shape);

const viewCases: ViewCase[] = [
  c([2, 3, 4], [2, 1, 3, 4]),
  c([6, 4], [2, 3, 4]),
  c([6, 4], [-1, 3, 4]),
  c([5], [5, 1]),
  c([], [1, 1]),
  c([1], []),
  c([0, 4], [0, 2, 2]),
  c(FOUR, [2, 1, 3, 2, 1, 2]),
  // Tensor.view(*size): the sizes as varargs (PyTorch has no torch.view function; the method takes both forms).
  { shape: [6, 4], args: [2, 3, 4] },
];

const SHAPE_VIEWS: OpInfo[] = [
  // detach: the same values as a view without autograd history (op_db/autograd.ts: not differentiable).
  view('detach', (s) => sameValues(s.input), [c([3, 4]), c([]), c([0, 4]), c([2, 3, 2, 2])], []),
  view('view', (s) => R.reshapeRef(s.input, sizeArg(s)), viewCases, [
    {
      ...err(
        'E_INVALID_VIEW',
        /view size is not compatible with input tensor's size and stride/,
        [3, 4],
        [12],
      ),
      prep: (t) => t.t(),
    },
    ...numelErrors,
  ]),
  view(
    'reshape',
    (s) => R.reshapeRef(s.input, sizeArg(s)),
    [
      c([2, 3, 4], [4, 6]),
      c([6, 4], [24]),
      c([3, 4], [-1]),
      c([], [1, 1]),
      c([1], []),
      c([0, 4], [2, 0, 2]),
    ].concat([
      c(FOUR, [6, 4]),
      // Tensor.reshape(*shape): varargs, the method's form only (torch.reshape takes one list).
      { shape: [2, 3, 4], args: [4, -1], method: true },
    ]),
    numelErrors,
    { flags: { isView: false } },
  ),
  view(
    'flatten',
    (s) => R.flattenRef(s.input, arg(s, 0, 0), arg(s, 1, -1)),
    [c([2, 3, 4]), c([2, 3, 4], 1, -1), c([2, 3, 4], 0, 1), c([]), c([7]), c([0, 4]), c(FOUR, 1, 2)],
    [err('E_INVALID_ARGUMENT', /start_dim cannot come after end_dim/, [2, 3, 4], 2, 1), dimErr([2, 3], 0, 2)],
    { flags: { isView: false } },
  ),
  view(
    'permute',
    (s) => R.permuteRef(s.input, sizeArg(s)),
    [c([2, 3, 4], [2, 0, 1]), c([2, 3, 4], [-1, 0, -2]), c([3, 5], [1, 0]), c([], []), c([7], [0])].concat([
      c([0, 4], [1, 0]),
      c(FOUR, [0, 2, 3, 1]),
      // Tensor.permute(*dims): varargs, the method's form only (torch.permute takes one list).
      { shape: [2, 3, 4], args: [1, -1, 0], method: true },
    ]),
    [
      dimErr([2, 3], [0, 2]),
      // PyTorch 1.13: "repeated dim in permute" / "number of dims don't match in permute" (reported).
      err('E_INVALID_ARGUMENT', /repeated dim in permute|dims must be a permutation/, [2, 3], [0, 0]),
      err(
        'E_INVALID_ARGUMENT',
        /number of dims don't match in permute|dims must be a permutation/,
        [2, 3],
        [0],
      ),
    ],
  ),
  view(
    'transpose',
    (s) => R.transposeRef(s.input, arg(s, 0), arg(s, 1)),
    [c([2, 3, 4], 0, 2), c([3, 5], -1, 0), c([7], 0, 0), c([0, 4], 0, 1), c(FOUR, 1, 3)].concat([
      c([], 0, -1),
    ]),
    [dimErr([2, 3], 0, 2), dimErr([2, 3], -3, 0)],
  ),
  view(
    't',
    (s) => (s.input.shape.length < 2 ? sameValues(s.input) : R.transposeRef(s.input, 0, 1)),
    [c([3, 5]), c([7]), c([]), c([0, 4]), c([1, 4])],
    [err('E_INVALID_ARGUMENT', /t\(\) expects a tensor with <= 2 dimensions, but self is 3D/, [2, 3, 4])],
  ),
  view(
    'expand',
    (s) => R.expandRef(s.input, sizeArg(s)),
    [c([3, 1], [3, 4]), c([3, 1], [2, 3, 4]), c([3, 1], [-1, 4]), c([], [2, 3]), c([1], [0])].concat([
      c([2, 1, 4], [2, 3, -1]),
      c([3, 4], [3, 4]),
      { shape: [3, 1], args: [[3, 4]], kwargs: { implicit: false } },
      // Tensor.expand(*size): varargs (no torch.expand function exists), with and without implicit=.
      { shape: [3, 1], args: [2, 3, 4] },
      { shape: [3, 1], args: [3, 4], kwargs: { implicit: true } },
    ]),
    [
      err(
        'E_SHAPE_MISMATCH',
        /expanded size of the tensor \(5\) must match the existing size \(4\)/,
        [3, 4],
        [3, 5],
      ),
      err(
        'E_SHAPE_MISMATCH',
        /must be greater or equal to the number of dimensions in the tensor/,
        [2, 3],
        [3],
      ),
      err('E_INVALID_ARGUMENT', /\(-1\) isn't allowed in a leading, non-existing dimension/, [3], [-1, 3]),
    ],
  ),
  view(
    'expand_as',
    (s) => R.expandRef(s.input, arg<RefTensor>(s, 0).shape),
    [
      { shape: [3, 1], args: (m) => [m([3, 4])] },
      { shape: [], args: (m) => [m([2, 3])] },
      { shape: [1, 4], args: (m) => [m([0, 4])] },
      { shape: [4], args: (m) => [m([2, 3, 4])] },
    ],
    [
      {
        ...err(
          'E_SHAPE_MISMATCH',
          /expanded size of the tensor \(5\) must match the existing size \(4\)/,
          [3, 4],
        ),
        args: (m) => [m([3, 5])],
      },
    ],
  ),
  view(
    'squeeze',
    (s) => R.squeezeRef(s.input, arg(s, 0)),
    [c([2, 1, 3, 1]), c([1, 1]), c([]), c([0, 1]), c([2, 1, 3], 1), c([2, 1, 3], -2), c([2, 1, 3], 0)].concat(
      [c([], 0), c([], -1)],
    ),
    [dimErr([2, 1], 2), dimErr([], 1)],
  ),
  view(
    'unsqueeze',
    (s) => R.unsqueezeRef(s.input, arg(s, 0)),
    [c([2, 3], 0), c([2, 3], 2), c([2, 3], -1), c([2, 3], -3), c([], 0), c([], -1), c([0, 4], 1), c(FOUR, 2)],
    [dimErr([2, 3], 3), dimErr([2, 3], -4)],
  ),
];

export const VIEW_OPINFOS: readonly OpInfo[] = [...SHAPE_VIEWS, ...INDEX_VIEW_OPINFOS, ...COPY_OPINFOS];
