/**
 * sort (+ sort.stable) and topk, returning [values, indices] (indices int64). Each 1-D line along `dim` is
 * read through its strides, its positions are ordered by value (NaN is the largest value, like PyTorch), and
 * values / indices are written through the outputs' strides. Equal values keep PyTorch 1.13's CPU order: their
 * input order for sort(stable=True); for sort(stable=False) and topk, the order libstdc++'s std::sort,
 * partial_sort and nth_element leave them in (sort_order.ts). On webgpu (backends/webgpu sort.ts) each element
 * computes its rank in its line: the stable order, which is also what stable=False and topk give there.
 */

import { elementCopier, forEachLine, numberReader } from '../../backends/cpu/index.ts';
import { sortGPU } from '../../backends/webgpu/index.ts';
import {
  contiguousStrides,
  DTYPE_INFO,
  type DType,
  InvalidArgumentError,
  type StorageArray,
  Tensor,
  wrapDim,
} from '../../core/index.ts';
import { type ApiDecl, type BoundArgs, type OperatorEntry, operatorTable } from '../../dispatch/index.ts';
import { notImplementedFor, preserveStrides } from '../op_helpers.ts';
import { defineOp } from '../structured.ts';
import { commonDevice } from '../write_checks.ts';
import { introsort, type Less, topkOrder } from './sort_order.ts';

const tags = { family: 'sorting' };

/**
 * How a line's equal values are ordered: `stable` keeps their input order (sort(stable=True)); `sort` is
 * std::sort's order (sort(stable=False)); `topk` is PyTorch's topk selection (sorted or not).
 */
export type LineOrder =
  | { readonly kind: 'stable' }
  | { readonly kind: 'sort' }
  | { readonly kind: 'topk'; readonly sorted: boolean };

/**
 * PyTorch's comparators on (value, index) pairs (KeyValueCompAsc / Desc, topk's lambdas): values only, NaN the
 * largest value (equal to NaN).
 */
const lessThan = (keys: readonly (number | bigint)[], descending: boolean): Less =>
  descending
    ? (i, j) => (Number.isNaN(keys[i]) && !Number.isNaN(keys[j])) || keys[i] > keys[j]
    : (i, j) => (!Number.isNaN(keys[i]) && Number.isNaN(keys[j])) || keys[i] < keys[j];

/**
 * Sorts every line of `self` along `dim` and writes the first `count` entries of each into values/indices
 * (whose size along `dim` is `count`).
 */
function sortLines(
  self: Tensor,
  values: Tensor,
  indices: Tensor,
  dim: number,
  descending: boolean,
  count: number,
  lineOrder: LineOrder = { kind: 'stable' },
): void {
  const shape = self.ndim === 0 ? [1] : [...self.shape];
  const st = (t: Tensor) => (t.ndim === 0 ? [1] : [...t.strides]);
  const [ss, vs, is] = [st(self), st(values), st(indices)];
  const n = shape[dim];
  const lineShape = [...shape];
  lineShape[dim] = 1;
  const read: (a: StorageArray, i: number) => number | bigint =
    self.dtype === 'int64' ? (a, i) => a[i] as bigint : numberReader(self.dtype);
  const copy = elementCopier(self.dtype);
  const src = self.storage.data!;
  const vArr = values.storage.data!;
  const iArr = indices.storage.data as BigInt64Array;
  const keys = new Array<number | bigint>(n);
  const order = new Array<number>(n);
  const less = lessThan(keys, descending);
  // The same order for the stable sort, equal values left in input order.
  const cmp = (i: number, j: number) => (less(i, j) ? -1 : less(j, i) ? 1 : 0);
  forEachLine(
    lineShape,
    dim,
    [ss, vs, is],
    [self.storageOffset, values.storageOffset, indices.storageOffset],
    (offs) => {
      for (let i = 0; i < n; i++) {
        keys[i] = read(src, offs[0] + i * ss[dim]);
        order[i] = i;
      }
      if (lineOrder.kind === 'stable') order.sort(cmp);
      else if (lineOrder.kind === 'sort') introsort(order, 0, n, less);
      else topkOrder(order, n, count, lineOrder.sorted, less);
      for (let r = 0; r < count; r++) {
        copy(vArr, offs[1] + r * vs[dim], src, offs[0] + order[r] * ss[dim]);
        iArr[offs[2] + r * is[dim]] = BigInt(order[r]);
      }
    },
  );
}

/** The line sorter of a device. */
const sorterFor = (device: Tensor['device']) => (device === 'webgpu' ? sortGPU : sortLines);

function outputs(
  self: Tensor,
  shape: readonly number[],
  strides: readonly number[],
  device: Tensor['device'],
): [Tensor, Tensor] {
  return [Tensor.empty(shape, self.dtype, device, strides), Tensor.empty(shape, 'int64', device, strides)];
}

function sortKernel(args: BoundArgs, op: OperatorEntry): [Tensor, Tensor] {
  const name = op.schema.name;
  const device = commonDevice(op, args);
  const self = args.self as Tensor;
  const dim = wrapDim(args.dim as number, self.ndim, name);
  // Outputs follow self's layout when it is dense, else dense strides in its order (sort_stable's meta).
  const [values, indices] = outputs(self, self.shape, preserveStrides(self), device);
  if (device === 'meta') return [values, indices];
  if (DTYPE_INFO[self.dtype].kind === 'complex')
    throw notImplementedFor('sorting_kernel_method_name', self.dtype, name);
  if (self.numel > 0) {
    const count = self.ndim === 0 ? 1 : self.shape[dim];
    // sort.stable with stable=True keeps equal values in input order; sort and stable=False are std::sort's.
    const order: LineOrder = args.stable === true ? { kind: 'stable' } : { kind: 'sort' };
    sorterFor(device)(self, values, indices, dim, args.descending as boolean, count, order);
  }
  return [values, indices];
}

const TOPK_REFUSED: readonly DType[] = ['bool', 'float16', 'complex64', 'complex128'];

function topkKernel(args: BoundArgs, op: OperatorEntry): [Tensor, Tensor] {
  const name = op.schema.name;
  const device = commonDevice(op, args);
  const self = args.self as Tensor;
  const dim = wrapDim(args.dim as number, self.ndim, name);
  const k = args.k as number;
  const size = self.ndim === 0 ? 1 : self.shape[dim];
  if (k < 0 || k > size) {
    throw new InvalidArgumentError('selected index k out of range', {
      op: name,
      arg: 'k',
      got: k,
      expected: `in [0, ${size}]`,
    });
  }
  const shape = [...self.shape];
  if (self.ndim > 0) shape[dim] = k;
  const [values, indices] = outputs(self, shape, contiguousStrides(shape), device);
  if (device === 'meta') return [values, indices];
  if (TOPK_REFUSED.includes(self.dtype)) throw notImplementedFor('topk_cpu', self.dtype, name);
  // PyTorch's selection, sorted=False included (its order is nth_element's, not sorted).
  const order: LineOrder = { kind: 'topk', sorted: args.sorted as boolean };
  if (k > 0 && self.numel > 0)
    sorterFor(device)(self, values, indices, dim, args.largest as boolean, k, order);
  return [values, indices];
}

/** The Python variants of the ops registered here (native_functions.yaml's `variants`; see dispatch/variants.ts). */
export const SORTING_API = {
  sort: ['function, method', 'list'],
  topk: ['function, method', 'list'],
} as const satisfies ApiDecl;

export function registerSorting(): void {
  const ret = '(Tensor values, Tensor indices)';
  for (const schema of [
    `sort(Tensor self, int dim=-1, bool descending=False) -> ${ret}`,
    `sort.stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False) -> ${ret}`,
  ]) {
    defineOp({ schema, tags, cpu: sortKernel, meta: sortKernel, webgpu: sortKernel });
  }
  defineOp({
    schema: `topk(Tensor self, SymInt k, int dim=-1, bool largest=True, bool sorted=True) -> ${ret}`,
    tags,
    cpu: topkKernel,
    meta: topkKernel,
    webgpu: topkKernel,
  });
  operatorTable.declare(SORTING_API);
}
