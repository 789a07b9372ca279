/**
 * Reductions and scans: sum, mean, prod, all, any, amax, amin, max, min, argmax, argmin, var, std,
 * logsumexp, norm, linalg_vector_norm, cumsum, cumprod, softmax, log_softmax. Each op is one `plan`
 * (checks, shapes, dtypes: shared by cpu and meta) and one CPU kernel that walks the input's strides.
 */

import { type ApiDecl, operatorTable } from '../../dispatch/index.ts';
import { registerMinMax } from './minmax.ts';
import { registerMoments } from './moments.ts';
import { registerNorms } from './norm.ts';
import { registerPythonNorms } from './norm_python.ts';
import { registerScans } from './scan.ts';
import { registerSoftmax } from './softmax.ts';
import { registerSums } from './sum.ts';

/** The Python variants of the ops registered here (native_functions.yaml's `variants`; see dispatch/variants.ts). */
export const REDUCTION_API = {
  sum: 'function, method',
  mean: 'function, method',
  prod: 'function, method',
  amax: 'function, method',
  amin: 'function, method',
  argmax: 'function, method',
  argmin: 'function, method',
  all: 'function, method',
  any: 'function, method',
  var: 'function, method',
  std: 'function, method',
  logsumexp: 'function, method',
  cumsum: 'function, method',
  cumprod: 'function, method',
  cumsum_: 'method',
  cumprod_: 'method',
  softmax: 'function, method',
  log_softmax: 'function, method',
  norm: 'function, method',
  max: ['function, method', 'list'],
  min: ['function, method', 'list'],
} as const satisfies ApiDecl;

export function registerReductions(): void {
  registerSums();
  registerMinMax();
  registerMoments();
  registerNorms();
  registerPythonNorms();
  registerScans();
  registerSoftmax();
  operatorTable.declare(REDUCTION_API);
}
