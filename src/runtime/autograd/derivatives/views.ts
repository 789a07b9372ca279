/**
 * Derivatives of view and copy ops (derivatives.yaml rows). A view's gradient is zeros with the view region set
 * to grad: the *_scatter ops (ops/shape/scatter_views.ts) do that functionally, so every backward here is itself
 * differentiable (gradgrad), and the scatter ops' own rows close the loop.
 */
import { type DType, Tensor } from '../../core/index.ts';
import type { Derivative, GradContext } from '../derivative.ts';
import { add, op, sumToSize } from '../grad_helpers.ts';

/** The inverse of a permutation. */
const inverse = (dims: readonly number[]) => {
  const inv = new Array<number>(dims.length);
  dims.forEach((d, i) => {
    inv[d < 0 ? d + dims.length : d] = i;
  });
  return inv;
};

/** maybe_wrap_dim (a 0-dim tensor takes dims -1 and 0). */
const wrap = (d: number, ndim: number) => (d < 0 ? d + Math.max(ndim, 1) : d);
const num = (c: GradContext, name: string) => c.args[name] as number;
const zeros = (shape: readonly number[], like: Tensor) =>
  op('zeros', [...shape], { dtype: like.dtype, device: like.device });
const numel = (shape: readonly number[]) => shape.reduce((a, b) => a * b, 1);

const reshapeBack: Derivative = { saves: [], formula: (c) => [op('reshape', c.grad, [...c.shapes.self])] };

/** Slice arguments of slice / slice_scatter: (dim, start, end, step). */
const sliceArgs = (c: GradContext) => [c.args.dim, c.args.start, c.args.end, c.args.step];

/** A *_scatter op's row: self gets grad with the region zeroed (the op with zeros as src), src the region. */
function scatterRow(scatter: string, view: string, viewArgs: (c: GradContext) => unknown[]): Derivative {
  return {
    saves: [],
    formula: (c) => [
      op(scatter, c.grad, zeros(c.shapes.src, c.grad), ...viewArgs(c)),
      op(view, c.grad, ...viewArgs(c)),
    ],
  };
}

/**
 * at::unfold_backward in differentiable ops. Windows j ≡ r (mod k), k = ceil(size / step), never overlap, so
 * each residue class is placed in one go: pad every window to k·step, merge (window, offset) into one run along
 * `dim`, and slice_scatter that run at r·step. k passes instead of one per window.
 */
function unfoldBackward(
  g: Tensor,
  inShape: readonly number[],
  dim: number,
  size: number,
  step: number,
): Tensor {
  if (inShape.length === 0) return size === 1 ? op('reshape', g, []) : zeros([], g);
  const d = wrap(dim, inShape.length);
  const windows = g.shape[d];
  if (size === 0 || windows === 0) return zeros(inShape, g);
  const k = Math.ceil(size / step);
  const width = k * step;
  const moved = op('movedim', g, -1, d + 1); // [..., windows, size, ...]
  let acc: Tensor | null = null;
  for (let r = 0; r < Math.min(k, windows); r++) {
    let w = op('slice', moved, d, r, null, k);
    const m = w.shape[d];
    if (width > size) {
      const padded = [...w.shape];
      padded[d + 1] = width;
      w = op('slice_scatter', zeros(padded, g), w, d + 1, 0, size, 1);
    }
    const merged = [...inShape];
    merged[d] = m * width;
    const len = Math.min(m * width, inShape[d] - r * step);
    const run = op('slice', op('reshape', w, merged), d, 0, len, 1);
    const placed = op('slice_scatter', zeros(inShape, g), run, d, r * step, r * step + len, 1);
    acc = acc === null ? placed : add(acc, placed);
  }
  return acc as Tensor;
}

/** Storage positions of a strided geometry (row-major element order), and whether they are all distinct. */
function positions(shape: readonly number[], strides: readonly number[], offset: number) {
  const n = numel(shape);
  const pos = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    let p = offset;
    let rest = i;
    for (let d = shape.length - 1; d >= 0; d--) {
      p += (rest % shape[d]) * strides[d];
      rest = Math.floor(rest / shape[d]);
    }
    pos[i] = p;
  }
  return { pos, distinct: new Set(pos).size === n };
}

/** A constant 1-D tensor (indices or counts) built on the cpu and moved to the gradient's device and dtype. */
function constant(values: readonly number[], dtype: 'int64' | DType, like: Tensor): Tensor {
  const t = Tensor.empty([values.length], dtype === 'int64' ? 'int64' : 'float64', 'cpu');
  const data = t.storage.data as BigInt64Array | Float64Array;
  values.forEach((v, i) => {
    data[i] = (data instanceof BigInt64Array ? BigInt(v) : v) as never;
  });
  return op('to', t, like.device, dtype);
}

/**
 * at::as_strided_backward: the grad is scattered into a zero buffer covering the storage range both geometries
 * touch (accumulating where output elements share memory), divided by how many input elements share each
 * position when the input overlaps itself, and read back through the input's geometry (unreached: 0).
 */
function asStridedBackward(c: GradContext): Tensor {
  const x = c.args.self as Tensor;
  const size = c.args.size as number[];
  const stride = c.args.stride as number[];
  const offset = (c.args.storage_offset as number | null) ?? x.storageOffset;
  const out = positions(size, stride, offset);
  const inp = positions(x.shape, x.strides, x.storageOffset);
  if (out.pos.length === 0 || inp.pos.length === 0) return zeros(x.shape, c.grad);
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const p of [...out.pos, ...inp.pos]) {
    lo = Math.min(lo, p);
    hi = Math.max(hi, p);
  }
  const empty = zeros([hi - lo + 1], c.grad);
  let buffer = out.distinct
    ? op('as_strided_scatter', empty, c.grad, size, stride, offset - lo)
    : op(
        'scatter',
        empty,
        0,
        constant(
          out.pos.map((p) => p - lo),
          'int64',
          c.grad,
        ),
        op('reshape', c.grad, [-1]),
        { reduce: 'add' },
      );
  if (!inp.distinct) {
    // Positions the input never reaches divide by 1 (not 0), so no NaN leaks into a double backward.
    const count = new Array<number>(hi - lo + 1).fill(0);
    for (const p of inp.pos) count[p - lo]++;
    buffer = op(
      'div',
      buffer,
      constant(
        count.map((k) => Math.max(k, 1)),
        c.grad.dtype,
        c.grad,
      ),
    );
  }
  return op('as_strided', buffer, [...x.shape], [...x.strides], x.storageOffset - lo);
}

export const VIEW_DERIVATIVES: Record<string, Derivative> = {
  view: reshapeBack,
  reshape: { name: 'ViewBackward0', ...reshapeBack },
  squeeze: reshapeBack,
  unsqueeze: reshapeBack,
  expand: { saves: [], formula: (c) => [sumToSize(c.grad, c.shapes.self)] },
  permute: { saves: [], formula: (c) => [op('permute', c.grad, inverse(c.args.dims as number[]))] },
  transpose: { saves: [], formula: (c) => [op('transpose', c.grad, c.args.dim0, c.args.dim1)] },
  t: { saves: [], formula: (c) => [op('t', c.grad)] },
  clone: { saves: [], formula: (c) => [c.grad] },
  contiguous: { name: 'CloneBackward0', saves: [], formula: (c) => [c.grad] },
  to: { name: 'ToCopyBackward0', saves: [], formula: (c) => [c.grad as Tensor] },
  // narrow is CompositeImplicit over slice in PyTorch, hence its node name.
  narrow: {
    name: 'SliceBackward0',
    saves: [],
    formula: (c) => {
      const shape = c.shapes.self;
      const d = wrap(num(c, 'dim'), shape.length);
      const start = num(c, 'start') < 0 ? num(c, 'start') + shape[d] : num(c, 'start');
      const end = start + num(c, 'length');
      return [op('slice_scatter', zeros(shape, c.grad), c.grad, d, start, end, 1)];
    },
  },
  slice: {
    saves: [],
    formula: (c) => [op('slice_scatter', zeros(c.shapes.self, c.grad), c.grad, ...sliceArgs(c))],
  },
  select: {
    saves: [],
    formula: (c) => [op('select_scatter', zeros(c.shapes.self, c.grad), c.grad, c.args.dim, c.args.index)],
  },
  diagonal: {
    saves: [],
    formula: (c) => [
      op('diagonal_scatter', zeros(c.shapes.self, c.grad), c.grad, c.args.offset, c.args.dim1, c.args.dim2),
    ],
  },
  unfold: {
    saves: [],
    formula: (c) => [
      unfoldBackward(c.grad, c.shapes.self, num(c, 'dimension'), num(c, 'size'), num(c, 'step')),
    ],
  },
  // Outputs that got no gradient arrive as zeros, so the pieces always cat back to self's shape.
  split: { saves: [], formula: (c) => [op('cat', [...c.grads], c.args.dim)] },
  split_with_sizes: { saves: [], formula: (c) => [op('cat', [...c.grads], c.args.dim)] },
  unbind: { saves: [], formula: (c) => [op('stack', [...c.grads], c.args.dim)] },
  // Saves self for its geometry (sizes, strides, offset), which the gradient is read back through.
  as_strided: { saves: ['self'], formula: (c) => [asStridedBackward(c)] },
  slice_scatter: scatterRow('slice_scatter', 'slice', sliceArgs),
  select_scatter: scatterRow('select_scatter', 'select', (c) => [c.args.dim, c.args.index]),
  diagonal_scatter: scatterRow('diagonal_scatter', 'diagonal', (c) => [
    c.args.offset,
    c.args.dim1,
    c.args.dim2,
  ]),
  // The region addresses the output's storage: grad is laid out in that order (the output is a dense clone of
  // self, so its strides are a permutation of contiguous ones) before as_strided reads it. PyTorch asserts a
  // contiguous self instead. Saves the result for its strides.
  as_strided_scatter: {
    saves: ['result'],
    formula: (c) => {
      const st = c.result.strides;
      const perm = st.map((_, i) => i).sort((a, b) => st[b] - st[a]);
      const [size, stride, offset] = [c.args.size, c.args.stride, c.args.storage_offset ?? 0];
      // A fresh contiguous buffer in storage order, so as_strided reads grad's values from storage index 0.
      const flat = op('clone', op('permute', c.grad, perm), { memory_format: 'contiguous_format' });
      return [
        op(
          'permute',
          op('as_strided_scatter', flat, zeros(c.shapes.src, c.grad), size, stride, offset),
          inverse(perm),
        ),
        op('as_strided', flat, size, stride, offset),
      ];
    },
  },
  copy_: {
    name: 'CopyBackwards',
    saves: [],
    // src's gradient is summed to its (broadcast) shape; the engine casts it to src's dtype.
    formula: (c) => [zeros(c.shapes.self, c.grad), sumToSize(c.grad, c.shapes.src)],
  },
  fill_: { name: 'FillBackward2', saves: [], formula: (c) => [zeros(c.shapes.self, c.grad)] },
};
