/**
 * What the view ops share: a view over the same storage, and slicing / selecting along a dim (also used by
 * indexing, copy and the split family in views_split.ts).
 */
import { IndexOutOfRangeError, InvalidArgumentError, Tensor, wrapDim } from '../../core/index.ts';
import type { BoundArgs } from '../../dispatch/index.ts';

/** The view ops' tags, and their `self` argument. */
export const tags = { family: 'view', isView: true } as const;
export const self = (a: BoundArgs) => a.self as Tensor;

export function makeView(
  base: Tensor,
  shape: readonly number[],
  strides: readonly number[],
  offset: number,
): Tensor {
  const v = new Tensor(base.storage, shape, strides, offset, base);
  return v;
}

/** PyTorch's error for ops that need a dimension to work along (slice, narrow, split, chunk). */
export function needDims(
  t: Tensor,
  op: string,
  message = `${op}() cannot be applied to a 0-dim tensor.`,
): void {
  if (t.ndim === 0)
    throw new InvalidArgumentError(message, {
      op,
      arg: 'self',
      got: '0-dim tensor',
      expected: 'at least 1 dimension',
    });
}

export function sliceDim(
  t: Tensor,
  dim: number,
  start: number | null,
  end: number | null,
  step: number,
  op = 'slice',
): Tensor {
  needDims(t, op);
  const d = wrapDim(dim, t.ndim, op);
  if (step <= 0)
    throw new InvalidArgumentError('slice step must be positive', {
      op,
      arg: 'step',
      got: step,
      expected: '> 0',
    });
  const size = t.shape[d];
  const clamp = (x: number) => Math.min(Math.max(x < 0 ? x + size : x, 0), size);
  const s = start === null ? 0 : clamp(start);
  const e = Math.max(end === null ? size : clamp(end), s);
  const shape = [...t.shape];
  const strides = [...t.strides];
  shape[d] = Math.ceil((e - s) / step);
  strides[d] = t.strides[d] * step;
  return makeView(t, shape, strides, t.storageOffset + s * t.strides[d]);
}

export function selectDim(t: Tensor, dim: number, index: number, op = 'select'): Tensor {
  if (t.ndim === 0)
    throw new IndexOutOfRangeError('select() cannot be applied to a 0-dim tensor.', {
      op,
      arg: 'self',
      got: 0,
      expected: 'ndim >= 1',
    });
  const d = wrapDim(dim, t.ndim, op);
  const size = t.shape[d];
  if (index < -size || index >= size) {
    throw new IndexOutOfRangeError(`index ${index} is out of bounds for dimension ${d} with size ${size}`, {
      op,
      arg: 'index',
      got: index,
      expected: `in [${-size}, ${size - 1}]`,
    });
  }
  const i = index < 0 ? index + size : index;
  const shape = t.shape.filter((_, k) => k !== d);
  const strides = t.strides.filter((_, k) => k !== d);
  return makeView(t, shape, strides, t.storageOffset + i * t.strides[d]);
}

/**
 * movedim with lists (PyTorch's movedim.intlist): source[i] goes to destination[i]; the other dims keep their
 * order in the remaining positions. The lists must have one length and no repeated dim.
 */
export function movedimOrder(
  ndim: number,
  source: readonly number[],
  destination: readonly number[],
): number[] {
  const fmtDims = (d: readonly number[]) => `[${d.join(', ')}]`;
  if (source.length !== destination.length)
    throw new InvalidArgumentError(
      `movedim: Invalid source or destination dims: source (${fmtDims(source)} dims) should contain the same number of dims as destination (${fmtDims(destination)} dims)`,
      {
        op: 'movedim',
        arg: 'destination',
        got: `${destination.length} dims`,
        expected: `${source.length} dims`,
      },
    );
  const wrap = (dims: readonly number[], arg: 'source' | 'destination') => {
    const w = dims.map((d) => wrapDim(d, ndim, 'movedim', arg));
    if (new Set(w).size !== w.length)
      throw new InvalidArgumentError(`movedim: repeated dim in \`${arg}\` (${fmtDims(dims)})`, {
        op: 'movedim',
        arg,
        got: fmtDims(dims),
        expected: 'distinct dims',
      });
    return w;
  };
  const src = wrap(source, 'source');
  const dst = wrap(destination, 'destination');
  const order = new Array<number>(ndim).fill(-1);
  src.forEach((s, i) => {
    order[dst[i]] = s;
  });
  const rest = order.map((_, i) => i).filter((i) => !src.includes(i));
  for (let i = 0, k = 0; i < ndim; i++) if (order[i] < 0) order[i] = rest[k++];
  return order;
}
