/**
 * Expected result dtypes from PyTorch's own recorded tables (op_db/refs/torch_type_promotion.json, recorded from
 * PyTorch 1.13) — independent of the runtime's promotion code, so a wrong promotion in a kernel is caught.
 * complex32 (absent from the runtime) maps to complex64, the documented deviation.
 */
import type { DType } from '../../src/runtime/index.ts';
import table from './torch_type_promotion.json' with { type: 'json' };

type Table = Record<string, Record<string, string>>;
const t = table as unknown as {
  promote_types: Table;
  result_type_tensor_vs_python_scalar: Table;
  result_type_dim_tensor_vs_zero_dim_tensor: Table;
  result_type_zero_dim_vs_zero_dim: Table;
};

const fix = (d: string): DType => (d === 'complex32' ? 'complex64' : (d as DType));

/** One operand as the table sees it: a tensor of some dim, or a Python scalar of a kind. */
export type RefOperand =
  | { readonly dtype: DType; readonly dim: number }
  | { readonly scalar: 'int' | 'float' | 'bool' | 'complex' };

/** PyTorch's result_type for two operands (the first a tensor), looked up in the recorded tables. */
export function tableResultType(a: { dtype: DType; dim: number }, b: RefOperand): DType {
  if ('scalar' in b) return fix(t.result_type_tensor_vs_python_scalar[a.dtype][b.scalar]);
  if (a.dim > 0 && b.dim > 0) return fix(t.promote_types[a.dtype][b.dtype]);
  if (a.dim > 0) return fix(t.result_type_dim_tensor_vs_zero_dim_tensor[a.dtype][b.dtype]);
  if (b.dim > 0) return fix(t.result_type_dim_tensor_vs_zero_dim_tensor[b.dtype][a.dtype]);
  return fix(t.result_type_zero_dim_vs_zero_dim[a.dtype][b.dtype]);
}

export type PromotionRule = 'promote' | 'intToFloat' | 'bool' | 'complexToFloat';

const KIND: Record<string, 'bool' | 'int' | 'float' | 'complex'> = {
  bool: 'bool',
  uint8: 'int',
  int8: 'int',
  int16: 'int',
  int32: 'int',
  int64: 'int',
  float16: 'float',
  bfloat16: 'float',
  float32: 'float',
  float64: 'float',
  complex64: 'complex',
  complex128: 'complex',
};

/** Applies an elementwise promotion kind to the common dtype (default float dtype float32). */
export function applyRule(common: DType, rule: PromotionRule): DType {
  if (rule === 'bool') return 'bool';
  if (rule === 'intToFloat' && (KIND[common] === 'int' || KIND[common] === 'bool')) return 'float32';
  if (rule === 'complexToFloat')
    return common === 'complex64' ? 'float32' : common === 'complex128' ? 'float64' : common;
  return common;
}

/** The result dtype of a pointwise sample: input with its first tensor/scalar argument, then the rule. */
export function pointwiseResultDType(
  s: { input: unknown; args: readonly unknown[] },
  rule: PromotionRule,
): DType {
  const input = s.input as { dtype: DType; ndim: number };
  const a = { dtype: input.dtype, dim: input.ndim };
  const other = s.args[0];
  if (other === undefined) return applyRule(a.dtype, rule);
  return applyRule(tableResultType(a, operandOf(other)), rule);
}

function operandOf(x: unknown): RefOperand {
  if (typeof x === 'boolean') return { scalar: 'bool' };
  if (typeof x === 'number') return { scalar: Number.isInteger(x) ? 'int' : 'float' };
  if (typeof x === 'bigint') return { scalar: 'int' };
  const o = x as { dtype?: DType; ndim?: number; kind?: string };
  if (o.dtype !== undefined && o.ndim !== undefined) return { dtype: o.dtype, dim: o.ndim };
  return { scalar: o.kind as 'int' | 'float' | 'bool' | 'complex' };
}
