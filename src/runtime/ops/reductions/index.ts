/**
 * Reductions and scans: sum, mean, prod, all, any, amax, amin, max, min, argmax, argmin, var, std,
 * logsumexp, norm, linalg_vector_norm, cumsum, cumprod, softmax, log_softmax. Each op is one `plan`
 * (checks, shapes, dtypes: shared by cpu and meta) and one CPU kernel that walks the input's strides.
 */
import { registerMinMax } from './minmax.ts';
import { registerMoments } from './moments.ts';
import { registerNorms } from './norm.ts';
import { registerScans } from './scan.ts';
import { registerSoftmax } from './softmax.ts';
import { registerSums } from './sum.ts';

export function registerReductions(): void {
  registerSums();
  registerMinMax();
  registerMoments();
  registerNorms();
  registerScans();
  registerSoftmax();
}
