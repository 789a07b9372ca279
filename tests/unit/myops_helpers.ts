/**
 * The worked custom op of tests/unit/library.test.ts and opcheck.test.ts: `myops::scale_shift` (scale * x + shift,
 * 2.0 and 1.0 by default) with a cpu kernel that reads strides, a fake (meta) kernel and a backward.
 */
import { callOp, DTYPE_INFO, library, type Tensor, torch } from '../../src/runtime/index.ts';

export const empty = (shape: readonly number[], o: { dtype?: string; device?: string } = {}) =>
  torch.empty([...shape], o) as Tensor;

/** The cpu kernel: reads x through its strides (no hidden contiguous()), writes a contiguous result. */
export function scaleShiftCpu(x: Tensor, scale: number, shift: number): Tensor {
  if (DTYPE_INFO[x.dtype].kind !== 'float')
    throw new Error(`scale_shift: float input expected, got ${x.dtype}`);
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

/** Defines myops::scale_shift with its kernels (once per test file: the operator table is per process). */
export function defineScaleShift(): void {
  library.define('myops::scale_shift(Tensor x, float scale=2.0, float shift=1.0) -> Tensor');
  library.impl('myops::scale_shift', 'cpu', scaleShiftCpu);
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
