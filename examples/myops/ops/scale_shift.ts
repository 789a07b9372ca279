/**
 * myops::scale_shift (scale * x + shift), written outside opgate's tree the way torch.library's users write an
 * op: a schema, the contract as a composite of existing ops, a cpu kernel, a webgpu kernel, a backward and a fake.
 * Importing this module registers all of it in opgate's one operator table.
 */
import { callOp, DTypeUnsupportedError, library, type Tensor, torch, webgpuPointwise } from 'opgate';

const OP = 'myops::scale_shift';

// 1. The schema: parsed by the runtime's schema parser; defaults are Python's (2.0 and 1.0).
library.define(`${OP}(Tensor x, float scale=2.0, float shift=1.0) -> Tensor`);

/** 2. The contract, in ops the runtime already has: every other kernel is tested against what this computes. */
export const scaleShiftContract = (x: Tensor, scale = 2, shift = 1): Tensor =>
  callOp('add', [callOp('mul', [x, scale]), shift]) as Tensor;

/**
 * 3. The cpu kernel: dispatches on the dtype and reads x through its strides and storage offset (no hidden
 * contiguous()); the result is a new contiguous tensor.
 */
function scaleShiftCpu(x: Tensor, scale: number, shift: number): Tensor {
  if (x.dtype !== 'float32' && x.dtype !== 'float64')
    throw new DTypeUnsupportedError(`${OP} takes float32 or float64 tensors`, {
      op: OP,
      arg: 'x',
      got: x.dtype,
      expected: 'float32 or float64',
    });
  const out = torch.empty([...x.shape], { dtype: x.dtype }) as Tensor;
  const src = x.storage.data as Float32Array | Float64Array;
  const dst = out.storage.data as Float32Array | Float64Array;
  const index = new Array<number>(x.ndim).fill(0);
  for (let i = 0; i < out.numel; i++) {
    let at = x.storageOffset;
    for (let d = 0; d < x.ndim; d++) at += index[d] * x.strides[d];
    // A Float32Array store rounds to float32, as PyTorch's float kernel does.
    dst[i] = scale * src[at] + shift;
    for (let d = x.ndim - 1; d >= 0 && ++index[d] === x.shape[d]; d--) index[d] = 0;
  }
  return out;
}
library.impl(OP, 'cpu', scaleShiftCpu);

/** 4. The webgpu kernel: one WGSL expression over x read at its strides (float32: WGSL has no f64). */
library.impl(OP, 'webgpu', (x: Tensor, scale: number, shift: number): Tensor => {
  const out = torch.empty([...x.shape], { dtype: x.dtype, device: 'webgpu' }) as Tensor;
  webgpuPointwise(
    {
      expr: 's0 * a + s1',
      exprType: 'f32',
      loads: ['f32'],
      scalars: [
        { value: scale, type: 'f32' },
        { value: shift, type: 'f32' },
      ],
    },
    out,
    [x],
  );
  return out;
});

// 5. The fake (meta) kernel: shape, dtype and strides of the result, no data; what compile traces with.
library.registerFake(
  OP,
  (x: Tensor) => torch.empty([...x.shape], { dtype: x.dtype, device: 'meta' }) as Tensor,
);

// 6. The backward: d(scale * x + shift)/dx = scale; no gradient for the two numbers.
library.registerAutograd(OP, (ctx, grad) => [callOp('mul', [grad, ctx.scale]) as Tensor, null, null], {
  setupContext: (ctx, inputs) => {
    ctx.scale = inputs[1] ?? 2;
  },
});

/** The op, called like any built-in one. */
export const scaleShift = (x: Tensor, scale?: number, shift?: number): Tensor =>
  callOp(OP, [x, ...(scale === undefined ? [] : [scale]), ...(shift === undefined ? [] : [shift])]) as Tensor;
