/**
 * Index-driven ops: gather, scatter (src / value / reduce), index_select, masked_fill. The cpu kernels walk 1-D
 * lines along `dim` (forEachLine) reading the index tensor and the operands through their strides; the webgpu
 * kernels (backends/webgpu gather.ts) run one thread per output element. A GPU kernel cannot raise, so the
 * value-dependent index check (E_INDEX_OUT_OF_RANGE) is cpu-only: on webgpu an out-of-range index writes 0.
 */

import { elementCopier, forEachLine, runPointwise } from '../../backends/cpu/index.ts';
import { gatherGPU, maskedFillGPU } from '../../backends/webgpu/index.ts';
import {
  broadcastShapes,
  contiguousStrides,
  DTYPE_INFO,
  type DType,
  DTypeUnsupportedError,
  IndexOutOfRangeError,
  InvalidArgumentError,
  ResultTypeError,
  type Scalar,
  ShapeMismatchError,
  Tensor,
  wrapDim,
} from '../../core/index.ts';
import { type ApiDecl, type BoundArgs, operatorTable } from '../../dispatch/index.ts';
import { asScalar, checkIndexLines, indexReader, nonEmptyShape, scalarTo } from '../op_helpers.ts';
import { defineStructured, type OutSpec } from '../structured.ts';
import { hostElement, registerScatter } from './scatter.ts';

const tags = { family: 'index' };

function gatherMeta(args: BoundArgs, op: string): OutSpec {
  const self = args.self as Tensor;
  const index = args.index as Tensor;
  const dim = wrapDim(args.dim as number, self.ndim, op);
  if (index.dtype !== 'int64') {
    throw new DTypeUnsupportedError('gather(): Expected dtype int64 for index', {
      op,
      arg: 'index',
      got: index.dtype,
      expected: 'int64',
    });
  }
  if (index.numel > 0) {
    const s = nonEmptyShape(self).shape;
    const ix = nonEmptyShape(index).shape;
    if (s.length !== ix.length) {
      throw new ShapeMismatchError('Index tensor must have the same number of dimensions as input tensor', {
        op,
        arg: 'index',
        got: index.ndim,
        expected: self.ndim,
      });
    }
    for (let d = 0; d < s.length; d++) {
      if (d !== dim && ix[d] > s[d]) {
        throw new ShapeMismatchError(
          `Size does not match at dimension ${d} expected index [${index.shape.join(', ')}] to be smaller than self [${self.shape.join(', ')}] apart from dimension ${dim}`,
          {
            op,
            arg: 'index',
            got: [...index.shape],
            expected: `<= [${self.shape.join(', ')}] apart from dim ${dim}`,
          },
        );
      }
    }
  }
  return { shape: index.shape, dtype: self.dtype, strides: contiguousStrides(index.shape) };
}

function gatherImpl(args: BoundArgs, out: Tensor, op: string): void {
  const self = args.self as Tensor;
  const index = args.index as Tensor;
  if (index.numel === 0) return;
  const dim = wrapDim(args.dim as number, self.ndim);
  const s = nonEmptyShape(self);
  const ix = nonEmptyShape(index);
  const o = nonEmptyShape(out);
  const size = s.shape[dim];
  // The index range is checked before the first write: a raising gather(out=) leaves out untouched.
  checkIndexLines(index, dim, size, op);
  const read = indexReader(index);
  const copy = elementCopier(self.dtype);
  const [od, id, sd] = [o.strides[dim], ix.strides[dim], s.strides[dim]];
  const a = out.storage.data!;
  const b = self.storage.data!;
  forEachLine(
    ix.shape,
    dim,
    [o.strides, ix.strides, s.strides],
    [out.storageOffset, index.storageOffset, self.storageOffset],
    (offs) => {
      for (let i = 0; i < ix.shape[dim]; i++)
        copy(a, offs[0] + i * od, b, offs[2] + read(offs[1] + i * id) * sd);
    },
  );
}

function gatherWebGPU(args: BoundArgs, out: Tensor): void {
  const self = args.self as Tensor;
  const index = args.index as Tensor;
  if (index.numel === 0) return;
  gatherGPU(out, self, index, wrapDim(args.dim as number, self.ndim), nonEmptyShape(index).strides);
}

function indexSelectMeta(args: BoundArgs, op: string): OutSpec {
  const self = args.self as Tensor;
  const index = args.index as Tensor;
  const dim = wrapDim(args.dim as number, self.ndim, op);
  if (index.ndim > 1)
    throw new ShapeMismatchError('index_select(): Index is supposed to be a vector', {
      op,
      arg: 'index',
      got: index.ndim,
      expected: '<= 1 dims',
    });
  if (self.ndim === 0 && index.numel !== 1) {
    throw new ShapeMismatchError(
      `index_select(): Index to scalar can have only 1 value, got ${index.numel} value(s)`,
      { op, arg: 'index', got: index.numel, expected: 1 },
    );
  }
  if (index.dtype !== 'int64' && index.dtype !== 'int32') {
    throw new DTypeUnsupportedError('index_select(): Expected dtype int32 or int64 for index', {
      op,
      arg: 'index',
      got: index.dtype,
      expected: 'int32 or int64',
    });
  }
  const shape = [...self.shape];
  if (self.ndim > 0) shape[dim] = index.numel;
  return { shape, dtype: self.dtype, strides: contiguousStrides(shape) };
}

function indexSelectImpl(args: BoundArgs, out: Tensor, op: string): void {
  const self = args.self as Tensor;
  const index = args.index as Tensor;
  const dim = wrapDim(args.dim as number, self.ndim);
  const s = nonEmptyShape(self);
  const o = nonEmptyShape(out);
  const n = index.numel;
  const read = indexReader(index);
  const istride = index.ndim === 0 ? 0 : index.strides[0];
  const rows = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const v = read(index.storageOffset + i * istride);
    if (v < 0 || v >= s.shape[dim]) {
      throw new IndexOutOfRangeError('index out of range in self', {
        op,
        arg: 'index',
        got: v,
        expected: `in [0, ${s.shape[dim] - 1}]`,
      });
    }
    rows[i] = v;
  }
  const copy = elementCopier(self.dtype);
  const [od, sd] = [o.strides[dim], s.strides[dim]];
  const a = out.storage.data!;
  const b = self.storage.data!;
  forEachLine(o.shape, dim, [o.strides, s.strides], [out.storageOffset, self.storageOffset], (offs) => {
    for (let i = 0; i < n; i++) copy(a, offs[0] + i * od, b, offs[1] + rows[i] * sd);
  });
}

/** index_select is gather with the index read along `dim` only (stride 0 on the other dims). */
function indexSelectWebGPU(args: BoundArgs, out: Tensor): void {
  const self = args.self as Tensor;
  const index = args.index as Tensor;
  const dim = wrapDim(args.dim as number, self.ndim);
  const istride = index.ndim === 0 ? 0 : index.strides[0];
  const strides = nonEmptyShape(out).shape.map((_, d) => (d === dim ? istride : 0));
  gatherGPU(out, self, index, dim, strides);
}

function checkMask(mask: Tensor, op: string): void {
  if (mask.dtype !== 'bool' && mask.dtype !== 'uint8') {
    throw new DTypeUnsupportedError(
      `masked_fill_ only supports boolean masks, but got mask with dtype ${DTYPE_INFO[mask.dtype].torchName}`,
      {
        op,
        arg: 'mask',
        got: mask.dtype,
        expected: 'bool',
      },
    );
  }
}

/** Out-of-place masked_fill is clone(contiguous) of self broadcast with mask, then filled. */
function maskedFillMeta(args: BoundArgs, op: string): OutSpec {
  const self = args.self as Tensor;
  const mask = args.mask as Tensor;
  checkMask(mask, op);
  const value = args.value as Scalar | Tensor;
  if (value instanceof Tensor && value.ndim !== 0) {
    throw new InvalidArgumentError(
      `masked_fill_ only supports a 0-dimensional value tensor, but got tensor with ${value.ndim} dimension(s).`,
      {
        op,
        arg: 'value',
        got: value.ndim,
        expected: 0,
      },
    );
  }
  const shape = broadcastShapes(self.shape, mask.shape, op);
  return { shape, dtype: self.dtype, strides: contiguousStrides(shape) };
}

const pickReal = (m: number, x: unknown, v: unknown) => (m ? v : x);
const pickComplex = (m: number, xr: number, xi: number, vr: number, vi: number) => (m ? [vr, vi] : [xr, xi]);

function maskedFillImpl(args: BoundArgs, out: Tensor, op: string): void {
  const self = args.self as Tensor;
  const mask = args.mask as Tensor;
  const dtype: DType = self.dtype;
  const value = scalarTo(asScalar(args.value as Scalar | Tensor), dtype, op);
  const complex = DTYPE_INFO[dtype].kind === 'complex';
  runPointwise(
    {
      fn: complex ? pickComplex : pickReal,
      targets: ['bool', dtype],
      value: dtype,
      scalars: [value],
      scalarDomainComplex: complex,
    },
    out,
    [mask, self],
  );
}

/** A webgpu value tensor is converted in the kernel; a host value is converted (and range-checked) here. */
function maskedFillWebGPU(args: BoundArgs, out: Tensor, op: string): void {
  const self = args.self as Tensor;
  const v = args.value as Scalar | Tensor;
  const value =
    v instanceof Tensor && v.device === 'webgpu'
      ? v
      : hostElement(scalarTo(asScalar(v), self.dtype, op), self.dtype);
  maskedFillGPU(out, self, args.mask as Tensor, value);
}

/** index_select.out resizes rather than checks shape, but refuses another dtype with its own message. */
function sameScalarType(op: string, result: DType, out: DType): void {
  if (result !== out) {
    throw new ResultTypeError('index_select(): self and result must have the same scalar type', {
      op,
      arg: 'out',
      got: out,
      expected: result,
    });
  }
}

/** The Python variants of the ops registered here (native_functions.yaml's `variants`; see dispatch/variants.ts). */
export const INDEXING_API = {
  gather: 'function, method',
  index_select: 'function, method',
  masked_fill: 'function, method',
  masked_fill_: 'method',
} as const satisfies ApiDecl;

export function registerIndexing(): void {
  defineStructured({
    schema: 'gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor',
    tags,
    out: true,
    outRule: 'exact',
    meta: gatherMeta,
    impl: { cpu: gatherImpl, webgpu: gatherWebGPU },
  });
  defineStructured({
    schema: 'index_select(Tensor self, int dim, Tensor index) -> Tensor',
    tags,
    out: true,
    outRule: sameScalarType,
    meta: indexSelectMeta,
    impl: { cpu: indexSelectImpl, webgpu: indexSelectWebGPU },
  });
  for (const overload of ['Scalar', 'Tensor']) {
    const valueType = overload === 'Scalar' ? 'Scalar' : 'Tensor';
    defineStructured({
      schema: `masked_fill.${overload}(Tensor self, Tensor mask, ${valueType} value) -> Tensor`,
      tags,
      inplace: true,
      out: true,
      outOverload: `${overload}_out`,
      meta: maskedFillMeta,
      impl: { cpu: maskedFillImpl, webgpu: maskedFillWebGPU },
    });
  }
  registerScatter();
  operatorTable.declare(INDEXING_API);
}
