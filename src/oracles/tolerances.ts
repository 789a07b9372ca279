/** Default tolerances per dtype: PyTorch's assert_close defaults, recorded from PyTorch 1.13 (DESIGN.md §6). */

import { PYTORCH_TOLERANCES, type Tolerance } from '../../op_db/index.ts';
import type { DeviceType, DType } from '../runtime/index.ts';

export const DEFAULT_TOLERANCES: Readonly<Record<DType, Tolerance>> = PYTORCH_TOLERANCES;

/**
 * Per-device floors (PyTorch's MPS/CUDA toleranceOverride practice): WGSL only bounds its builtins' error in
 * ULPs (exp, log: 3 + 2|x| ULP; sin/cos: absolute 2^-11 on real GPUs), so float32 on webgpu gets 1e-5.
 */
export const DEVICE_TOLERANCES: Partial<Record<DeviceType, Partial<Record<DType, Tolerance>>>> = {
  webgpu: { float32: { rtol: 1e-5, atol: 1e-5 } },
};

/**
 * The tolerance for comparing an output of `dtype`: the OpInfo's override, else the default; on a device with
 * a floor, the looser of the two.
 */
export function toleranceFor(
  dtype: DType,
  overrides: Readonly<Partial<Record<DType, Tolerance>>> = {},
  device: DeviceType = 'cpu',
): Tolerance {
  const base = overrides[dtype] ?? DEFAULT_TOLERANCES[dtype];
  const floor = DEVICE_TOLERANCES[device]?.[dtype];
  if (!floor) return base;
  return { rtol: Math.max(base.rtol, floor.rtol), atol: Math.max(base.atol, floor.atol) };
}
