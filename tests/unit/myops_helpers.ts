/**
 * The worked custom op of tests/unit/library.test.ts and opcheck.test.ts: `myops::scale_shift` (scale * x + shift,
 * 2.0 and 1.0 by default) with a cpu kernel that reads strides, a fake (meta) kernel and a backward.
 */
import { callOp, DTypeUnsupportedError, library, type Tensor, torch } from '../../src/runtime/index.ts';

export const empty = (shape: readonly number[], o: { dtype?: string; device?: string } = {}) =>
  torch.empty([...shape], o) as Tensor;

/** The cpu kernel: reads x through its strides (no hidden contiguous()), writes a contiguous result. */
export function scaleShiftCpu(x: Tensor, scale: number, shift: number): Tensor {
  // float16 / bfloat16 storages hold bits, not values: this kernel reads float32 and float64 only.
  if (x.dtype !== 'float32' && x.dtype !== 'float64')
    throw new DTypeUnsupportedError('scale_shift takes float32 or float64 tensors', {
      op: 'myops::scale_shift',
      arg: 'x',
      got: x.dtype,
      expected: 'float32 or float64',
    });
  const out = empty(x.shape, { dtype: x.dtype });
  const src = x.storage.data as Float32Array | Float64Array;
  const dst = out.storage.data as Float32Array | Float64Array;
  const idx = new Array<number>(x.ndim).fill(0);
  for (let i = 0; i < out.numel; i++) {
    let off = x.storageOffset;
    for (let d = 0; d < x.ndim; d++) off += idx[d] * x.strides[d];
    dst[i] = scale * src[off] + shift;
    for (let d = x.ndim - 1; d >= 0 && ++idx[d] === x.shape[d]; d--) idx[d] = 0;
  }
  return out;
}

/**
 * Defines myops::scale_shift with its kernels (once per process: the operator table is per process); `cpu` replaces
 * the cpu kernel (a test's injected fault).
 */
export function defineScaleShift(cpu: typeof scaleShiftCpu = scaleShiftCpu): void {
  library.define('myops::scale_shift(Tensor x, float scale=2.0, float shift=1.0) -> Tensor');
  library.impl('myops::scale_shift', 'cpu', cpu);
  library.registerFake('myops::scale_shift', (x: Tensor) =>
    empty(x.shape, { dtype: x.dtype, device: 'meta' }),
  );
  library.registerAutograd(
    'myops::scale_shift',
    (ctx, g) => [callOp('mul', [g, ctx.scale]) as Tensor, null, null],
    {
      setupContext: (ctx, inputs) => {
        ctx.scale = inputs[1];
      },
    },
  );
}
