/**
 * PyTorch type promotion: promote_types (the 12x12 lattice), can_cast, and result_type with the three
 * operand categories (dimensioned tensors > zero-dim tensors > wrapped Python scalars), as in
 * c10/core/ScalarType.h and aten/native/TypeProperties.cpp.
 *
 * Deliberate deviation: PyTorch maps float16 with a complex scalar / zero-dim tensor to complex32, which this
 * runtime does not have; we return complex64 (the next complex dtype that holds float16 exactly).
 */
import {
  DTYPE_INFO,
  type DType,
  isComplexDType,
  isFloatingDType,
  toComplexDType,
  toRealDType,
} from './dtype.ts';
import { InvalidArgumentError } from './errors.ts';

const FLOAT_RANK: Partial<Record<DType, number>> = { float16: 1, bfloat16: 1, float32: 2, float64: 3 };

export function promoteTypes(a: DType, b: DType): DType {
  if (a === b) return a;
  if (a === 'bool') return b;
  if (b === 'bool') return a;
  const ka = DTYPE_INFO[a].kind;
  const kb = DTYPE_INFO[b].kind;
  if (ka === 'complex' || kb === 'complex') {
    const real = promoteTypes(toRealDType(a), toRealDType(b));
    return real === 'float64' ? 'complex128' : 'complex64';
  }
  if (ka === 'float' && kb === 'float') {
    if (FLOAT_RANK[a] === FLOAT_RANK[b]) return 'float32'; // float16 with bfloat16
    return FLOAT_RANK[a]! > FLOAT_RANK[b]! ? a : b;
  }
  if (ka === 'float') return a;
  if (kb === 'float') return b;
  // Both integral.
  if (a === 'uint8' || b === 'uint8') {
    const other = a === 'uint8' ? b : a;
    return other === 'int8' ? 'int16' : other;
  }
  return DTYPE_INFO[a].itemsize >= DTYPE_INFO[b].itemsize ? a : b;
}

/** torch.can_cast: whether `from` may be cast to `to` under the same-kind rule used for in-place / out=. */
export function canCast(from: DType, to: DType): boolean {
  const kf = DTYPE_INFO[from].kind;
  const kt = DTYPE_INFO[to].kind;
  if (kf === 'complex' && kt !== 'complex') return false;
  if (kf === 'float' && (kt === 'int' || kt === 'bool')) return false;
  if (kf !== 'bool' && kt === 'bool') return false;
  return true;
}

/** A Python scalar's kind; it decides the dtype a wrapped number contributes. */
export type ScalarKind = 'bool' | 'int' | 'float' | 'complex';

/** One operand as result_type sees it. */
export type PromotionOperand =
  | { readonly kind: 'tensor'; readonly dtype: DType; readonly dim: number }
  | { readonly kind: 'scalar'; readonly scalarKind: ScalarKind };

let defaultDType: DType = 'float32';

export function getDefaultDType(): DType {
  return defaultDType;
}

export function setDefaultDType(d: DType): void {
  if (d !== 'float32' && d !== 'float64') {
    throw new InvalidArgumentError(`default dtype must be float32 or float64, got ${String(d)}`, {
      op: 'setDefaultDType',
      arg: 'd',
      got: typeof d === 'string' ? d : typeof d,
      expected: 'float32 | float64',
    });
  }
  defaultDType = d;
}

/** The dtype a wrapped Python scalar contributes: int -> int64, float -> default, complex -> its complex. */
export function scalarDType(kind: ScalarKind): DType {
  if (kind === 'bool') return 'bool';
  if (kind === 'int') return 'int64';
  if (kind === 'float') return defaultDType;
  return toComplexDType(defaultDType);
}

function combineCategories(higher: DType | undefined, lower: DType | undefined): DType | undefined {
  if (higher === undefined) return lower;
  if (lower === undefined) return higher;
  if (isComplexDType(higher)) return higher;
  if (isComplexDType(lower)) {
    if (isFloatingDType(higher)) return toComplexDType(higher);
    return lower;
  }
  if (isFloatingDType(higher)) return higher;
  if (higher === 'bool' || isFloatingDType(lower)) return promoteTypes(higher, lower);
  return higher;
}

/** torch.result_type over any number of operands. */
export function resultType(operands: readonly PromotionOperand[]): DType {
  let dimResult: DType | undefined;
  let zeroResult: DType | undefined;
  let wrappedResult: DType | undefined;
  for (const o of operands) {
    if (o.kind === 'scalar') {
      const d = scalarDType(o.scalarKind);
      wrappedResult = wrappedResult === undefined ? d : promoteTypes(wrappedResult, d);
    } else if (o.dim === 0)
      zeroResult = zeroResult === undefined ? o.dtype : promoteTypes(zeroResult, o.dtype);
    else dimResult = dimResult === undefined ? o.dtype : promoteTypes(dimResult, o.dtype);
  }
  const r = combineCategories(dimResult, combineCategories(zeroResult, wrappedResult));
  if (r === undefined)
    throw new InvalidArgumentError('resultType needs at least one operand', {
      op: 'resultType',
      arg: 'operands',
      got: 0,
      expected: '>= 1 operand',
    });
  return r;
}
