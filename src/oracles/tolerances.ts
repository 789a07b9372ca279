/** Default tolerances per dtype: PyTorch's assert_close defaults, recorded from PyTorch 1.13 (DESIGN.md §6). */

import { PYTORCH_TOLERANCES, type Tolerance } from '../../op_db/index.ts';
import type { DeviceType, DType } from '../runtime/index.ts';
import { close } from './compare.ts';

export const DEFAULT_TOLERANCES: Readonly<Record<DType, Tolerance>> = PYTORCH_TOLERANCES;

/**
 * Per-device floors (PyTorch's MPS/CUDA toleranceOverride practice): WGSL only bounds its builtins' error in
 * ULPs (exp, log: 3 + 2|x| ULP; sin/cos: absolute 2^-11 on real GPUs), so float32 on webgpu gets 1e-5.
 */
export const DEVICE_TOLERANCES: Partial<Record<DeviceType, Partial<Record<DType, Tolerance>>>> = {
  webgpu: { float32: { rtol: 1e-5, atol: 1e-5 } },
};

/**
 * What each floor must accept and reject: relative errors of a result of magnitude 1. webgpu float32 accepts 5e-6
 * (42 ULP: exp's and log's 3 + 2|x| ULP bound up to |x| = 19, past every sample's range) and rejects 5e-5 (420
 * ULP: beyond every bound WGSL documents for the arithmetic and builtins on those ranges, and what a float32 sum
 * of a thousand terms accumulated without care drifts by). A floor loosened tenfold accepts the second.
 */
const FLOOR_EDGES: Partial<Record<DeviceType, Partial<Record<DType, { accept: number; reject: number }>>>> = {
  webgpu: { float32: { accept: 5e-6, reject: 5e-5 } },
};

/**
 * Why a device floor is miscalibrated, or null: the tolerance each floor puts in force (over the dtype's
 * default) must accept its `accept` error and reject its `reject` error. Run by every reference instance, as
 * gradcheck's calibration is by every gradient instance: a floor is data no kernel's result can judge on a
 * machine whose GPU is more accurate than the documented bound.
 */
export function floorCalibrationFailure(): string | null {
  for (const [device, floors] of Object.entries(DEVICE_TOLERANCES) as [
    DeviceType,
    Record<DType, Tolerance>,
  ][])
    for (const dtype of Object.keys(floors) as DType[]) {
      const edges = FLOOR_EDGES[device]?.[dtype];
      if (!edges) return `device floor ${device} ${dtype}: no calibration edges declared (FLOOR_EDGES)`;
      const tol = toleranceFor(dtype, {}, device);
      if (!close(1 + edges.accept, 1, tol))
        return `device floor ${device} ${dtype}: rejects a relative error of ${edges.accept} (rtol ${tol.rtol}, atol ${tol.atol}): tighter than its documented bound`;
      if (close(1 + edges.reject, 1, tol))
        return `device floor ${device} ${dtype}: accepts a relative error of ${edges.reject} (rtol ${tol.rtol}, atol ${tol.atol}): looser than its documented bound`;
    }
  return null;
}

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
