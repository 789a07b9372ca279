/**
 * Shape ops that copy data: cat, stack, flip, roll, tril/triu. Kernels are strided copies (copyInto over
 * views of the inputs and the output), so transposed, sliced and expanded inputs are read in place.
 */

import { elementCopier, logicalOffsets } from '../../backends/cpu/index.ts';
import { rollFlatGPU, triangleGPU } from '../../backends/webgpu/index.ts';
import {
  canCast,
  channelsLastStrides,
  contiguousStrides,
  DimOutOfRangeError,
  DTYPE_INFO,
  InvalidArgumentError,
  promotionOperand,
  ResultTypeError,
  resultType,
  ShapeMismatchError,
  sameShape,
  type Tensor,
  wrapDim,
} from '../../core/index.ts';
import { type ApiDecl, type BoundArgs, callOp, operatorTable } from '../../dispatch/index.ts';
import { defineOut, preserveStrides, zeroWriter } from '../op_helpers.ts';
import { copyOn } from '../out_write.ts';
import { defineOp, defineStructured, type OutSpec } from '../structured.ts';
import { makeView, sliceDim } from './views.ts';

const tags = { family: 'shape' };

/** cat_should_skip_tensor: legacy 1-D empty tensors are ignored by cat (except for dtype promotion). */
const skipped = (t: Tensor) => t.ndim === 1 && t.shape[0] === 0;

/** c10's is_channels_last_strides_2d: the layout suggest_memory_format calls channels_last. */
export const isChannelsLast = (t: Tensor): boolean => isChannelsLastStrides(t.shape, t.strides);

/** The same test on a geometry that is not a tensor's own (convolution's view of a 1-d input as 2-d). */
export function isChannelsLastStrides(shape: readonly number[], strides: readonly number[]): boolean {
  if (shape.length !== 4 || strides[1] === 0) return false;
  let min = 0;
  for (const d of [1, 3, 2, 0]) {
    if (shape[d] === 0 || strides[d] < min) return false;
    if (d === 0 && min === strides[1]) return false;
    min = strides[d] * Math.max(shape[d], 1);
  }
  return true;
}

function catMeta(args: BoundArgs, op: string): OutSpec {
  const tensors = args.tensors as Tensor[];
  if (tensors.length === 0) {
    throw new InvalidArgumentError('torch.cat(): expected a non-empty list of Tensors', {
      op,
      arg: 'tensors',
      got: 0,
      expected: '>= 1 tensors',
    });
  }
  tensors.forEach((t, i) => {
    if (t.ndim === 0) {
      throw new ShapeMismatchError(`zero-dimensional tensor (at position ${i}) cannot be concatenated`, {
        op,
        arg: 'tensors',
        got: `0-dim tensor at ${i}`,
      });
    }
  });
  const dtype = resultType(tensors.map(promotionOperand));
  const valid = tensors.find((t) => !skipped(t));
  if (valid === undefined) return { shape: [0], dtype, strides: [1] };
  const dim = wrapDim(args.dim as number, valid.ndim, op);
  let size = 0;
  tensors.forEach((t, i) => {
    if (skipped(t)) return;
    if (t.ndim !== valid.ndim) {
      throw new ShapeMismatchError(
        `Tensors must have same number of dimensions: got ${valid.ndim} and ${t.ndim}`,
        { op, arg: 'tensors', got: t.ndim, expected: valid.ndim },
      );
    }
    for (let d = 0; d < t.ndim; d++) {
      if (d !== dim && t.shape[d] !== valid.shape[d]) {
        throw new ShapeMismatchError(
          `Sizes of tensors must match except in dimension ${dim}. Expected size ${valid.shape[d]} but got size ${t.shape[d]} for tensor number ${i} in the list.`,
          { op, arg: 'tensors', got: [...t.shape], expected: [...valid.shape] },
        );
      }
    }
    size += t.shape[dim];
  });
  const shape = [...valid.shape];
  shape[dim] = size;
  const strides = tensors.every(isChannelsLast) ? channelsLastStrides(shape) : contiguousStrides(shape);
  return { shape, dtype, strides };
}

function catImpl(args: BoundArgs, out: Tensor): void {
  const tensors = (args.tensors as Tensor[]).filter((t) => !skipped(t));
  if (tensors.length === 0) return;
  const dim = wrapDim(args.dim as number, tensors[0].ndim);
  let offset = 0;
  for (const t of tensors) {
    const n = t.shape[dim];
    if (n > 0 && t.numel > 0) copyOn(sliceDim(out, dim, offset, offset + n, 1), t);
    offset += n;
  }
}

function flipMeta(args: BoundArgs, op: string): OutSpec {
  const self = args.self as Tensor;
  const seen = new Set<number>();
  for (const d of args.dims as number[]) {
    const w = wrapDim(d, self.ndim, op, 'dims');
    if (seen.has(w))
      throw new InvalidArgumentError(`dim ${w} appears multiple times in the list of dims`, {
        op,
        arg: 'dims',
        got: args.dims,
      });
    seen.add(w);
  }
  return { shape: self.shape, dtype: self.dtype, strides: preserveStrides(self) };
}

/** A flipped dim is the same memory walked backwards: a negative stride from the last element. */
function flipImpl(args: BoundArgs, out: Tensor): void {
  const self = args.self as Tensor;
  const strides = [...self.strides];
  let offset = self.storageOffset;
  for (const d of new Set((args.dims as number[]).map((x) => wrapDim(x, self.ndim)))) {
    if (d >= self.ndim || self.shape[d] === 0) continue;
    offset += (self.shape[d] - 1) * strides[d];
    strides[d] = -strides[d];
  }
  // On webgpu the negative strides travel as wrapped u32 words; the offset arithmetic wraps back in range.
  copyOn(out, makeView(self, self.shape, strides, offset));
}

function rollDims(args: BoundArgs, op: string): { shifts: number[]; dims: number[] } {
  const self = args.self as Tensor;
  const shifts = args.shifts as number[];
  const dims = args.dims as number[];
  if (shifts.length === 0)
    throw new InvalidArgumentError('`shifts` required', {
      op,
      arg: 'shifts',
      got: [],
      expected: 'at least one shift',
    });
  if (dims.length === 0 && shifts.length === 1) return { shifts, dims: [] };
  if (shifts.length !== dims.length) {
    throw new InvalidArgumentError(
      `shifts and dimensions must align. shifts: ${shifts.length}, dims:${dims.length}`,
      { op, arg: 'dims', got: dims.length, expected: shifts.length },
    );
  }
  if (self.ndim === 0) {
    throw new DimOutOfRangeError(`Dimension specified as ${dims[0]} but tensor has no dimensions`, {
      op,
      arg: 'dims',
      got: dims[0],
    });
  }
  return { shifts, dims: dims.map((d) => wrapDim(d, self.ndim, op, 'dims')) };
}

function rollMeta(args: BoundArgs, op: string): OutSpec {
  const self = args.self as Tensor;
  rollDims(args, op);
  return { shape: self.shape, dtype: self.dtype, strides: contiguousStrides(self.shape) };
}

function rollImpl(args: BoundArgs, out: Tensor, op: string): void {
  const { shifts, dims } = rollDims(args, op);
  if (out.numel === 0) return;
  const self = args.self as Tensor;
  if (dims.length === 0 && out.device === 'webgpu') {
    rollFlatGPU(out, self, shifts[0]);
    return;
  }
  if (dims.length === 0) {
    // Roll of the flattened tensor: element i (row-major) moves to i + shift; walk both through their strides.
    const n = self.numel;
    const src = logicalOffsets(self.shape, self.strides, self.storageOffset);
    const dst = logicalOffsets(out.shape, out.strides, out.storageOffset);
    const copy = elementCopier(self.dtype);
    const s = ((shifts[0] % n) + n) % n;
    const a = out.storage.data!;
    const b = self.storage.data!;
    for (let i = 0; i < n; i++) copy(a, dst[(i + s) % n], b, src[i]);
    return;
  }
  // Along each rolled dim the output is two blocks (the tail of self, then its head): 2^k strided copies.
  let blocks: [Tensor, Tensor][] = [[out, self]];
  dims.forEach((d, k) => {
    const size = self.shape[d];
    const start = (((size - shifts[k]) % size) + size) % size;
    const next: [Tensor, Tensor][] = [];
    for (const [o, s] of blocks) {
      next.push([sliceDim(o, d, 0, size - start, 1), sliceDim(s, d, start, size, 1)]);
      if (start > 0) next.push([sliceDim(o, d, size - start, size, 1), sliceDim(s, d, 0, start, 1)]);
    }
    blocks = next;
  });
  for (const [o, s] of blocks) if (o.numel > 0) copyOn(o, s);
}

function triMeta(args: BoundArgs, op: string): OutSpec {
  const self = args.self as Tensor;
  if (self.ndim < 2) wrapDim(-2, self.ndim, op);
  return { shape: self.shape, dtype: self.dtype, strides: contiguousStrides(self.shape) };
}

function triImpl(lower: boolean) {
  return (args: BoundArgs, out: Tensor) => {
    const self = args.self as Tensor;
    const k = args.diagonal as number;
    if (out.device === 'webgpu') {
      triangleGPU(out, self, lower, k);
      return;
    }
    const nd = self.ndim;
    const [rows, cols] = [self.shape[nd - 2], self.shape[nd - 1]];
    const batch = self.shape.slice(0, -2);
    const sBase = logicalOffsets(batch, self.strides.slice(0, -2), self.storageOffset);
    const oBase = logicalOffsets(batch, out.strides.slice(0, -2), out.storageOffset);
    const [sr, sc] = [self.strides[nd - 2], self.strides[nd - 1]];
    const [or, oc] = [out.strides[nd - 2], out.strides[nd - 1]];
    const copy = elementCopier(self.dtype);
    const zero = zeroWriter(out.dtype);
    const a = out.storage.data!;
    const b = self.storage.data!;
    for (let m = 0; m < sBase.length; m++) {
      for (let i = 0; i < rows; i++) {
        for (let j = 0; j < cols; j++) {
          const o = oBase[m] + i * or + j * oc;
          if (lower ? j - i <= k : j - i >= k) copy(a, o, b, sBase[m] + i * sr + j * sc);
          else zero(a, o);
        }
      }
    }
  };
}

/** The Python variants of the ops registered here (native_functions.yaml's `variants`; see dispatch/variants.ts). */
export const SHAPE_API = {
  flip: 'function, method',
  roll: 'function, method',
  tril: 'function, method',
  triu: 'function, method',
  tril_: 'method',
  triu_: 'method',
  cat: 'function',
  stack: 'function',
} as const satisfies ApiDecl;

export function registerShapeOps(): void {
  defineStructured({
    schema: 'cat(Tensor[] tensors, int dim=0) -> Tensor',
    tags,
    out: true,
    outRule: (op, result, out) => {
      if (!canCast(result, out)) {
        throw new ResultTypeError(
          `torch.cat(): input types can't be cast to the desired output type ${DTYPE_INFO[out].torchName}`,
          { op, arg: 'out', got: out, expected: result },
        );
      }
    },
    meta: catMeta,
    impl: { cpu: catImpl, webgpu: catImpl },
  });
  defineOp({
    schema: 'stack(Tensor[] tensors, int dim=0) -> Tensor',
    tags,
    composite: (a) => callOp('cat', [stackInputs(a, 'stack'), a.dim]),
  });
  defineOp({
    schema: 'stack.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)',
    tags,
    composite: (a) => callOp('cat', [stackInputs(a, 'stack'), a.dim], { out: a.out }),
  });
  defineStructured({
    schema: 'flip(Tensor self, int[] dims) -> Tensor',
    tags,
    out: true,
    outRule: 'exact',
    meta: flipMeta,
    impl: { cpu: flipImpl, webgpu: flipImpl },
  });
  defineStructured({
    schema: 'roll(Tensor self, int[1] shifts, int[1] dims=[]) -> Tensor',
    tags,
    out: true,
    outRule: 'exact',
    meta: rollMeta,
    impl: { cpu: rollImpl, webgpu: rollImpl },
  });
  for (const [name, lower] of [
    ['tril', true],
    ['triu', false],
  ] as const) {
    defineStructured({
      schema: `${name}(Tensor self, int diagonal=0) -> Tensor`,
      tags,
      inplace: true,
      out: false,
      meta: triMeta,
      impl: { cpu: triImpl(lower), webgpu: triImpl(lower) },
    });
    defineOut(
      `${name}.out(Tensor self, int diagonal=0, *, Tensor(a!) out) -> Tensor(a!)`,
      tags,
      triMeta,
      { cpu: triImpl(lower), webgpu: triImpl(lower) },
      'exact',
    );
  }
  operatorTable.declare(SHAPE_API);
}

/** stack = cat of every input unsqueezed at `dim`; the inputs must all have one shape. */
function stackInputs(a: BoundArgs, op: string): Tensor[] {
  const tensors = a.tensors as Tensor[];
  if (tensors.length === 0)
    throw new InvalidArgumentError('stack expects a non-empty TensorList', {
      op,
      arg: 'tensors',
      got: 0,
      expected: '>= 1 tensors',
    });
  const dim = wrapDim(a.dim as number, tensors[0].ndim + 1, op);
  tensors.forEach((t, i) => {
    if (!sameShape(t.shape, tensors[0].shape)) {
      throw new ShapeMismatchError(
        `stack expects each tensor to be equal size, but got [${tensors[0].shape.join(', ')}] at entry 0 and [${t.shape.join(', ')}] at entry ${i}`,
        { op, arg: 'tensors', got: [...t.shape], expected: [...tensors[0].shape] },
      );
    }
  });
  return tensors.map((t) => callOp('unsqueeze', [t, dim]) as Tensor);
}
