/** Default tolerances per dtype, PyTorch's assertEqual defaults (DESIGN.md §6). */

import type { Tolerance } from '../../op_db/index.ts';
import type { DType } from '../runtime/index.ts';

export const DEFAULT_TOLERANCES: Record<DType, Tolerance> = {
  bool: { rtol: 0, atol: 0 },
  uint8: { rtol: 0, atol: 0 },
  int8: { rtol: 0, atol: 0 },
  int16: { rtol: 0, atol: 0 },
  int32: { rtol: 0, atol: 0 },
  int64: { rtol: 0, atol: 0 },
  float16: { rtol: 1e-3, atol: 1e-5 },
  bfloat16: { rtol: 1.6e-2, atol: 1e-5 },
  float32: { rtol: 1.3e-6, atol: 1e-5 },
  float64: { rtol: 1e-7, atol: 1e-7 },
  complex64: { rtol: 1.3e-6, atol: 1e-5 },
  complex128: { rtol: 1e-7, atol: 1e-7 },
};

/** The tolerance for comparing an output of `dtype`: the OpInfo's override, else the default. */
export function toleranceFor(
  dtype: DType,
  overrides: Readonly<Partial<Record<DType, Tolerance>>> = {},
): Tolerance {
  return overrides[dtype] ?? DEFAULT_TOLERANCES[dtype];
}
