/**
 * Layouts of the matrix: the same logical tensor in a different memory layout (DESIGN.md §5). Every kernel
 * must give the same answer on each; `expanded` also changes values (constant along the first dim of size > 1)
 * and is only applied to tensors the op does not write.
 */

import type { Layout } from '../../op_db/index.ts';
import { callOp, contiguousStrides, getitem, slice, type Tensor } from '../runtime/index.ts';

const op = (name: string, ...args: unknown[]) => callOp(name, args) as Tensor;

/** A fresh tensor with `t`'s values in `layout` (returns `t` itself where the layout does not apply). */
export function applyLayout(t: Tensor, layout: Layout, writable = false): Tensor {
  switch (layout) {
    case 'contiguous':
      return t;
    case 'transposed': {
      if (t.ndim < 2) return t;
      const u = callOp('empty', [[...t.shape.slice(0, -2), t.shape[t.ndim - 1], t.shape[t.ndim - 2]]], {
        dtype: t.dtype,
        device: t.device,
      }) as Tensor;
      const view = op('transpose', u, -1, -2);
      op('copy_', view, t);
      return view;
    }
    case 'strided': {
      if (t.ndim < 1) return t;
      const shape = [...t.shape];
      shape[t.ndim - 1] *= 2;
      const u = callOp('empty', [shape], { dtype: t.dtype, device: t.device }) as Tensor;
      const view = op('slice', u, -1, null, null, 2);
      op('copy_', view, t);
      return view;
    }
    case 'offset': {
      const u = callOp('empty', [[t.numel + 3]], { dtype: t.dtype, device: t.device }) as Tensor;
      const view = op('as_strided', u, t.shape, contiguousStrides(t.shape), 3);
      op('copy_', view, t);
      return view;
    }
    case 'expanded': {
      const d = t.shape.findIndex((s) => s > 1);
      if (writable || d < 0) return t;
      const first = getitem(t, ...t.shape.map((_, i) => (i === d ? slice(0, 1) : slice())));
      return op('expand', op('clone', first), t.shape);
    }
    case 'channels_last':
      if (t.ndim !== 4) return t;
      return callOp('contiguous', [t], { memory_format: 'channels_last' }) as Tensor;
  }
}
