/**
 * The PyTorch 1.13 aten overloads of op_db's ops that the runtime does not implement, each with its reason, by
 * OpInfo name (like autograd.ts's tables, so op_db/ops entries stay small; an entry may also state its own
 * `unsupportedOverloads`, which wins). Whole categories share one reason. `opgate coverage` lists every other
 * overload as implemented (and called by a sample) or uncovered.
 */
import type { OpInfo } from './types.ts';

export const NAMED = 'named tensors (Dimname arguments) are not supported';
export const SCALAR_OPERAND =
  'a Python number binds the Tensor overload as a wrapped-number tensor (the values and result dtype of ' +
  "PyTorch's Scalar overload); the Scalar overload itself is not registered";
export const SCALAR_SELF =
  'a Python number as the first operand (torch.pow(2, t), torch.remainder(2, t)) is not supported';
export const TORCHSCRIPT =
  'a TorchScript builtin (lists, prim ops), not reachable from the Python tensor API';
export const OUT_FORM = 'the out= form is not implemented';
export const OUT_TUPLE = 'out= with a (values, indices) tuple is not implemented';
export const OUT_STATS = 'out= with an (output, mean, rstd) tuple is not implemented';
export const INPLACE_VIEW =
  "in-place view ops (changing self's sizes or strides in place) are not implemented";
export const DECIMALS =
  'the out= form of round(decimals=) is not implemented (round.decimals and round_.decimals are)';
const DIV_MODE =
  'served by div.Tensor_mode / div.out_mode / div_.Tensor_mode, whose rounding_mode defaults to None here ' +
  '(PyTorch 1.13 has these separate overloads without it): torch.div(a, b) gives the same result';
export const VIEW_DTYPE = "view(dtype) (reinterpreting the storage's bytes) is not implemented";
const NARROW_TENSOR = "a 0-dim integer tensor start binds narrow's int start (__index__); no Tensor overload";
const TO_KEYWORDS =
  'to(dtype=) binds to.dtype by keyword; to(device=) / to(layout=) alone are not implemented';
export const TO_OTHER = "to(other) (other's dtype and device) is not implemented";
const ARANGE_START = 'arange(start, end) binds arange.start_step with its default step=1: the same result';
export const NORM_DTYPE = "norm's dtype= overloads are not implemented (linalg.vector_norm takes dtype=)";
export const WHERE_NONZERO =
  'where(condition) is nonzero(as_tuple=True), and nonzero (a data-dependent output shape) is not implemented';

const all = (reason: string, ...names: string[]): Record<string, string> =>
  Object.fromEntries(names.map((n) => [n, reason]));

export const UNSUPPORTED_OVERLOADS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  round: { ...all(DECIMALS, 'round.decimals_out') },
  isnan: { ...all(OUT_FORM, 'isnan.out') },
  isinf: { ...all(OUT_FORM, 'isinf.out') },
  add: { ...all(SCALAR_OPERAND, 'add.Scalar', 'add.Scalar_out', 'add_.Scalar') },
  sub: { ...all(SCALAR_OPERAND, 'sub.Scalar', 'sub.Scalar_out', 'sub_.Scalar') },
  mul: { ...all(SCALAR_OPERAND, 'mul.Scalar', 'mul.Scalar_out', 'mul_.Scalar') },
  div: {
    ...all(
      SCALAR_OPERAND,
      'div.Scalar',
      'div.Scalar_mode',
      'div.Scalar_mode_out',
      'div.Scalar_out',
      'div_.Scalar',
      'div_.Scalar_mode',
    ),
    ...all(DIV_MODE, 'div.Tensor', 'div.out', 'div_.Tensor'),
  },
  remainder: {
    ...all(SCALAR_OPERAND, 'remainder.Scalar', 'remainder.Scalar_out', 'remainder_.Scalar'),
    ...all(SCALAR_SELF, 'remainder.Scalar_Tensor', 'remainder.Scalar_Tensor_out'),
  },
  fmod: { ...all(SCALAR_OPERAND, 'fmod.Scalar', 'fmod.Scalar_out', 'fmod_.Scalar') },
  pow: {
    ...all(SCALAR_SELF, 'pow.Scalar', 'pow.Scalar_out'),
    ...all(SCALAR_OPERAND, 'pow.Tensor_Scalar', 'pow.Tensor_Scalar_out', 'pow_.Scalar'),
  },
  copysign: { ...all(SCALAR_OPERAND, 'copysign.Scalar', 'copysign.Scalar_out', 'copysign_.Scalar') },
  eq: {
    ...all(SCALAR_OPERAND, 'eq.Scalar', 'eq.Scalar_out', 'eq_.Scalar'),
    ...all(TORCHSCRIPT, 'eq.Tensor_list'),
  },
  ne: {
    ...all(SCALAR_OPERAND, 'ne.Scalar', 'ne.Scalar_out', 'ne_.Scalar'),
    ...all(TORCHSCRIPT, 'ne.Tensor_list'),
  },
  lt: { ...all(SCALAR_OPERAND, 'lt.Scalar', 'lt.Scalar_out', 'lt_.Scalar') },
  le: { ...all(SCALAR_OPERAND, 'le.Scalar', 'le.Scalar_out', 'le_.Scalar') },
  gt: { ...all(SCALAR_OPERAND, 'gt.Scalar', 'gt.Scalar_out', 'gt_.Scalar') },
  ge: { ...all(SCALAR_OPERAND, 'ge.Scalar', 'ge.Scalar_out', 'ge_.Scalar') },
  bitwise_and: {
    ...all(SCALAR_OPERAND, 'bitwise_and.Scalar', 'bitwise_and.Scalar_out', 'bitwise_and_.Scalar'),
    ...all(SCALAR_SELF, 'bitwise_and.Scalar_Tensor', 'bitwise_and.Scalar_Tensor_out'),
  },
  bitwise_or: {
    ...all(SCALAR_OPERAND, 'bitwise_or.Scalar', 'bitwise_or.Scalar_out', 'bitwise_or_.Scalar'),
    ...all(SCALAR_SELF, 'bitwise_or.Scalar_Tensor', 'bitwise_or.Scalar_Tensor_out'),
  },
  bitwise_xor: {
    ...all(SCALAR_OPERAND, 'bitwise_xor.Scalar', 'bitwise_xor.Scalar_out', 'bitwise_xor_.Scalar'),
    ...all(SCALAR_SELF, 'bitwise_xor.Scalar_Tensor', 'bitwise_xor.Scalar_Tensor_out'),
  },
  detach: { ...all(INPLACE_VIEW, 'detach_') },
  view: { ...all(VIEW_DTYPE, 'view.dtype') },
  flatten: { ...all(NAMED, 'flatten.DimnameList', 'flatten.named_out_dim', 'flatten.using_names') },
  transpose: { ...all(NAMED, 'transpose.Dimname'), ...all(INPLACE_VIEW, 'transpose_') },
  t: { ...all(INPLACE_VIEW, 't_') },
  squeeze: {
    ...all(NAMED, 'squeeze.dimname', 'squeeze_.dimname'),
    ...all(INPLACE_VIEW, 'squeeze_', 'squeeze_.dim'),
  },
  unsqueeze: { ...all(INPLACE_VIEW, 'unsqueeze_') },
  narrow: { ...all(NARROW_TENSOR, 'narrow.Tensor') },
  select: { ...all(NAMED, 'select.Dimname') },
  as_strided: { ...all(INPLACE_VIEW, 'as_strided_') },
  diagonal: { ...all(NAMED, 'diagonal.Dimname') },
  split: { ...all(TORCHSCRIPT, 'split') },
  unbind: { ...all(NAMED, 'unbind.Dimname') },
  clone: { ...all(OUT_FORM, 'clone.out') },
  to: {
    ...all(TO_KEYWORDS, 'to.dtype_layout'),
    ...all(TO_OTHER, 'to.other'),
    ...all(TORCHSCRIPT, 'to.prim_Device', 'to.prim_dtype', 'to.prim_other'),
  },
  copy_: { ...all(TORCHSCRIPT, 'copy_.Tensor', 'copy_.float', 'copy_.int') },
  empty: { ...all(NAMED, 'empty.names', 'empty.names_out'), ...all(OUT_FORM, 'empty.out') },
  empty_like: { ...all(OUT_FORM, 'empty_like.out') },
  zeros: { ...all(NAMED, 'zeros.names', 'zeros.names_out'), ...all(OUT_FORM, 'zeros.out') },
  zeros_like: { ...all(OUT_FORM, 'zeros_like.out') },
  ones: { ...all(NAMED, 'ones.names', 'ones.names_out'), ...all(OUT_FORM, 'ones.out') },
  ones_like: { ...all(OUT_FORM, 'ones_like.out') },
  full: { ...all(NAMED, 'full.names', 'full.names_out'), ...all(OUT_FORM, 'full.out') },
  full_like: { ...all(OUT_FORM, 'full_like.out') },
  arange: { ...all(OUT_FORM, 'arange.out', 'arange.start_out'), ...all(ARANGE_START, 'arange.start') },
  linspace: { ...all(OUT_FORM, 'linspace.out') },
  eye: { ...all(OUT_FORM, 'eye.m_out', 'eye.out') },
  sum: { ...all(NAMED, 'sum.DimnameList_out', 'sum.dim_DimnameList') },
  mean: { ...all(NAMED, 'mean.names_dim', 'mean.names_out') },
  prod: { ...all(NAMED, 'prod.Dimname_out', 'prod.dim_Dimname') },
  all: { ...all(NAMED, 'all.dimname', 'all.dimname_out') },
  any: { ...all(NAMED, 'any.dimname', 'any.dimname_out') },
  max: {
    ...all(OUT_TUPLE, 'max.dim_max'),
    ...all(NAMED, 'max.names_dim', 'max.names_dim_max'),
  },
  min: {
    ...all(OUT_TUPLE, 'min.dim_min'),
    ...all(NAMED, 'min.names_dim', 'min.names_dim_min'),
  },
  var: {
    ...all(NAMED, 'var.correction_names', 'var.correction_names_out', 'var.names_dim', 'var.names_out'),
  },
  std: {
    ...all(NAMED, 'std.correction_names', 'std.correction_names_out', 'std.names_dim', 'std.names_out'),
  },
  logsumexp: { ...all(NAMED, 'logsumexp.names', 'logsumexp.names_out') },
  norm: {
    ...all(
      NORM_DTYPE,
      'norm.ScalarOpt_dim_dtype',
      'norm.ScalarOpt_dtype',
      'norm.ScalarOpt_dtype_out',
      'norm.dtype_out',
    ),
    ...all(OUT_FORM, 'norm.Scalar_out'),
    ...all(
      NAMED,
      'norm.names_ScalarOpt_dim',
      'norm.names_ScalarOpt_dim_dtype',
      'norm.names_dtype_out',
      'norm.names_out',
    ),
  },
  cumsum: {
    ...all(NAMED, 'cumsum.dimname', 'cumsum.dimname_out', 'cumsum_.dimname'),
  },
  cumprod: {
    ...all(NAMED, 'cumprod.dimname', 'cumprod.dimname_out', 'cumprod_.dimname'),
  },
  softmax: { ...all(NAMED, 'softmax.Dimname') },
  log_softmax: { ...all(NAMED, 'log_softmax.Dimname') },
  cat: { ...all(NAMED, 'cat.names', 'cat.names_out') },
  where: {
    ...all(WHERE_NONZERO, 'where'),
    ...all(SCALAR_OPERAND, 'where.Scalar', 'where.ScalarOther', 'where.ScalarSelf'),
  },
  gather: { ...all(NAMED, 'gather.dimname', 'gather.dimname_out') },
  scatter: { ...all(NAMED, 'scatter.dimname_src', 'scatter.dimname_value') },
  index_select: { ...all(NAMED, 'index_select.dimname', 'index_select.dimname_out') },
  sort: {
    ...all(TORCHSCRIPT, 'sort.Tensor'),
    ...all(NAMED, 'sort.dimname', 'sort.dimname_stable', 'sort.dimname_values', 'sort.dimname_values_stable'),
    ...all(OUT_TUPLE, 'sort.values', 'sort.values_stable'),
  },
  topk: { ...all(OUT_TUPLE, 'topk.values') },
  native_batch_norm: { ...all(OUT_STATS, 'native_batch_norm.out') },
  native_layer_norm: { ...all(OUT_STATS, 'native_layer_norm.out') },
  slice_scatter: { ...all(OUT_FORM, 'slice_scatter.out') },
  select_scatter: { ...all(OUT_FORM, 'select_scatter.out') },
  diagonal_scatter: { ...all(OUT_FORM, 'diagonal_scatter.out') },
  as_strided_scatter: { ...all(OUT_FORM, 'as_strided_scatter.out') },
};

/** The OpInfo with the table's unsupported overloads (its own entries win). */
export function withUnsupportedOverloads(info: OpInfo): OpInfo {
  const table = UNSUPPORTED_OVERLOADS[info.name];
  return table ? { ...info, unsupportedOverloads: { ...table, ...info.unsupportedOverloads } } : info;
}
