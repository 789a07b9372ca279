/**
 * The names the public API exposes as torch-like functions and Tensor methods. Each is an op name that
 * `callOp` resolves (functions/methods are generated from these lists, so the two never drift apart).
 */
export const UNARY_NAMES = [
  'abs', 'neg', 'exp', 'exp2', 'expm1', 'log', 'log2', 'log10', 'log1p', 'sqrt', 'rsqrt', 'sin', 'cos', 'tan',
  'asin', 'acos', 'atan', 'sinh', 'cosh', 'tanh', 'sigmoid', 'erf', 'silu', 'relu', 'floor', 'ceil', 'trunc',
  'round', 'frac', 'sign', 'reciprocal', 'square', 'logical_not', 'bitwise_not',
] as const;

export const BINARY_NAMES = [
  'add', 'sub', 'mul', 'div', 'remainder', 'fmod', 'pow', 'maximum', 'minimum', 'atan2', 'hypot', 'copysign',
  'eq', 'ne', 'lt', 'le', 'gt', 'ge', 'logical_and', 'logical_or', 'logical_xor', 'bitwise_and', 'bitwise_or',
  'bitwise_xor',
] as const;

/** Ops with an in-place `name_` method. */
/** Binary ops PyTorch gives no in-place variant. */
const NO_INPLACE = ['maximum', 'minimum'] as const;
type WithInplace = Exclude<(typeof BINARY_NAMES)[number], (typeof NO_INPLACE)[number]>;

export const INPLACE_NAMES = [
  ...UNARY_NAMES,
  ...BINARY_NAMES.filter((n): n is WithInplace => !(NO_INPLACE as readonly string[]).includes(n)),
  'clamp', 'fill', 'zero', 'copy', 'masked_fill', 'scatter', 'resize', 'tril', 'triu',
] as const;

/** Other single-result ops exposed both as functions and methods. */
export const OTHER_NAMES = [
  'isnan', 'isinf', 'isfinite', 'clamp', 'where',
  'view', 'reshape', 'permute', 'transpose', 't', 'expand', 'expand_as', 'squeeze', 'unsqueeze', 'flatten', 'narrow',
  'select', 'slice', 'as_strided', 'unfold', 'diagonal', 'contiguous', 'clone', 'movedim',
  'sum', 'mean', 'prod', 'amax', 'amin', 'argmax', 'argmin', 'all', 'any', 'var', 'std', 'logsumexp', 'cumsum',
  'cumprod', 'softmax', 'log_softmax', 'norm',
  'matmul', 'mm', 'bmm', 'mv', 'dot', 'gather', 'scatter', 'index_select', 'masked_fill', 'flip', 'roll', 'tril', 'triu',
] as const;

/** Ops returning several tensors (a list or a values/indices pair). */
export const MULTI_NAMES = ['split', 'chunk', 'unbind', 'sort', 'topk', 'max', 'min'] as const;

/** Functions only (no method). */
export const FUNCTION_ONLY_NAMES = [
  'empty', 'zeros', 'ones', 'full', 'arange', 'linspace', 'eye', 'empty_like', 'zeros_like', 'ones_like',
  'full_like', 'cat', 'stack',
] as const;
