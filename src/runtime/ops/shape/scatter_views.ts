/**
 * The *_scatter ops (slice_scatter, select_scatter, diagonal_scatter, as_strided_scatter): the functional
 * inverse of a view — a clone of self whose view region holds src. They are what view backwards are written in
 * (a slice's gradient is zeros with the slice region set to grad), so they must be differentiable themselves.
 * Composite (clone + the view op + copy_), so every backend, meta included, gets them.
 */
import { ShapeMismatchError, sameShape, type Tensor } from '../../core/index.ts';
import { type ApiDecl, type BoundArgs, callOp, operatorTable } from '../../dispatch/index.ts';
import { defineOp } from '../structured.ts';

const tags = { family: 'view' } as const;

/** at::*_scatter: `output = self.clone(); view(output).copy_(src)`, src must have exactly the view's shape. */
function scatterInto(op: string, a: BoundArgs, view: (out: Tensor) => Tensor): Tensor {
  const src = a.src as Tensor;
  const out = callOp('clone', [a.self]) as Tensor;
  const region = view(out);
  if (!sameShape(region.shape, src.shape)) {
    throw new ShapeMismatchError(
      `expected src to have a size equal to the slice of self. src size = [${src.shape.join(', ')}], slice size = [${region.shape.join(', ')}]`,
      { op, arg: 'src', got: [...src.shape], expected: [...region.shape] },
    );
  }
  callOp('copy_', [region, src]);
  return out;
}

/** The Python variants of the ops registered here (native_functions.yaml's `variants`; see dispatch/variants.ts). */
export const SCATTER_VIEW_API = {
  slice_scatter: 'function, method',
  select_scatter: 'function, method',
  diagonal_scatter: 'function, method',
  as_strided_scatter: 'function, method',
} as const satisfies ApiDecl;

export function registerScatterViews(): void {
  defineOp({
    schema:
      'slice_scatter(Tensor self, Tensor src, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor',
    tags,
    composite: (a) =>
      scatterInto(
        'slice_scatter',
        a,
        (out) => callOp('slice', [out, a.dim, a.start, a.end, a.step]) as Tensor,
      ),
  });
  defineOp({
    schema: 'select_scatter(Tensor self, Tensor src, int dim, int index) -> Tensor',
    tags,
    composite: (a) =>
      scatterInto('select_scatter', a, (out) => callOp('select', [out, a.dim, a.index]) as Tensor),
  });
  defineOp({
    schema: 'diagonal_scatter(Tensor self, Tensor src, int offset=0, int dim1=0, int dim2=1) -> Tensor',
    tags,
    composite: (a) =>
      scatterInto(
        'diagonal_scatter',
        a,
        (out) => callOp('diagonal', [out, a.offset, a.dim1, a.dim2]) as Tensor,
      ),
  });
  defineOp({
    // Addresses the clone's storage (like as_strided itself), so it is meaningful for contiguous self.
    schema:
      'as_strided_scatter(Tensor self, Tensor src, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor',
    tags,
    composite: (a) =>
      scatterInto(
        'as_strided_scatter',
        a,
        (out) => callOp('as_strided', [out, a.size, a.stride, a.storage_offset]) as Tensor,
      ),
  });
  operatorTable.declare(SCATTER_VIEW_API);
}
