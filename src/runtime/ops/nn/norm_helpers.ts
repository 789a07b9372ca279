/** What the normalization ops share: the call helper, the dtype they compute in and their dtype check. */
import { DTYPE_INFO, type DType, DTypeUnsupportedError, type Tensor } from '../../core/index.ts';
import { callOp } from '../../dispatch/index.ts';

export const t = (name: string, args: unknown[], kwargs: Record<string, unknown> = {}) =>
  callOp(name, args, kwargs) as Tensor;

/** PyTorch's cpu kernels accumulate half-precision inputs in float32 (opmath) and round the result once. */
export const computeDType = (d: DType): DType => (d === 'bfloat16' || d === 'float16' ? 'float32' : d);

/** aten's floating-only cpu kernels name themselves in the error ("LayerNormKernelImpl" not implemented for 'Long'). */
export function floatingKernel(x: Tensor, kernel: string, op: string): void {
  if (DTYPE_INFO[x.dtype].kind !== 'float')
    throw new DTypeUnsupportedError(`"${kernel}" not implemented for '${DTYPE_INFO[x.dtype].torchName}'`, {
      op,
      arg: 'input',
      got: x.dtype,
      expected: 'a floating dtype',
    });
}
