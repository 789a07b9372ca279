/**
 * The dispatcher: computes a DispatchKeySet from the tensor arguments and the thread-local state, then runs
 * the kernel of the highest key. Wrapper keys without a kernel fall through; a backend key without a kernel
 * (and no CompositeImplicit kernel) is E_NOT_IMPLEMENTED naming op, key and dtype.
 */
import {
  InvalidArgumentError,
  MissingKernelError,
  NoOverloadError,
  NotImplementedError,
  OpgateError,
  registeredDevice,
  Tensor,
  UnknownOpError,
} from '../core/index.ts';
import { BindFailure, type BoundArgs, bindArgs } from './binding.ts';
import {
  DEVICE_KEY,
  DispatchKey,
  DispatchKeySet,
  isBackendKey,
  KEY_NAMES,
  localExcluded,
  localIncluded,
  TENSOR_WRAPPER_KEYS,
} from './keys.ts';
import {
  applyRequiresGrad,
  checkTensorOptions,
  splitRequiresGrad,
  takesTensorOptions,
} from './python_options.ts';
import { type Kernel, type OperatorEntry, operatorTable } from './table.ts';

/** Wrapper keys with no kernel for an op are skipped (PyTorch registers fallthrough kernels for them). */
const FALLTHROUGH = DispatchKeySet.of(DispatchKey.ADInplaceOrView, DispatchKey.Autograd, DispatchKey.Tracer);

/**
 * Boxed fallbacks: one kernel serving every op for a key (PyTorch's backend fallback), used when the op has
 * no kernel of its own for it. The compile tracer installs one for the Tracer key.
 */
const FALLBACKS = new Map<DispatchKey, Kernel>();
export function setKeyFallback(key: DispatchKey, kernel: Kernel | null): void {
  if (kernel) FALLBACKS.set(key, kernel);
  else FALLBACKS.delete(key);
}

function tensorKeys(t: Tensor): number {
  return (1 << DEVICE_KEY[t.device]) | TENSOR_WRAPPER_KEYS.bits;
}

/** Keys contributed by the arguments: each non-wrapped tensor's backend key plus the wrapper keys. */
export function computeKeySet(op: OperatorEntry, args: BoundArgs): DispatchKeySet {
  let bits = 0;
  let sawWrapped = false;
  for (const a of op.schema.args) {
    const v = args[a.name];
    if (v instanceof Tensor) {
      if (v.isWrappedNumber) sawWrapped = true;
      else bits |= tensorKeys(v);
    } else if (Array.isArray(v)) {
      for (const x of v) if (x instanceof Tensor) bits |= tensorKeys(x);
    }
  }
  if (bits === 0) {
    // Factories: the `device` argument picks the backend (cpu by default).
    const device = (args.device as string | null | undefined) ?? 'cpu';
    const key = DEVICE_KEY[device.split(':')[0] as keyof typeof DEVICE_KEY] ?? DispatchKey.CPU;
    bits = (1 << key) | TENSOR_WRAPPER_KEYS.bits;
    if (sawWrapped) bits = (1 << DispatchKey.CPU) | TENSOR_WRAPPER_KEYS.bits;
  }
  return new DispatchKeySet(bits).union(localIncluded()).minus(localExcluded());
}

function firstDType(op: OperatorEntry, args: BoundArgs): string {
  for (const a of op.schema.args) {
    const v = args[a.name];
    if (v instanceof Tensor) return v.dtype;
    if (Array.isArray(v) && v[0] instanceof Tensor) return v[0].dtype;
  }
  return (args.dtype as string | null) ?? 'default';
}

/** Runs the kernel for the highest key of `ks`; wrapper kernels call this again with their key removed. */
export function redispatch(op: OperatorEntry, ks: DispatchKeySet, args: BoundArgs): unknown {
  let set = ks;
  for (;;) {
    const key = set.highest();
    if (key === null) {
      throw new NotImplementedError('no kernel for an empty dispatch key set', {
        op: op.name,
        got: ks.toString(),
      });
    }
    const kernel = op.kernels.get(key) ?? FALLBACKS.get(key) ?? (isBackendKey(key) ? op.composite : null);
    if (kernel) return kernel(set, args, op);
    if (FALLTHROUGH.has(key)) {
      set = set.remove(key);
      continue;
    }
    throw missingKernel(op, key, args);
  }
}

/** No kernel for `key` (PyTorch: "Could not run 'aten::add.Tensor' with arguments from the 'CPU' backend"). */
function missingKernel(op: OperatorEntry, key: DispatchKey, args: BoundArgs): MissingKernelError {
  const name = KEY_NAMES[key];
  const device = key === DispatchKey.PrivateUse1 ? (registeredDevice() ?? name) : name.toLowerCase();
  const q = op.schema.qualifiedName;
  return new MissingKernelError(
    `could not run '${op.name}' with arguments from the '${name}' backend${key === DispatchKey.PrivateUse1 ? ` (device '${device}')` : ''}`,
    {
      op: op.name,
      arg: 'dispatch key',
      got: `${name} (dtype ${firstDType(op, args)})`,
      expected: `one of the registered kernels: ${op.kernelKeys().join(', ') || 'none'}`,
    },
    { kernelOp: q.includes('::') ? q : `aten::${q}`, key: name, device },
  );
}

export function callEntry(op: OperatorEntry, args: BoundArgs): unknown {
  try {
    return redispatch(op, computeKeySet(op, args), args);
  } catch (e) {
    // Core's backstop checks do not know the op they run under; the innermost op names it.
    throw e instanceof OpgateError ? e.attributeTo(op.schema.name) : e;
  }
}

/**
 * Picks the overload a Python-style call binds to. With several overloads, a first pass binds types exactly: a
 * 0-dim tensor binds masked_fill.Tensor rather than masked_fill.Scalar, and a number scatter.value rather than
 * scatter.src as a wrapped tensor, as PyTorch's parser orders Tensor overloads before Scalar ones. The second pass
 * (registration order) allows the conversions: numbers for Tensors where PyTorch takes them, 0-dim tensors as
 * Scalars.
 */
export function bindCall(
  name: string,
  args: readonly unknown[],
  kwargs: Readonly<Record<string, unknown>>,
): [OperatorEntry, BoundArgs] {
  if (typeof name !== 'string' || !Array.isArray(args) || typeof kwargs !== 'object' || kwargs === null)
    badCall(name, args, kwargs);
  if (kwargs.inplace !== undefined) [name, kwargs] = operatorTable.routeInplace(name, kwargs);
  const overloads = operatorTable.resolve(name);
  if (overloads.length > 1 && typesCompete(overloads))
    for (const op of overloads) {
      const bound = bindArgs(op.schema, args, kwargs, true);
      if (!(bound instanceof BindFailure)) {
        return [op, bound];
      }
    }
  const failures: string[] = [];
  for (const op of overloads) {
    const bound = bindArgs(op.schema, args, kwargs);
    if (!(bound instanceof BindFailure)) {
      return [op, bound];
    }
    failures.push(`  ${op.schema.text}: ${bound.reason}`);
  }
  return unbound(name, args, kwargs, failures);
}

/**
 * No overload took the call. The Python parser's requires_grad on a factory (callOp sets it on the result) is no
 * aten argument: looked at only here, so calls without it pay nothing; anything else is E_NO_OVERLOAD.
 */
function unbound(
  name: string,
  args: readonly unknown[],
  kwargs: Readonly<Record<string, unknown>>,
  failures: readonly string[],
): [OperatorEntry, BoundArgs] {
  if (kwargs.requires_grad !== undefined && takesTensorOptions(name))
    return bindCall(name, args, splitRequiresGrad(name, kwargs)[0]);
  throw new NoOverloadError(`received an invalid combination of arguments:\n${failures.join('\n')}\n`, {
    op: name,
    got: `(${args.length} positional, keywords: ${Object.keys(kwargs).join(', ') || 'none'})`,
    expected: 'one of the schemas above',
  });
}

const SCALARISH = new Set(['Scalar', 'int', 'SymInt', 'float', 'bool']);
/** Per overload list (the table's own array, which grows in place): its length when judged, and the verdict. */
const competing = new WeakMap<readonly OperatorEntry[], { readonly n: number; readonly c: boolean }>();

/**
 * Whether some argument position is a Tensor in one overload and a Scalar / number in another (masked_fill.Tensor
 * vs .Scalar, max.other vs max.dim, scatter.src vs scatter.value): only then can the exact pass pick differently
 * from the lenient one. Cached per overload list; add.Tensor / add.out do not compete, so `add(t, 1)` binds in one
 * pass.
 */
function typesCompete(overloads: readonly OperatorEntry[]): boolean {
  const hit = competing.get(overloads);
  if (hit && hit.n === overloads.length) return hit.c;
  const kinds = new Map<number, Set<string>>();
  for (const op of overloads)
    op.schema.args.forEach((a, i) => {
      const k = a.type.isList
        ? 'list'
        : a.type.base === 'Tensor'
          ? 'Tensor'
          : SCALARISH.has(a.type.base)
            ? 'scalar'
            : 'other';
      kinds.set(i, (kinds.get(i) ?? new Set()).add(k));
    });
  const c = [...kinds.values()].some((k) => k.has('Tensor') && k.has('scalar'));
  competing.set(overloads, { n: overloads.length, c });
  return c;
}

/** `callOp` is public: a name that is no string, args that are no array or kwargs that are no object are typed. */
function badCall(name: unknown, args: unknown, kwargs: unknown): never {
  if (typeof name !== 'string')
    throw new UnknownOpError('the op name must be a string', {
      arg: 'name',
      got: typeof name,
      expected: 'an op name from the operator table',
    });
  if (!Array.isArray(args))
    throw new InvalidArgumentError('positional arguments must be an array', {
      op: name,
      arg: 'args',
      got: args === null ? 'null' : typeof args,
      expected: 'an array',
    });
  throw new InvalidArgumentError('keyword arguments must be an object', {
    op: name,
    arg: 'kwargs',
    got: kwargs === null ? 'null' : typeof kwargs,
    expected: 'an object',
  });
}

/** Calls any op by its PyTorch name with PyTorch's Python calling convention. */
export function callOp(
  name: string,
  args: readonly unknown[] = [],
  kwargs: Readonly<Record<string, unknown>> = {},
): unknown {
  const [op, bound] = bindCall(name, args, kwargs);
  return op.tensorOptions ? callFactory(op, bound, name, kwargs) : callEntry(op, bound);
}

/**
 * A factory's call (python_options.ts): its layout and pin_memory checked, its requires_grad, which binding left
 * out, set on the result. Only factories pay for it.
 */
function callFactory(
  op: OperatorEntry,
  bound: BoundArgs,
  name: string,
  kwargs: Readonly<Record<string, unknown>>,
): unknown {
  checkTensorOptions(op, bound);
  const out = callEntry(op, bound);
  return kwargs.requires_grad === undefined
    ? out
    : applyRequiresGrad(out, splitRequiresGrad(name, kwargs)[1], name);
}
