/**
 * Guards: what a compiled entry assumed about its inputs — per tensor its dtype, device, rank, sizes (exact, or
 * any size ≥ 2 for a dynamic dim, as Dynamo specialises 0 and 1), stride pattern and requiresGrad; the grad
 * mode; and the exact value of every non-tensor argument.
 */
import type { Tensor } from '../core/index.ts';

export interface TensorGuard {
  readonly dtype: string;
  readonly device: string;
  /** Exact size, or null for a dynamic dim. */
  readonly sizes: readonly (number | null)[];
  readonly strides: string;
  readonly requiresGrad: boolean;
}

export interface Guards {
  readonly tensors: readonly TensorGuard[];
  readonly constants: string;
  readonly gradMode: boolean;
}

/** Stride pattern: which dims broadcast (stride 0) and the order of the others, plus contiguity. */
export function stridePattern(t: Tensor): string {
  const dims = t.strides.map((s, i) => [s, i] as const).filter(([s], i) => s !== 0 || t.shape[i] === 1);
  const order = [...dims].sort((a, b) => b[0] - a[0] || a[1] - b[1]).map(([, i]) => i);
  const zeros = t.strides.map((s, i) => (s === 0 && t.shape[i] !== 1 ? i : -1)).filter((i) => i >= 0);
  return `${t.isContiguous() ? 'C' : 'N'}:${order.join('.')}${zeros.length ? `:b${zeros.join('.')}` : ''}`;
}

export function guardFor(t: Tensor, dynamic: ReadonlySet<number> = new Set()): TensorGuard {
  return {
    dtype: t.dtype,
    device: t.device,
    sizes: t.shape.map((s, d) => (dynamic.has(d) && s >= 2 ? null : s)),
    strides: stridePattern(t),
    requiresGrad: t.requiresGrad,
  };
}

/** The first guard `t` fails, or null. */
export function checkTensor(g: TensorGuard, t: Tensor): string | null {
  if (t.dtype !== g.dtype) return `dtype ${t.dtype} != ${g.dtype}`;
  if (t.device !== g.device) return `device ${t.device} != ${g.device}`;
  if (t.ndim !== g.sizes.length) return `ndim ${t.ndim} != ${g.sizes.length}`;
  for (let d = 0; d < t.ndim; d++) {
    const want = g.sizes[d];
    if (want === null ? t.shape[d] < 2 : t.shape[d] !== want)
      return `size(${d}) ${t.shape[d]} != ${want ?? '≥2'}`;
  }
  if (t.requiresGrad !== g.requiresGrad) return `requires_grad ${t.requiresGrad} != ${g.requiresGrad}`;
  const sp = stridePattern(t);
  if (sp !== g.strides) return `stride pattern ${sp} != ${g.strides}`;
  return null;
}

export function formatGuard(g: TensorGuard, i: number): string {
  const sizes = g.sizes.map((s, d) => s ?? `s${i}_${d}`).join(', ');
  return `input ${i}: ${g.dtype} ${g.device} [${sizes}] strides ${g.strides}${g.requiresGrad ? ' requires_grad' : ''}`;
}
