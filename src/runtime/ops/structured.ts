/**
 * Structured ops (PyTorch's structured kernels): one definition = a meta function (output shape, dtype,
 * strides) + a backend impl that fills a given output. From it we register the functional overload, the
 * in-place `name_` overload and the `.out` overload, with PyTorch's rules for each.
 */

import { InplaceBroadcastError, sameShape, Tensor } from '../core/index.ts';
import {
  type BoundArgs,
  DispatchKey,
  type OperatorEntry,
  type OpTags,
  operatorTable,
  parseSchema,
} from '../dispatch/index.ts';
import { defineOuts, type OutRule } from './out_define.ts';
import type { OutSpec } from './out_write.ts';
import {
  assertInputsDontOverlap,
  assertNoInternalOverlap,
  checkOutDType,
  commonDevice,
} from './write_checks.ts';

export type { OutSpec } from './out_write.ts';

export type BackendImpl = (args: BoundArgs, out: Tensor, op: string, spec: OutSpec) => void;

export interface StructuredDef {
  /** The functional schema, e.g. `add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor`. */
  readonly schema: string;
  readonly tags: OpTags;
  readonly inplace?: boolean;
  readonly out?: boolean;
  /** How the out= tensor's dtype is checked (default 'cast': TensorIterator's, any dtype the result casts to). */
  readonly outRule?: OutRule;
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
    // The one out= kernel (out_define.ts).
    const webgpu = def.impl.webgpu;
    defineOuts(
      outSchema(def.schema, def.outOverload),
      def.tags,
      (args, op) => [def.meta(args, op)],
      (args, [out], op, [spec]) =>
        out.device === 'webgpu' ? webgpu!(args, out, op, spec) : def.impl.cpu(args, out, op, spec),
      { webgpu: webgpu !== undefined },
      def.outRule ?? 'cast',
    );
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
