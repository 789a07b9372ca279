/**
 * Pooling: max / avg (2-d, 3-d and the 1-d wrappers), adaptive, fractional, max_unpool; their geometry checks and
 * the cpu window loops.
 */
export { type ADAPTIVE_POOL_API, registerAdaptivePool } from './adaptive.ts';
export { registerFractionalPool } from './fractional.ts';
export { type POOLING_API, registerPoolingFunctional } from './functional.ts';
export { type POOLING_KERNEL_API, registerPoolingKernels } from './pooling.ts';
export { registerUnpool, type UNPOOL_API } from './unpool.ts';
