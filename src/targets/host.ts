/** Tensors between the runtime (where op_db's samples and PyTorch's goldens live) and a target's host values. */
import { callOp, contiguousStrides, DTYPE_INFO, Storage, Tensor, toHost } from '../runtime/index.ts';
import type { HostTensor } from './target.ts';

/** A runtime tensor's values, row-major in its dtype's storage (a copy: the target may keep it). */
export async function hostOf(t: Tensor): Promise<HostTensor> {
  const c = callOp('contiguous', [await toHost(t)]) as Tensor;
  const lanes = DTYPE_INFO[c.dtype].lanes;
  const data = c.storage.data!.slice(c.storageOffset * lanes, (c.storageOffset + c.numel) * lanes);
  return { dtype: c.dtype, shape: [...c.shape], data: data as HostTensor['data'] };
}

/** A target's output as a cpu tensor of the runtime, for the oracles' comparisons. */
export function tensorOf(h: HostTensor): Tensor {
  const info = DTYPE_INFO[h.dtype];
  const numel = h.shape.reduce((a, b) => a * b, 1);
  const arr = new info.storage(numel * info.lanes);
  (arr as { set(a: ArrayLike<number | bigint>): void }).set(h.data);
  return new Tensor(new Storage(h.dtype, 'cpu', numel, arr), [...h.shape], contiguousStrides(h.shape), 0);
}
