/**
 * jax-js's documented semantics where they are not PyTorch's: instances these cover are expected to depart (xfail),
 * kept apart from the departures the oracles find. Each reason cites what JAX, NumPy or jax-js document; what is
 * believed to be a bug of jax-js is not declared here (tools/targets/jax-js/README.md lists those).
 */
import type { Departure } from '../target.ts';

const NO_INT64 =
  "JAX's default integer is int32 unless jax_enable_x64 is set (https://docs.jax.dev/en/latest/default_dtypes.html) " +
  'and jax-js has no 64-bit integers (its DType: float32, int32, uint32, bool, float16, float64): indices and ' +
  'integer sums are int32 where PyTorch gives int64 (and int64 inputs go in as int32)';
const WEAK =
  "jax-js's promoteTypes() documents a JS number as weakly typed, taking the dtype of the array it is first combined " +
  'with (except bool): int32 + 2.5 is int32, where PyTorch gives float32';
const ZERO_DIM =
  "JAX's type promotion treats a 0-d array like any other array (https://docs.jax.dev/en/latest/type_promotion.html): " +
  'float32 with a 0-d float64 is float64, where PyTorch lets the dimensioned tensor decide';
const NUMPY_LINALG =
  'np.matmul and np.dot follow NumPy (https://numpy.org/doc/stable/reference/generated/numpy.dot.html): any rank, ' +
  "mixed dtypes promote; PyTorch's mm/bmm/mv/dot require their exact ranks and equal dtypes";

const OUT_OF_BOUNDS =
  'JAX does not raise for out-of-bounds indices, it clamps or fills them ' +
  '(https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#out-of-bounds-indexing); PyTorch raises';

export const JAX_DEPARTURES: readonly Departure[] = [
  { op: 'argmax', reason: NO_INT64 },
  { op: 'argmin', reason: NO_INT64 },
  { op: 'max', reason: NO_INT64 },
  { op: 'min', reason: NO_INT64 },
  { op: 'sort', reason: NO_INT64 },
  { op: 'topk', reason: NO_INT64 },
  { op: 'sum', dtypes: ['int32'], reason: NO_INT64 },
  { op: 'prod', dtypes: ['int32'], reason: NO_INT64 },
  { op: 'cumsum', dtypes: ['int32'], reason: NO_INT64 },
  { op: 'cumprod', dtypes: ['int32'], reason: NO_INT64 },
  { op: 'where', dtypes: ['bool', 'int32'], reason: NO_INT64 },
  { op: 'where', dtypes: ['float32'], reason: ZERO_DIM },
  { op: 'add', dtypes: ['int32'], reason: WEAK },
  { op: 'sub', dtypes: ['int32'], reason: WEAK },
  { op: 'mul', dtypes: ['int32'], reason: WEAK },
  { op: 'div', dtypes: ['int32'], reason: WEAK },
  { op: 'mm', dtypes: ['float64'], reason: NUMPY_LINALG },
  { op: 'bmm', dtypes: ['float64'], reason: NUMPY_LINALG },
  { op: 'mv', reason: NUMPY_LINALG },
  { op: 'dot', reason: NUMPY_LINALG },
  {
    op: 'view',
    reason:
      'jax arrays have no strides: jnp.reshape of any array succeeds (https://docs.jax.dev/en/latest/_autosummary/jax.numpy.reshape.html), where PyTorch refuses to view a non-contiguous tensor',
  },
  {
    op: 't',
    reason:
      "jnp.transpose without axes (NumPy's ndarray.T) reverses the axes of any rank; PyTorch's t() refuses more than 2",
  },
  { op: 'nn.functional.embedding', reason: OUT_OF_BOUNDS },
  { op: 'gather', reason: OUT_OF_BOUNDS },
  { op: 'index_select', reason: OUT_OF_BOUNDS },
  {
    op: 'nn.functional.celu',
    reason:
      'JAX checks no argument values at run time (functions must trace under jit): jax.nn.celu(x, alpha=0) divides by zero where PyTorch raises',
  },
  {
    op: 'sign',
    dtypes: ['float32'],
    reason:
      'sign(nan) is nan in NumPy and JAX (https://numpy.org/doc/stable/reference/generated/numpy.sign.html); PyTorch 1.13 gives 0',
  },
];
