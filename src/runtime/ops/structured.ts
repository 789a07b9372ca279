/**
 * Structured ops (PyTorch's structured kernels): one definition = a meta function (output shape, dtype,
 * strides) + a backend impl that fills a given output. From it we register the functional overload, the
 * in-place `name_` overload and the `.out` overload, with PyTorch's rules for each.
 */

import {
  canCast,
  DeviceMismatchError,
  type DeviceType,
  DTYPE_INFO,
  type DType,
  InplaceBroadcastError,
  InternalOverlapError,
  isNonOverlappingAndDense,
  ResultTypeError,
  sameShape,
  Tensor,
} from '../core/index.ts';
import {
  type BoundArgs,
  DispatchKey,
  type OperatorEntry,
  type OpTags,
  operatorTable,
  parseSchema,
} from '../dispatch/index.ts';
import { pendingOut, writeThroughOut } from './out_write.ts';

export interface OutSpec {
  readonly shape: readonly number[];
  readonly dtype: DType;
  readonly strides?: readonly number[];
  /** Whatever the meta function worked out that the impl needs too (e.g. a pointwise plan): computed once. */
  readonly plan?: unknown;
}

export type BackendImpl = (args: BoundArgs, out: Tensor, op: string, spec: OutSpec) => void;

export interface StructuredDef {
  /** The functional schema, e.g. `add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor`. */
  readonly schema: string;
  readonly tags: OpTags;
  readonly inplace?: boolean;
  readonly out?: boolean;
  /** The out overload's name in PyTorch's schema (default 'out'). */
  readonly outOverload?: string;
  /** The in-place overload's name when it differs from the functional one (pow_.Tensor for pow.Tensor_Tensor). */
  readonly inplaceOverload?: string;
  readonly meta: (args: BoundArgs, op: string) => OutSpec;
  /** Kernels per real device; a device without one raises E_NOT_IMPLEMENTED from the dispatcher. */
  readonly impl: { readonly cpu: BackendImpl; readonly webgpu?: BackendImpl };
}

type RealDevice = 'cpu' | 'webgpu';

/** Sets the kernel for CPU and Meta, and for WebGPU when the op has a webgpu impl. */
function setKernels(
  e: OperatorEntry,
  def: StructuredDef,
  k: Parameters<OperatorEntry['kernels']['set']>[1],
): void {
  e.kernels.set(DispatchKey.CPU, k);
  e.kernels.set(DispatchKey.Meta, k);
  if (def.impl.webgpu) e.kernels.set(DispatchKey.WebGPU, k);
}

const torchName = (d: DType) => DTYPE_INFO[d].torchName;

/** Every non-wrapped tensor argument must live on one device (0-dim cpu tensors may join any device). */
export function commonDevice(op: OperatorEntry, args: BoundArgs): DeviceType {
  // A loop, not a per-call closure: this runs on every structured call (the eager hot path).
  let device: DeviceType | null = null;
  for (const a of op.schema.args) {
    const v = args[a.name];
    if (v instanceof Tensor) device = visitDevice(op, device, v, a.name, a.type.alias?.isWrite === true);
    else if (Array.isArray(v))
      for (const x of v) if (x instanceof Tensor) device = visitDevice(op, device, x, a.name, false);
  }
  return device ?? 'cpu';
}

/** The device so far after seeing `t` (wrapped numbers and 0-dim cpu inputs join any device). */
function visitDevice(
  op: OperatorEntry,
  device: DeviceType | null,
  t: Tensor,
  name: string,
  written: boolean,
): DeviceType | null {
  if (t.isWrappedNumber) return device;
  // TensorIterator's cpu-scalar exemption covers inputs only: a written 0-dim cpu tensor sets the device.
  if (t.device === 'cpu' && t.ndim === 0 && !written) return device;
  if (device === null) return t.device;
  if (device !== t.device) {
    throw new DeviceMismatchError('Expected all tensors to be on the same device', {
      op: op.schema.name,
      arg: name,
      got: t.device,
      expected: device,
    });
  }
  return device;
}

/** In-place writes into a tensor whose elements alias each other (stride 0 over size > 1) are refused. */
export function assertNoInternalOverlap(t: Tensor, op: string): void {
  for (let d = 0; d < t.ndim; d++) {
    if (t.strides[d] === 0 && t.shape[d] > 1) {
      throw new InternalOverlapError(
        'unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.',
        {
          op,
          arg: 'self',
          got: `strides [${t.strides.join(', ')}]`,
          expected: 'no stride-0 dims of size > 1',
        },
      );
    }
  }
}

/**
 * at::assert_no_partial_overlap: an input that shares memory with the written-to tensor must be the very same
 * elements in the same layout; a shifted or transposed alias would be read after it was overwritten.
 */
export function assertNoPartialOverlap(out: Tensor, input: Tensor, op: string, arg = 'self'): void {
  if (out === input || input.storage !== out.storage || out.numel === 0 || input.numel === 0) return;
  if (
    !isNonOverlappingAndDense(out.shape, out.strides) ||
    !isNonOverlappingAndDense(input.shape, input.strides)
  )
    return;
  const aBegin = out.storageOffset;
  const aEnd = aBegin + out.numel;
  const bBegin = input.storageOffset;
  const bEnd = bBegin + input.numel;
  const sameStrides =
    out.strides.length === input.strides.length &&
    out.strides.every((s, i) => s === input.strides[i] || out.shape[i] < 2);
  const partial =
    aBegin === bBegin && aEnd === bEnd
      ? !(sameShape(out.shape, input.shape) && sameStrides)
      : aBegin < bEnd && bBegin < aEnd;
  if (partial) {
    throw new InternalOverlapError(
      'unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.',
      {
        op,
        arg,
        got: `an input overlapping the output (offsets ${bBegin} and ${aBegin})`,
        expected: 'no partial overlap',
      },
    );
  }
}

/** Checks every tensor argument except `skip` (the written-to one) against `out`. */
function assertInputsDontOverlap(op: OperatorEntry, args: BoundArgs, out: Tensor, skip: string): void {
  for (const a of op.schema.args) {
    if (a.name === skip) continue;
    const v = args[a.name];
    if (v instanceof Tensor) assertNoPartialOverlap(out, v, op.schema.name, a.name);
    else if (Array.isArray(v))
      for (const x of v) if (x instanceof Tensor) assertNoPartialOverlap(out, x, op.schema.name, a.name);
  }
}

/** True when a tensor argument other than `skip` shares `out`'s storage (a full overlap: partial is refused). */
export function readsOutStorage(op: OperatorEntry, args: BoundArgs, out: Tensor, skip = 'out'): boolean {
  for (const a of op.schema.args) {
    if (a.name === skip) continue;
    const v = args[a.name];
    if (v instanceof Tensor && v.storage === out.storage) return true;
    if (Array.isArray(v) && v.some((x) => x instanceof Tensor && x.storage === out.storage)) return true;
  }
  return false;
}

export function checkOutDType(op: string, result: DType, out: DType, arg = 'out'): void {
  if (!canCast(result, out)) {
    throw new ResultTypeError(
      `result type ${torchName(result)} can't be cast to the desired output type ${torchName(out)}`,
      {
        op,
        arg,
        got: out,
        expected: `a dtype ${result} can be cast to`,
      },
    );
  }
}

function inplaceSchema(functional: string, overload?: string): string {
  const s = parseSchema(functional);
  const args = s.text
    .slice(s.text.indexOf('(') + 1, s.text.lastIndexOf(')'))
    .replace(/^Tensor self/, 'Tensor(a!) self');
  const name = overload ?? s.overload;
  return `${s.name}_${name ? `.${name}` : ''}(${args}) -> Tensor(a!)`;
}

/** PyTorch names out overloads case by case (add.out, where.self_out, clamp.Tensor_out): `overload` says which. */
function outSchema(functional: string, overload = 'out'): string {
  const s = parseSchema(functional);
  const args = s.text.slice(s.text.indexOf('(') + 1, s.text.lastIndexOf(')'));
  const sep = args.includes('*') ? ', ' : ', *, ';
  return `${s.name}.${overload}(${args}${sep}Tensor(a!) out) -> Tensor(a!)`;
}

export function defineStructured(def: StructuredDef): void {
  const fn = operatorTable.def(def.schema, def.tags);
  const functional = (_ks: unknown, args: BoundArgs, op: OperatorEntry) => {
    const device = commonDevice(op, args);
    const spec = def.meta(args, op.schema.name);
    const out = Tensor.empty(spec.shape, spec.dtype, device, spec.strides);
    if (device !== 'meta') def.impl[device as RealDevice]!(args, out, op.schema.name, spec);
    return out;
  };
  setKernels(fn, def, functional);

  if (def.inplace) {
    const ip = operatorTable.def(inplaceSchema(def.schema, def.inplaceOverload), def.tags);
    const kernel = (_ks: unknown, args: BoundArgs, op: OperatorEntry) => {
      const self = args.self as Tensor;
      commonDevice(op, args);
      const spec = def.meta(args, op.schema.name);
      if (!sameShape(spec.shape, self.shape)) {
        throw new InplaceBroadcastError(
          `output with shape [${self.shape.join(', ')}] doesn't match the broadcast shape [${spec.shape.join(', ')}]`,
          { op: op.schema.name, arg: 'self', got: [...self.shape], expected: [...spec.shape] },
        );
      }
      checkOutDType(op.schema.name, spec.dtype, self.dtype, 'self');
      assertNoInternalOverlap(self, op.schema.name);
      assertInputsDontOverlap(op, args, self, 'self');
      if (self.device !== 'meta') def.impl[self.device as RealDevice]!(args, self, op.schema.name, spec);
      self.bumpVersion();
      return self;
    };
    setKernels(ip, def, kernel);
  }

  if (def.out) {
    const o = operatorTable.def(outSchema(def.schema, def.outOverload), def.tags);
    const kernel = (_ks: unknown, args: BoundArgs, op: OperatorEntry) => {
      const out = args.out as Tensor;
      const device = commonDevice(op, args);
      const spec = def.meta(args, op.schema.name);
      checkOutDType(op.schema.name, spec.dtype, out.dtype);
      const { target, commit } = pendingOut(out, spec.shape, spec.strides);
      assertNoInternalOverlap(target, op.schema.name);
      assertInputsDontOverlap(op, args, target, 'out');
      if (device !== 'meta')
        writeThroughOut(target, readsOutStorage(op, args, target), (t) =>
          def.impl[device as RealDevice]!(args, t, op.schema.name, spec),
        );
      commit();
      out.bumpVersion();
      return out;
    };
    setKernels(o, def, kernel);
  }
}

/** A non-structured op: kernels per backend (cpu, meta) or one composite kernel for all backends. */
export interface OpDef {
  readonly schema: string;
  readonly tags: OpTags;
  readonly cpu?: (args: BoundArgs, op: OperatorEntry) => unknown;
  readonly meta?: (args: BoundArgs, op: OperatorEntry) => unknown;
  readonly webgpu?: (args: BoundArgs, op: OperatorEntry) => unknown;
  /** CompositeImplicit: written in other ops (or pure metadata), so it works on every backend. */
  readonly composite?: (args: BoundArgs, op: OperatorEntry) => unknown;
}

export function defineOp(def: OpDef): OperatorEntry {
  const e = operatorTable.def(def.schema, def.tags);
  if (def.cpu) {
    const k = def.cpu;
    e.kernels.set(DispatchKey.CPU, (_ks, args, op) => k(args, op));
  }
  if (def.meta) {
    const k = def.meta;
    e.kernels.set(DispatchKey.Meta, (_ks, args, op) => k(args, op));
  }
  if (def.webgpu) {
    const k = def.webgpu;
    e.kernels.set(DispatchKey.WebGPU, (_ks, args, op) => k(args, op));
  }
  if (def.composite) {
    const k = def.composite;
    e.composite = (_ks, args, op) => k(args, op);
  }
  return e;
}
