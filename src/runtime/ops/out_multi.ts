/**
 * out= overloads with several outputs (`adaptive_max_pool2d.out(..., *, Tensor(a!) out, Tensor(b!) indices)`):
 * defineOut's rules for each written tensor. Everything is checked before the first write (the meta function's
 * checks, each out's dtype, overlaps), each out keeps its geometry until the kernel succeeded, and an out that
 * is also read (an input's storage) is written through a temporary.
 */
import { type Tensor, Tensor as TensorClass } from '../core/index.ts';
import {
  type BoundArgs,
  DispatchKey,
  type OperatorEntry,
  type OpTags,
  operatorTable,
} from '../dispatch/index.ts';
import { checkOut, type OutRule } from './op_helpers.ts';
import { copyOn, pendingOut } from './out_write.ts';
import {
  assertNoInternalOverlap,
  assertNoPartialOverlap,
  commonDevice,
  type OutSpec,
  readsOutStorage,
} from './structured.ts';

/** Fills the outs (in schema order) for a call's arguments. */
export type OutsImpl = (args: BoundArgs, outs: readonly Tensor[], op: string) => void;

export function defineOuts(
  schema: string,
  tags: OpTags,
  meta: (args: BoundArgs, op: string) => readonly OutSpec[],
  impl: OutsImpl,
  /** Whether `impl` also fills webgpu outs (it picks the kernel by the outs' device). */
  devices: { readonly webgpu?: boolean } = {},
  rule: OutRule = 'exact',
): OperatorEntry {
  const e = operatorTable.def(schema, tags);
  const names = e.schema.args.filter((a) => a.kwargOnly && a.type.alias?.isWrite).map((a) => a.name);
  const kernel = (_ks: unknown, args: BoundArgs, op: OperatorEntry) => {
    const outs = names.map((n) => args[n] as Tensor);
    const device = commonDevice(op, args);
    const name = op.schema.name;
    const specs = meta(args, name);
    specs.forEach((s, i) => {
      checkOut(rule, name, s.dtype, outs[i].dtype);
    });
    const pending = outs.map((o, i) => pendingOut(o, specs[i].shape, specs[i].strides));
    for (const { target } of pending) {
      assertNoInternalOverlap(target, name);
      for (const a of op.schema.args) {
        const v = args[a.name];
        if (!names.includes(a.name) && v instanceof TensorClass)
          assertNoPartialOverlap(target, v, name, a.name);
      }
    }
    if (device !== 'meta') {
      const aliased = pending.map(({ target }, i) => readsOutStorage(op, args, target, names[i]));
      const into = pending.map(({ target }, i) =>
        aliased[i] ? TensorClass.empty(target.shape, target.dtype, target.device, target.strides) : target,
      );
      impl(args, into, name);
      into.forEach((t, i) => {
        if (aliased[i]) copyOn(pending[i].target, t);
      });
    }
    for (const p of pending) p.commit();
    for (const o of outs) o.bumpVersion();
    return outs;
  };
  e.kernels.set(DispatchKey.CPU, kernel);
  e.kernels.set(DispatchKey.Meta, kernel);
  if (devices.webgpu) e.kernels.set(DispatchKey.WebGPU, kernel);
  return e;
}
