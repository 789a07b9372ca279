/** Which dims a reduction folds, the shapes it produces, and the argument checks PyTorch makes on them. */
import {
  DTYPE_INFO,
  type DType,
  DTypeUnsupportedError,
  IndexOutOfRangeError,
  InvalidArgumentError,
  numelOf,
  type Tensor,
  wrapDim,
} from '../../core/index.ts';

export interface ReduceShape {
  /** reduced[d]: whether input dim d is folded. */
  readonly reduced: readonly boolean[];
  /** The output shape with reduced dims kept as size 1 (the accumulator's shape). */
  readonly keepShape: readonly number[];
  /** The result shape (keepShape without the reduced dims unless keepdim). */
  readonly outShape: readonly number[];
  /** Input elements folded into each output element. */
  readonly count: number;
  /** True when the dim list was empty or None (reduce everything). */
  readonly allDims: boolean;
}

/** Wraps a dim list (dim_list_to_bitset): out-of-range dims and repeats raise like PyTorch. */
export function reducedMask(ndim: number, dims: readonly number[], op: string): boolean[] {
  const mask = new Array<boolean>(ndim).fill(false);
  const seen = new Set<number>();
  for (const d of dims) {
    const w = wrapDim(d, ndim, op);
    if (seen.has(w)) {
      throw new InvalidArgumentError(`dim ${w} appears multiple times in the list of dims`, {
        op,
        arg: 'dim',
        got: [...dims],
        expected: 'distinct dims',
      });
    }
    seen.add(w);
    if (w < ndim) mask[w] = true;
  }
  return mask;
}

/** The shapes of reducing `self` over `dims` (null or [] = every dim). */
export function reduceShape(
  self: Tensor,
  dims: readonly number[] | null,
  keepdim: boolean,
  op: string,
): ReduceShape {
  const allDims = dims === null || dims.length === 0;
  const reduced = allDims ? new Array<boolean>(self.ndim).fill(true) : reducedMask(self.ndim, dims, op);
  const keepShape = self.shape.map((s, d) => (reduced[d] ? 1 : s));
  const outShape = keepdim ? keepShape : self.shape.filter((_, d) => !reduced[d]);
  const count = numelOf(self.shape.filter((_, d) => reduced[d]));
  return { reduced, keepShape, outShape, count, allDims };
}

/** A reduction with no identity (max, argmax, ...) refuses to fold an empty dim. */
export function checkNonEmpty(self: Tensor, rs: ReduceShape, op: string): void {
  if (rs.allDims && self.numel === 0) {
    throw new IndexOutOfRangeError(
      "Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.",
      { op, arg: 'self', got: `shape [${self.shape.join(', ')}]`, expected: 'a non-empty input or a dim' },
    );
  }
  for (let d = 0; d < self.ndim; d++) {
    if (rs.reduced[d] && self.shape[d] === 0) {
      throw new IndexOutOfRangeError(`Expected reduction dim ${d} to have non-zero size.`, {
        op,
        arg: 'dim',
        got: d,
        expected: 'a dim of non-zero size',
      });
    }
  }
}

/** The dims argument of an `int[1]?` / `int[1]` / `int?` schema argument as a list (null = all dims). */
export function dimList(v: unknown): number[] | null {
  if (v === null || v === undefined) return null;
  return Array.isArray(v) ? (v as number[]) : [v as number];
}

/**
 * PyTorch's AT_DISPATCH "not implemented" error for a kernel name and dtype. PyTorch never reaches the
 * dispatch for an empty input, so callers raise it only when the input has elements.
 */
export function notImplemented(
  kernel: string,
  dtype: DType,
  op: string,
  expected: string,
): DTypeUnsupportedError {
  return new DTypeUnsupportedError(`"${kernel}" not implemented for '${DTYPE_INFO[dtype].torchName}'`, {
    op,
    arg: 'self',
    got: dtype,
    expected,
  });
}

export const isFloatOrComplex = (d: DType): boolean => {
  const k = DTYPE_INFO[d].kind;
  return k === 'float' || k === 'complex';
};

/** The dtype an `int`/`bool` input sums or scans in: int64, unless an explicit dtype is given. */
export function upcastIntegral(d: DType, dtype: DType | null): DType {
  if (dtype !== null) return dtype;
  const k = DTYPE_INFO[d].kind;
  return k === 'int' || k === 'bool' ? 'int64' : d;
}
