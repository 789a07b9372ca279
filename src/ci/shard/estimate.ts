/**
 * Instance times without history: samples × dtype cost × oracle and device factors, calibrated on this
 * project's own runs (ms per sample). Better than round-robin; replaced by history after one run.
 */
import type { DType } from '../../runtime/index.ts';
import type { MatrixInstance } from '../matrix.ts';

const ORACLE_MS: Record<string, number> = {
  reference: 0.25,
  metadata: 0.15,
  dtypes: 0.15,
  errors: 0.1,
  property: 4,
  gradcheck: 3,
  gradgradcheck: 6,
  backward: 1.5,
  crossbackend: 0.6,
  compile: 3,
};
const DEVICE_FACTOR: Record<string, number> = { cpu: 1, meta: 0.5, webgpu: 4 };
/** Wider and emulated dtypes cost more per element. */
const DTYPE_FACTOR: Partial<Record<DType, number>> = {
  float16: 1.6,
  bfloat16: 1.6,
  complex64: 1.8,
  complex128: 1.8,
  int64: 1.3,
};

export function estimator(samplesOf: (inst: MatrixInstance) => number): (inst: MatrixInstance) => number {
  return (inst) =>
    samplesOf(inst) *
    (ORACLE_MS[inst.oracle] ?? 1) *
    (DEVICE_FACTOR[inst.device] ?? 1) *
    (DTYPE_FACTOR[inst.dtype] ?? 1);
}

/** Sample counts per (op, dtype), computed once (cheap: samples are small by design). */
export function sampleCounter(): (inst: MatrixInstance) => number {
  const cache = new Map<string, number>();
  return (inst) => {
    const key = `${inst.info.name}|${inst.dtype}`;
    let n = cache.get(key);
    if (n === undefined) {
      try {
        n = inst.info.sampleInputs({ device: 'cpu', dtype: inst.dtype, requiresGrad: false, seed: 0 }).length;
      } catch {
        n = 4;
      }
      cache.set(key, n);
    }
    return Math.max(n, 1);
  };
}
