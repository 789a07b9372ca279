/**
 * Custom ops from outside the runtime's tree, in torch.library's shape: `define` a schema in your own namespace,
 * `impl` a kernel per device (cpu, webgpu, meta) or a composite made of other ops, `registerAutograd` a backward,
 * `registerFake` a meta kernel (shapes, dtypes and strides without data). The op lands in the one operator table:
 * `callOp('myops::scale_shift', ...)`, `ops.myops.scale_shift(...)`, listOps(), autograd and compile see it as
 * they see a built-in op. Kernels take the schema's arguments positionally, as Python's do.
 */
import { type Derivative, type GradContext, setAutogradKernel } from '../autograd/index.ts';
import {
  DuplicateOpError,
  InvalidArgumentError,
  isRegisteredDevice,
  ReservedNamespaceError,
  registeredDevice,
  SchemaMismatchError,
  Tensor,
  UnknownOpError,
} from '../core/index.ts';
import {
  type Argument,
  type BoundArgs,
  DispatchKey,
  type Kernel,
  type OperatorEntry,
  operatorTable,
  parseSchema,
  type Schema,
} from '../dispatch/index.ts';

/** A kernel: the schema's arguments, positionally; returns what the schema's returns declare. */
// biome-ignore lint/suspicious/noExplicitAny: a kernel's parameters are whatever its schema declares
export type KernelFn = (...args: any[]) => unknown;
/**
 * Where an implementation runs: a device, or `composite` (written in other ops: every device, autograd too). A
 * device registered with registerDevice is a target by its name, for custom ops and built-in ones alike.
 */
export type ImplTarget = 'cpu' | 'webgpu' | 'meta' | 'composite' | (string & {});
/** What registerAutograd's backward gets: the object setupContext filled. */
export type AutogradContext = Record<string, unknown>;
export interface AutogradOptions {
  /** Saves what the backward needs on `ctx`, from the inputs (schema order) and the output(s). */
  readonly setupContext?: (ctx: AutogradContext, inputs: readonly unknown[], output: unknown) => void;
}
/** One gradient per input in schema order (null for a non-tensor or an input without one), or one tensor. */
export type Backward = (
  ctx: AutogradContext,
  ...grads: Tensor[]
) => Tensor | null | readonly (Tensor | null)[];

/** Namespaces the runtime owns: a custom op there would shadow (or pose as) a built-in one. */
export const RESERVED_NAMESPACES: readonly string[] = ['aten', 'prim', 'prims', 'torch', 'opgate'];
const DEVICE_KEY = { cpu: DispatchKey.CPU, webgpu: DispatchKey.WebGPU, meta: DispatchKey.Meta } as const;

interface CustomOp {
  readonly entry: OperatorEntry;
  autograd: boolean;
}
const customOps = new Map<string, CustomOp>();

/** `library.define('myops::scale_shift(Tensor x, float scale=2.0, float shift=1.0) -> Tensor')`. */
export function define(schemaText: string, options: { readonly family?: string } = {}): OperatorEntry {
  const ns = /^\s*(\w+)::/.exec(typeof schemaText === 'string' ? schemaText : '')?.[1];
  if (ns === undefined)
    throw new InvalidArgumentError("a custom op's schema names its namespace", {
      op: 'library.define',
      arg: 'schema',
      got: String(schemaText),
      expected: "'namespace::name(args) -> returns'",
    });
  if (RESERVED_NAMESPACES.includes(ns))
    throw new ReservedNamespaceError(`the namespace '${ns}' belongs to the runtime`, {
      op: 'library.define',
      arg: 'schema',
      got: schemaText,
      expected: `a namespace of your own (not ${RESERVED_NAMESPACES.join(', ')})`,
    });
  const parsed = parseSchema(schemaText);
  const name = `${ns}::${parsed.name}`;
  const schema: Schema = {
    ...parsed,
    name,
    qualifiedName: parsed.overload ? `${name}.${parsed.overload}` : name,
  };
  if (operatorTable.has(schema.qualifiedName))
    throw new DuplicateOpError('the op is already defined', {
      op: schema.qualifiedName,
      arg: 'schema',
      got: schemaText,
      expected: 'one library.define per op',
    });
  const entry = operatorTable.add(schema, { family: options.family ?? 'custom', library: ns });
  // Until a backward or a composite says otherwise, a call whose input requires grad is refused (never a
  // silently missing gradient).
  setAutogradKernel(entry, 'missing');
  customOps.set(schema.qualifiedName, { entry, autograd: false });
  return entry;
}

function customOp(name: string, caller: string): CustomOp {
  const op = customOps.get(name);
  if (!op)
    throw new UnknownOpError('no custom op of that name: library.define it first', {
      op: caller,
      arg: 'name',
      got: name,
      expected: `one of: ${[...customOps.keys()].join(', ') || 'no custom op defined yet'}`,
    });
  return op;
}

/**
 * `library.impl('myops::scale_shift', 'cpu', (x, scale, shift) => ...)`. On the registered device (registerDevice)
 * a built-in op takes a kernel too, named by its overload as PyTorch's TORCH_LIBRARY_IMPL does: `add.Tensor`
 * (or `aten::add.Tensor`), `neg`.
 */
export function impl(name: string, target: ImplTarget, kernel: KernelFn): void {
  if (typeof target === 'string' && isRegisteredDevice(target)) {
    implOnDevice(name, target, kernel);
    return;
  }
  const key = Object.hasOwn(DEVICE_KEY, target) ? DEVICE_KEY[target as keyof typeof DEVICE_KEY] : undefined;
  if (key === undefined && target !== 'composite') unknownTarget(name, target);
  const op = customOp(name, 'library.impl');
  checkKernel(name, kernel);
  if (key === undefined) {
    if (op.entry.composite) duplicate(name, target);
    op.entry.composite = boxed(op.entry, kernel, null);
    // Made of other ops: its gradient is theirs, unless a backward of its own was registered.
    if (!op.autograd) setAutogradKernel(op.entry, 'composite');
    return;
  }
  if (op.entry.kernels.has(key)) duplicate(name, target);
  op.entry.kernels.set(key, boxed(op.entry, kernel, target));
}

/** A kernel for the registered device: a custom op's, or a built-in overload's (PrivateUse1). */
function implOnDevice(name: string, device: string, kernel: KernelFn): void {
  const entry = deviceKernelEntry(name);
  checkKernel(name, kernel);
  if (entry.kernels.has(DispatchKey.PrivateUse1)) duplicate(name, device);
  entry.kernels.set(DispatchKey.PrivateUse1, boxed(entry, kernel, device));
}

/** The op a device kernel is for: a custom op, or a built-in overload by its qualified name; else E_UNKNOWN_OP. */
export function deviceKernelEntry(name: string): OperatorEntry {
  const custom = customOps.get(name);
  if (custom) return custom.entry;
  const q = typeof name === 'string' ? name.replace(/^aten::/, '') : '';
  if (operatorTable.has(q)) return operatorTable.get(q);
  const overloads = q.includes('::') || !operatorTable.names().includes(q) ? [] : operatorTable.resolve(q);
  throw new UnknownOpError('no op of that name: a device kernel names an overload', {
    op: 'library.impl',
    arg: 'name',
    got: String(name),
    expected: overloads.length
      ? `one of its overloads: ${overloads.map((o) => o.schema.qualifiedName).join(', ')}`
      : "a custom op (library.define) or a built-in overload ('add.Tensor', 'neg')",
  });
}

function checkKernel(name: string, kernel: KernelFn): void {
  if (typeof kernel !== 'function')
    throw new InvalidArgumentError('the kernel must be a function', {
      op: name,
      arg: 'kernel',
      got: typeof kernel,
      expected: 'a function taking the schema arguments positionally',
    });
}

function unknownTarget(name: string, target: unknown): never {
  const device = registeredDevice();
  const targets = [...Object.keys(DEVICE_KEY), ...(device ? [device] : []), 'composite'];
  throw new InvalidArgumentError(
    typeof target === 'string' && /^[a-z][a-z0-9]*$/.test(target)
      ? `no such implementation target: no device '${target}' is registered (registerDevice it first)`
      : 'no such implementation target',
    { op: name, arg: 'device', got: String(target), expected: `one of ${targets.join(', ')}` },
  );
}

/** `library.registerFake(name, fn)`: the meta kernel (compile traces through it; no data is read). */
export function registerFake(name: string, fn: KernelFn): void {
  impl(name, 'meta', fn);
}

/** `library.registerAutograd(name, backward, { setupContext })`: the op's derivative. */
export function registerAutograd(name: string, backward: Backward, options: AutogradOptions = {}): void {
  const op = customOp(name, 'library.registerAutograd');
  if (op.autograd) duplicate(name, 'autograd');
  const { schema } = op.entry;
  const tensors = schema.args.filter((a) => a.type.base === 'Tensor' && !a.type.alias?.isWrite);
  // Its node is named like a built-in op's (nodeName: `ScaleShiftBackward0`).
  const d: Derivative = {
    saves: [...tensors.map((a) => a.name), 'result'],
    formula: (c: GradContext) => {
      const ctx: AutogradContext = {};
      // setupContext runs when the backward does, on the saved (version-checked) inputs and outputs: what it
      // saves is what it would have saved at the call.
      options.setupContext?.(
        ctx,
        schema.args.map((a) => c.args[a.name]),
        c.results.length > 1 ? c.results : c.result,
      );
      return gradientsOf(schema, tensors, backward(ctx, ...c.grads));
    },
  };
  op.autograd = true;
  setAutogradKernel(op.entry, d);
}

/** The backward's gradients, one per schema input (PyTorch's convention), as the tensor slots autograd wants. */
function gradientsOf(
  schema: Schema,
  tensorArgs: readonly Argument[],
  r: Tensor | null | readonly (Tensor | null)[],
): (Tensor | null)[] {
  const list = Array.isArray(r) ? r : [r];
  // One per input, or (a convenience) one per tensor input.
  const perInput = list.length === schema.args.length;
  if (!perInput && list.length !== tensorArgs.length)
    throw new SchemaMismatchError('the backward returned the wrong number of gradients', {
      op: schema.qualifiedName,
      arg: 'backward',
      got: list.length,
      expected: `${schema.args.length} (one per input, null where there is none)`,
    });
  const grads = perInput
    ? schema.args.flatMap((a, i) => (tensorArgs.includes(a) ? [list[i] ?? null] : []))
    : list.map((g) => g ?? null);
  for (const g of grads)
    if (g !== null && !(g instanceof Tensor))
      throw new SchemaMismatchError('a gradient is not a Tensor', {
        op: schema.qualifiedName,
        arg: 'backward',
        got: typeof g,
        expected: 'a Tensor or null',
      });
  return grads;
}

function duplicate(name: string, what: string): never {
  throw new DuplicateOpError(`a second ${what} implementation`, {
    op: name,
    arg: what,
    got: 'a kernel already registered',
    expected: `one ${what} implementation per op`,
  });
}

/** The kernel on the dispatcher's calling convention, its outputs checked against the schema's returns. */
function boxed(entry: OperatorEntry, kernel: KernelFn, device: string | null): Kernel {
  const { schema } = entry;
  return (_ks, args: BoundArgs) =>
    checkReturns(schema, device, kernel(...schema.args.map((a) => args[a.name])));
}

function checkReturns(schema: Schema, device: string | null, out: unknown): unknown {
  const want = schema.returns;
  const outs = want.length === 1 && !schema.returnsTuple ? [out] : out;
  const bad = (got: string, expected: string): never => {
    throw new SchemaMismatchError(`the ${device ?? 'composite'} kernel's outputs do not match the schema`, {
      op: schema.qualifiedName,
      arg: 'returns',
      got,
      expected,
    });
  };
  if (want.length === 0) return out;
  if (!Array.isArray(outs) || outs.length !== want.length)
    bad(describe(out), `${want.length} outputs (${schema.text.slice(schema.text.lastIndexOf('->') + 3)})`);
  (outs as unknown[]).forEach((o, i) => {
    if (want[i].type.base !== 'Tensor' || want[i].type.isList) return;
    if (!(o instanceof Tensor)) bad(`output ${i}: ${describe(o)}`, 'a Tensor');
    else if (device !== null && o.device !== device)
      bad(`output ${i} on ${o.device}`, `a tensor on ${device} (the kernel's device)`);
  });
  return out;
}

const describe = (v: unknown): string =>
  v instanceof Tensor
    ? 'a Tensor'
    : Array.isArray(v)
      ? `a list of ${v.length}`
      : v === null
        ? 'null'
        : typeof v;

/** The custom ops defined so far (qualified names). */
export function customOpNames(): string[] {
  return [...customOps.keys()];
}
