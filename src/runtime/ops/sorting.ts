/**
 * sort (+ sort.stable) and topk, returning [values, indices] (indices int64). Each 1-D line along `dim` is
 * read through its strides, its positions are sorted stably by value (NaN is the largest value, like
 * PyTorch), and values / indices are written through the outputs' strides. On webgpu (backends/webgpu
 * sort.ts) each element computes its rank in its line: the same stable order, exactly.
 */

import { elementCopier, forEachLine, numberReader } from '../backends/cpu/index.ts';
import { sortGPU } from '../backends/webgpu/index.ts';
import {
  contiguousStrides,
  DTYPE_INFO,
  type DType,
  InvalidArgumentError,
  type StorageArray,
  Tensor,
  wrapDim,
} from '../core/index.ts';
import { type ApiDecl, type BoundArgs, type OperatorEntry, operatorTable } from '../dispatch/index.ts';
import { notImplementedFor, preserveStrides } from './op_helpers.ts';
import { commonDevice, defineOp } from './structured.ts';

const tags = { family: 'sorting' };

/** Ascending order with NaN after everything (and equal to NaN), ties left to the stable sort. */
function ascending(a: number | bigint, b: number | bigint): number {
  if (Number.isNaN(a)) return Number.isNaN(b) ? 0 : 1;
  if (Number.isNaN(b)) return -1;
  return a < b ? -1 : a > b ? 1 : 0;
}

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
  const cmp = descending
    ? (i: number, j: number) => ascending(keys[j], keys[i])
    : (i: number, j: number) => ascending(keys[i], keys[j]);
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
      order.sort(cmp);
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
    sorterFor(device)(self, values, indices, dim, args.descending as boolean, count);
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
  // sorted=False may return any order; the sorted order is one of them.
  if (k > 0 && self.numel > 0) sorterFor(device)(self, values, indices, dim, args.largest as boolean, k);
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
