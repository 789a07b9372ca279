/**
 * The runtime's public API: torch-like functions, Tensor methods, `callOp` (any op by PyTorch name), dtypes,
 * promotion, scalars, errors and the operator table listing.
 */
import { torchFunctions } from './api/functions.ts';
import { installTensorMethods } from './api/methods.ts';
import { installReadback } from './api/readback.ts';
import { registerAllOps } from './ops/index.ts';

registerAllOps();
installTensorMethods();
installReadback();

export { callOp, operatorTable, DispatchKey, DispatchKeySet, parseSchema, withExcludedKeys, withIncludedKeys, computeKeySet, redispatch, bindCall, type Schema, type OperatorEntry, type Kernel } from './dispatch/index.ts';
export * as core from './core/index.ts';
export {
  Tensor,
  Scalar,
  int,
  float,
  bool,
  complex,
  DTYPES,
  DTYPE_INFO,
  DTYPE_GROUPS,
  type DType,
  type DeviceType,
  promoteTypes,
  canCast,
  resultType,
  getDefaultDType,
  setDefaultDType,
  broadcastShapes,
  OpgateError,
  type ErrorCode,
} from './core/index.ts';
export { tensor, fromArray, type TensorOptions, type NestedData } from './api/creation.ts';
export { getitem, slice, type IndexItem, type Slice } from './api/indexing.ts';
export { flatValues, type Element, type Nested } from './api/readback.ts';
export { listOps, type OpListing } from './api/listing.ts';

export const {
  abs, neg, exp, exp2, expm1, log, log2, log10, log1p, sqrt, rsqrt, sin, cos, tan, asin, acos, atan, sinh, cosh, tanh,
  sigmoid, erf, silu, relu, floor, ceil, trunc, round, frac, sign, reciprocal, square, logical_not, bitwise_not,
  add, sub, mul, div, remainder, fmod, pow, maximum, minimum, atan2, hypot, copysign, eq, ne, lt, le, gt, ge,
  logical_and, logical_or, logical_xor, bitwise_and, bitwise_or, bitwise_xor,
  isnan, isinf, isfinite, clamp, where, view, reshape, permute, transpose, t, expand, expand_as, squeeze, unsqueeze,
  flatten, narrow, select, as_strided, unfold, diagonal, contiguous, clone, movedim,
  sum, mean, prod, amax, amin, argmax, argmin, all, any, var: variance, std, logsumexp, cumsum, cumprod, softmax,
  log_softmax, norm, matmul, mm, bmm, mv, dot, gather, scatter, index_select, masked_fill, flip, roll, tril, triu,
  split, chunk, unbind, sort, topk, max, min,
  empty, zeros, ones, full, arange, linspace, eye, empty_like, zeros_like, ones_like, full_like, cat, stack,
} = torchFunctions;
