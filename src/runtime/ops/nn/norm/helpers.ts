/** What the normalization ops share: the dtype they compute in. */
import type { DType } from '../../../core/index.ts';

/** PyTorch's cpu kernels accumulate half-precision inputs in float32 (opmath) and round the result once. */
export const computeDType = (d: DType): DType => (d === 'bfloat16' || d === 'float16' ? 'float32' : d);
