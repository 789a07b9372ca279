/**
 * Instance times without history: samples × dtype cost × the oracle's ms per sample (its record) × a device
 * factor, calibrated on this project's own runs. Better than round-robin; replaced by history after one run.
 */
import { ORACLE_TABLE } from '../../oracles/index.ts';
import type { DType } from '../../runtime/index.ts';
import type { MatrixInstance } from '../matrix.ts';

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
    ORACLE_TABLE[inst.oracle].msPerSample *
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
