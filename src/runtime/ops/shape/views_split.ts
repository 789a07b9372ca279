/**
 * The views that return a list: split (by size or sizes), split_with_sizes, chunk and unbind. Each counts its
 * outputs before building them, so a 1e9-long (meta) dim is a typed E_OUT_OF_MEMORY, not a heap crash.
 */
import {
  checkOutputCount,
  DimOutOfRangeError,
  InvalidArgumentError,
  ShapeMismatchError,
  type Tensor,
  wrapDim,
} from '../../core/index.ts';
import { type ApiDecl, type BoundArgs, callOp, operatorTable } from '../../dispatch/index.ts';
import { defineOp } from '../structured.ts';
import { needDims, selectDim, sliceDim } from './view_helpers.ts';

const tags = { family: 'view', isView: true } as const;
const self = (a: BoundArgs) => a.self as Tensor;

function splitSizes(t: Tensor, dim: number, sizes: readonly number[], op: string): Tensor[] {
  const d = wrapDim(dim, t.ndim, op);
  if (sizes.some((s) => s < 0))
    throw new InvalidArgumentError(
      `split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=[${sizes.join(', ')}]`,
      { op, arg: 'split_sizes', got: [...sizes], expected: 'sizes >= 0' },
    );
  checkOutputCount(sizes.length, op, 'split_sizes');
  const total = sizes.reduce((a, b) => a + b, 0);
  if (total !== t.shape[d]) {
    throw new ShapeMismatchError(
      `split_with_sizes expects split_sizes to sum exactly to ${t.shape[d]} (input tensor's size at dimension ${d})`,
      { op, arg: 'split_sizes', got: [...sizes], expected: `sum ${t.shape[d]}` },
    );
  }
  const out: Tensor[] = [];
  let start = 0;
  for (const s of sizes) {
    out.push(sliceDim(t, d, start, start + s, 1, op));
    start += s;
  }
  return out;
}

/** The Python variants of the ops registered here (native_functions.yaml's `variants`; see dispatch/variants.ts). */
export const SPLIT_API = {
  split: ['function, method', 'list'],
  split_with_sizes: ['function, method', 'list'],
  chunk: ['function, method', 'list'],
  unbind: ['function, method', 'list'],
} as const satisfies ApiDecl;

/** Registered by registerViews (between diagonal and movedim, the operator table's order). */
export function registerSplitViews(): void {
  defineOp({
    schema: 'split.Tensor(Tensor(a) self, SymInt split_size, int dim=0) -> Tensor(a)[]',
    tags,
    composite: (a) => {
      const t = self(a);
      needDims(t, 'split', 'split expects at least a 1-dimensional tensor');
      const d = wrapDim(a.dim as number, t.ndim, 'split');
      const n = a.split_size as number;
      if (n < 0 || (n === 0 && t.shape[d] !== 0))
        throw new InvalidArgumentError('split expects split_size be non-negative', {
          op: 'split',
          arg: 'split_size',
          got: n,
          expected: '> 0',
        });
      // Count the pieces before building them: a 1e9-long (meta) dim split by 1 must not build 1e9 sizes.
      const len = t.shape[d];
      checkOutputCount(len === 0 ? 1 : Math.ceil(len / n), 'split', 'split_size');
      const sizes: number[] = [];
      for (let s = 0; s < len; s += n) sizes.push(Math.min(n, len - s));
      return splitSizes(t, d, sizes.length ? sizes : [0], 'split');
    },
  });
  defineOp({
    // Python's `t.split([1, 3])` (a list of sizes) is split_with_sizes.
    schema: 'split.sizes(Tensor(a -> *) self, SymInt[] split_size, int dim=0) -> Tensor(a)[]',
    tags,
    composite: (a) => splitSizes(self(a), a.dim as number, a.split_size as number[], 'split'),
  });
  defineOp({
    schema: 'split_with_sizes(Tensor(a) self, SymInt[] split_sizes, int dim=0) -> Tensor(a)[]',
    tags,
    composite: (a) => splitSizes(self(a), a.dim as number, a.split_sizes as number[], 'split_with_sizes'),
  });
  defineOp({
    schema: 'chunk(Tensor(a) self, int chunks, int dim=0) -> Tensor(a)[]',
    tags,
    composite: (a) => {
      const t = self(a);
      const chunks = a.chunks as number;
      needDims(t, 'chunk', 'chunk expects at least a 1-dimensional tensor');
      if (chunks <= 0)
        throw new InvalidArgumentError('chunk expects `chunks` to be greater than 0', {
          op: 'chunk',
          arg: 'chunks',
          got: chunks,
          expected: '> 0',
        });
      const d = wrapDim(a.dim as number, t.ndim, 'chunk');
      // at::chunk: an empty dim gives `chunks` empty pieces (counted before the list of sizes is built).
      if (t.shape[d] === 0) {
        checkOutputCount(chunks, 'chunk', 'chunks');
        return callOp('split_with_sizes', [t, new Array(chunks).fill(0), d]);
      }
      const size = Math.ceil(t.shape[d] / chunks);
      return callOp('split', [t, size, d]);
    },
  });
  defineOp({
    schema: 'unbind.int(Tensor(a) self, int dim=0) -> Tensor(a)[]',
    tags,
    composite: (a) => {
      const t = self(a);
      if (t.ndim === 0) {
        throw new DimOutOfRangeError('Dimension specified as 0 but tensor has no dimensions', {
          op: 'unbind',
          arg: 'dim',
          got: a.dim,
          expected: 'a tensor with at least 1 dimension',
        });
      }
      const d = wrapDim(a.dim as number, t.ndim, 'unbind');
      checkOutputCount(t.shape[d], 'unbind', 'self');
      return Array.from({ length: t.shape[d] }, (_, i) => selectDim(t, d, i, 'unbind'));
    },
  });
  operatorTable.declare(SPLIT_API);
}
