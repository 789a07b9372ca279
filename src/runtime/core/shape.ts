/** Sizes, strides, broadcasting and dim wrapping, following c10 and aten/ExpandUtils. */
import { DimOutOfRangeError, InvalidArgumentError, InvalidViewError, ShapeMismatchError } from './errors.ts';
import { checkedNumel } from './limits.ts';

export type Shape = readonly number[];

export function numelOf(shape: Shape): number {
  let n = 1;
  for (const s of shape) n *= s;
  return n;
}

export function contiguousStrides(shape: Shape): number[] {
  const strides = new Array<number>(shape.length);
  let acc = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    strides[i] = acc;
    acc *= Math.max(shape[i], 1);
  }
  return strides;
}

/** Strides of channels_last (NHWC in memory) for a 4-D shape NCHW. */
export function channelsLastStrides(shape: Shape): number[] {
  if (shape.length !== 4)
    throw new InvalidArgumentError('required rank 4 tensor to use channels_last format', {
      got: shape.length,
    });
  const [, c, h, w] = shape.map((s) => Math.max(s, 1));
  return [h * w * c, 1, w * c, c];
}

/** PyTorch's is_contiguous: sizes of 1 may have any stride; empty tensors are contiguous. */
export function isContiguousLayout(shape: Shape, strides: readonly number[]): boolean {
  if (shape.includes(0)) return true;
  let expected = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    if (shape[i] !== 1) {
      if (strides[i] !== expected) return false;
      expected *= shape[i];
    }
  }
  return true;
}

/**
 * c10's is_non_overlapping_and_dense: some permutation of the dims is contiguous (size-1 dims ignored), so the
 * elements fill a block of memory exactly once.
 */
export function isNonOverlappingAndDense(shape: Shape, strides: readonly number[]): boolean {
  const dims = shape
    .map((_, i) => i)
    .filter((i) => shape[i] >= 2)
    .sort((x, y) => strides[x] - strides[y]);
  let expected = 1;
  for (const d of dims) {
    if (strides[d] !== expected) return false;
    expected *= shape[d];
  }
  return true;
}

/** maybe_wrap_dim: accepts -ndim..ndim-1 (a 0-d tensor accepts -1 and 0). */
export function wrapDim(dim: number, ndim: number, op?: string, arg = 'dim'): number {
  const n = Math.max(ndim, 1);
  if (!Number.isInteger(dim) || dim < -n || dim >= n) {
    throw new DimOutOfRangeError('Dimension out of range', {
      op,
      arg,
      got: dim,
      expected: `to be in range of [${-n}, ${n - 1}]`,
    });
  }
  return dim < 0 ? dim + n : dim;
}

export function broadcastShapes(a: Shape, b: Shape, op?: string): number[] {
  const n = Math.max(a.length, b.length);
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const da = a[a.length - n + i] ?? 1;
    const db = b[b.length - n + i] ?? 1;
    if (da !== db && da !== 1 && db !== 1) {
      throw new ShapeMismatchError(
        `The size of tensor a (${da}) must match the size of tensor b (${db}) at non-singleton dimension ${i}`,
        { op, got: [...a], expected: `a shape broadcastable with [${b.join(', ')}]` },
      );
    }
    out[i] = da === 1 ? db : da;
  }
  return out;
}

export function broadcastAll(shapes: readonly Shape[], op?: string): number[] {
  // Operands of one shape (the common eager case) broadcast to it: no per-dim comparison chain.
  if (shapes.length > 0 && shapes.every((s) => s === shapes[0] || sameShape(s, shapes[0])))
    return [...shapes[0]];
  let out: number[] = [];
  for (const s of shapes) out = broadcastShapes(out, s, op);
  return out;
}

/** Strides that view a tensor of `shape`/`strides` as `target` (a broadcast: new or size-1 dims get stride 0). */
export function expandStrides(
  shape: Shape,
  strides: readonly number[],
  target: Shape,
  op = 'expand',
): number[] {
  const n = target.length;
  if (n < shape.length) {
    throw new ShapeMismatchError(
      'the number of sizes provided must be greater or equal to the number of dimensions in the tensor',
      { op, arg: 'size', got: [...target], expected: `at least ${shape.length} sizes` },
    );
  }
  const out = new Array<number>(n);
  let numel = 1;
  for (let i = n - 1; i >= 0; i--) {
    const j = i - (n - shape.length);
    const size = j >= 0 ? shape[j] : 1;
    const want = target[i] === -1 ? size : target[i];
    numel *= want;
    if (target[i] === -1 && j < 0) {
      throw new InvalidArgumentError(
        "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension",
        { op, arg: 'size', got: -1 },
      );
    }
    if (j >= 0 && size === want) out[i] = strides[j];
    else if (size === 1 && want >= 0) out[i] = 0;
    else if (want < 0) {
      throw new InvalidArgumentError(
        `expand: the size ${want} is negative (only -1, keep the size, is allowed)`,
        {
          op,
          arg: 'size',
          got: [...target],
          expected: 'sizes >= 0 or -1',
        },
      );
    } else {
      throw new ShapeMismatchError(
        `The expanded size of the tensor (${want}) must match the existing size (${size}) at non-singleton dimension ${i}`,
        { op, arg: 'size', got: [...target], expected: `compatible with [${shape.join(', ')}]` },
      );
    }
  }
  // The view's element count must be countable exactly (PyTorch refuses an int64 overflow the same way).
  if (numel > Number.MAX_SAFE_INTEGER)
    checkedNumel(
      target.map((t, i) => (t === -1 ? shape[i - (n - shape.length)] : t)),
      op,
      'size',
    );
  return out;
}

/** infer_size: resolves one -1 in a requested view/reshape shape. */
export function inferSize(requested: Shape, numel: number, op: string): number[] {
  let infer = -1;
  let known = 1;
  for (let i = 0; i < requested.length; i++) {
    const s = requested[i];
    if (s === -1) {
      if (infer >= 0)
        throw new InvalidArgumentError('only one dimension can be inferred', {
          op,
          arg: 'shape',
          got: [...requested],
        });
      infer = i;
    } else if (!Number.isInteger(s) || s < 0) {
      throw new InvalidArgumentError(`invalid shape dimension ${s}`, {
        op,
        arg: 'shape',
        got: [...requested],
      });
    } else known *= s;
  }
  const out = [...requested];
  if (infer >= 0) {
    if (known === 0 || numel % known !== 0) {
      throw new ShapeMismatchError(
        `shape '[${requested.join(', ')}]' is invalid for input of size ${numel}`,
        { op, arg: 'shape', got: [...requested], expected: `numel ${numel}` },
      );
    }
    out[infer] = numel / known;
  } else if (known !== numel) {
    throw new ShapeMismatchError(`shape '[${requested.join(', ')}]' is invalid for input of size ${numel}`, {
      op,
      arg: 'shape',
      got: [...requested],
      expected: `numel ${numel}`,
    });
  }
  return out;
}

/**
 * computeStride from aten/TensorUtils.cpp: the strides that let `newShape` view the memory of a tensor with
 * `oldShape`/`oldStrides` without copying, or null when no such strides exist.
 */
export function computeViewStrides(
  oldShape: Shape,
  oldStrides: readonly number[],
  newShape: Shape,
): number[] | null {
  if (oldShape.length === 0) return new Array(newShape.length).fill(1);
  const numel = numelOf(oldShape);
  if (numel === 0) {
    if (oldShape.length === newShape.length && oldShape.every((s, i) => s === newShape[i]))
      return [...oldStrides];
    return contiguousStrides(newShape);
  }
  const newStrides = new Array<number>(newShape.length);
  let viewD = newShape.length - 1;
  let chunkBaseStride = oldStrides[oldStrides.length - 1];
  let tensorNumel = 1;
  let viewNumel = 1;
  for (let tensorD = oldShape.length - 1; tensorD >= 0; tensorD--) {
    tensorNumel *= oldShape[tensorD];
    if (
      tensorD === 0 ||
      (oldShape[tensorD - 1] !== 1 && oldStrides[tensorD - 1] !== tensorNumel * chunkBaseStride)
    ) {
      while (viewD >= 0 && (viewNumel < tensorNumel || newShape[viewD] === 1)) {
        newStrides[viewD] = viewNumel * chunkBaseStride;
        viewNumel *= newShape[viewD];
        viewD--;
      }
      if (viewNumel !== tensorNumel) return null;
      if (tensorD > 0) {
        chunkBaseStride = oldStrides[tensorD - 1];
        tensorNumel = 1;
        viewNumel = 1;
      }
    }
  }
  if (viewD !== -1) return null;
  return newStrides;
}

export function viewError(op: string, shape: Shape): InvalidViewError {
  return new InvalidViewError(
    "view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.",
    { op, arg: 'size', got: [...shape], expected: 'a shape compatible with the input strides' },
  );
}

export function sameShape(a: Shape, b: Shape): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}
