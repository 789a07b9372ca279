/**
 * Python scalars as 0-dim "wrapped number" tensors. Like PyTorch, they hold full precision (int64, float64,
 * complex128, bool) and promote by their scalar kind, not by their storage dtype.
 */
import type { DType } from './dtype.ts';
import type { PromotionOperand, ScalarKind } from './promotion.ts';
import type { Scalar } from './scalar.ts';
import { Tensor } from './tensor.ts';

const WRAPPED_DTYPE: Record<ScalarKind, DType> = {
  bool: 'bool',
  int: 'int64',
  float: 'float64',
  complex: 'complex128',
};

export function scalarToTensor(s: Scalar): Tensor {
  const dtype = WRAPPED_DTYPE[s.kind];
  const t = Tensor.empty([], dtype, 'cpu');
  const data = t.storage.data!;
  if (dtype === 'int64') (data as BigInt64Array)[0] = BigInt.asIntN(64, s.toBigInt());
  else if (s.kind === 'complex') {
    data[0] = s.toNumber();
    data[1] = s.imag;
  } else data[0] = s.toNumber();
  t.isWrappedNumber = true;
  return t;
}

const KIND_OF: Record<string, ScalarKind> = { bool: 'bool', int: 'int', float: 'float', complex: 'complex' };

/** How a tensor takes part in result_type: wrapped numbers as scalars, others by dtype and dim. */
export function promotionOperand(t: Tensor): PromotionOperand {
  if (t.isWrappedNumber) {
    const k =
      t.dtype === 'bool' ? 'bool' : t.dtype === 'int64' ? 'int' : t.dtype === 'float64' ? 'float' : 'complex';
    return { kind: 'scalar', scalarKind: KIND_OF[k] };
  }
  return { kind: 'tensor', dtype: t.dtype, dim: t.ndim };
}
