/**
 * out= overloads registered beside their functional op: one kernel for one written tensor
 * (`scatter.src_out(..., *, Tensor(a!) out)`) or several (`adaptive_max_pool2d.out(..., *, Tensor(a!) out,
 * Tensor(b!) indices)`). Everything is checked before the first write (the meta function's checks, each out's
 * dtype, overlaps with every input), each out keeps its geometry until the kernel succeeded (pendingOut), and an
 * out that is also read (an input's storage) is written through a temporary.
 */
import { CPP_TYPE_NAMES, type DType, ResultTypeError, type Tensor } from '../core/index.ts';
import {
  type BoundArgs,
  DispatchKey,
  type OperatorEntry,
  type OpTags,
  operatorTable,
} from '../dispatch/index.ts';
import { type OutSpec, pendingOut, writeThroughOut } from './out_write.ts';
import {
  assertInputsDontOverlap,
  assertNoInternalOverlap,
  checkOutDType,
  commonDevice,
  readsOutStorage,
} from './write_checks.ts';

/** How an out= tensor's dtype is checked against the op's result dtype. */
export type OutRule =
  /** Structured kernels with a fixed output dtype: "Expected out tensor to have dtype float, but got double instead". */
  | 'exact'
  /** TensorIterator ops: any dtype the result can be cast to. */
  | 'cast'
  | ((op: string, result: DType, out: DType) => void);

export function checkOut(rule: OutRule, op: string, result: DType, out: DType): void {
  if (typeof rule === 'function') rule(op, result, out);
  else if (rule === 'cast') checkOutDType(op, result, out);
  else if (result !== out) {
    throw new ResultTypeError(
      `Expected out tensor to have dtype ${CPP_TYPE_NAMES[result]}, but got ${CPP_TYPE_NAMES[out]} instead`,
      {
        op,
        arg: 'out',
        got: out,
        expected: result,
      },
    );
  }
}

/** The kernel body of an out= overload: fills `out`. */
export type OutImpl = (args: BoundArgs, out: Tensor, op: string) => void;

/** Fills the outs (in schema order) for a call's arguments; `specs` are the meta function's, one per out. */
export type OutsImpl = (
  args: BoundArgs,
  outs: readonly Tensor[],
  op: string,
  specs: readonly OutSpec[],
) => void;

/**
 * Registers an out= overload with every written (kwarg-only `Tensor(x!)`) argument of `schema`, from the meta
 * function of the functional overload (one OutSpec per out) and an impl that fills them. With `devices.webgpu` the
 * overload runs on webgpu too (`impl` picks its kernel by the outs' device).
 */
export function defineOuts(
  schema: string,
  tags: OpTags,
  meta: (args: BoundArgs, op: string) => readonly OutSpec[],
  impl: OutsImpl,
  devices: { readonly webgpu?: boolean } = {},
  rule: OutRule = 'exact',
): OperatorEntry {
  const e = operatorTable.def(schema, tags);
  const names = e.schema.args.filter((a) => a.kwargOnly && a.type.alias?.isWrite).map((a) => a.name);
  // Plain loops: add.out and every structured op's out= overload run through here (the eager hot path).
  const kernel = (_ks: unknown, args: BoundArgs, op: OperatorEntry) => {
    const device = commonDevice(op, args);
    const name = op.schema.name;
    const specs = meta(args, name);
    const outs: Tensor[] = [];
    const pending: ReturnType<typeof pendingOut>[] = [];
    for (let i = 0; i < names.length; i++) {
      const out = args[names[i]] as Tensor;
      checkOut(rule, name, specs[i].dtype, out.dtype);
      outs.push(out);
    }
    for (let i = 0; i < names.length; i++) {
      const p = pendingOut(outs[i], specs[i].shape, specs[i].strides);
      assertNoInternalOverlap(p.target, name);
      assertInputsDontOverlap(op, args, p.target, names);
      pending.push(p);
    }
    if (device !== 'meta') fill(op, args, pending, 0, [], (into) => impl(args, into, name, specs));
    for (const p of pending) p.commit();
    for (const o of outs) o.bumpVersion();
    return names.length === 1 ? outs[0] : outs;
  };
  /** Each out that an input reads is written through its own temporary; the impl fills all of them in one call. */
  const fill = (
    op: OperatorEntry,
    args: BoundArgs,
    pending: readonly ReturnType<typeof pendingOut>[],
    k: number,
    into: Tensor[],
    run: (into: readonly Tensor[]) => void,
  ): void => {
    if (k === pending.length) {
      run(into);
      return;
    }
    writeThroughOut(pending[k].target, readsOutStorage(op, args, pending[k].target, names[k]), (t) => {
      into.push(t);
      fill(op, args, pending, k + 1, into, run);
    });
  };
  e.kernels.set(DispatchKey.CPU, kernel);
  e.kernels.set(DispatchKey.Meta, kernel);
  if (devices.webgpu) e.kernels.set(DispatchKey.WebGPU, kernel);
  return e;
}

/**
 * Registers an out= overload (`schema` is its full aten schema, e.g. `scatter.src_out(...)`) from the same
 * meta function and cpu impl as the functional overload. defineStructured names every out overload `.out`,
 * which clashes when an op has several (clamp.out / clamp.Tensor_out). With a webgpu impl the overload runs
 * on webgpu too, picking the impl by the output's device.
 */
export function defineOut(
  schema: string,
  tags: OpTags,
  meta: (args: BoundArgs, op: string) => OutSpec,
  impl: OutImpl | { readonly cpu: OutImpl; readonly webgpu?: OutImpl },
  rule: OutRule,
): OperatorEntry {
  const cpu = typeof impl === 'function' ? impl : impl.cpu;
  const webgpu = typeof impl === 'function' ? undefined : impl.webgpu;
  return defineOuts(
    schema,
    tags,
    (args, op) => [meta(args, op)],
    (args, [out], op) => (out.device === 'webgpu' ? webgpu!(args, out, op) : cpu(args, out, op)),
    { webgpu: webgpu !== undefined },
    rule,
  );
}
