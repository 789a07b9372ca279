/**
 * Binds a Python-style call (positional args + a keyword object) to one schema, converting values the way
 * PyTorch's python_arg_parser does: numbers passed for Tensor arguments become wrapped-number tensors, bare
 * numbers become Scalars (see core/scalar.ts for the int/float default), `int[1]` accepts a single int.
 */
import {
  DTYPE_INFO,
  Generator,
  isDType,
  isScalarLike,
  Scalar,
  scalarToTensor,
  Tensor,
  toScalar,
} from '../core/index.ts';
import type { ArgType, Argument, Schema } from './schema_types.ts';

export type BoundArgs = Record<string, unknown>;

/** Why a value does not fit an argument; binding collects these to explain E_NO_OVERLOAD. */
export class BindFailure {
  constructor(readonly reason: string) {}
}

function describe(v: unknown): string {
  if (v instanceof Tensor) return `Tensor(${v.dtype}, [${v.shape.join(', ')}])`;
  if (v instanceof Scalar) return `${v.kind}`;
  if (Array.isArray(v)) return `list of [${v.map(describe).join(', ')}]`;
  if (v === null || v === undefined) return 'None';
  return typeof v === 'number' ? (Number.isInteger(v) ? 'int' : 'float') : typeof v;
}

/**
 * An int argument: a safe integer number, a bigint / int Scalar in that range, or a 0-dim integral tensor with
 * data (Python's __index__). JS numbers are exact only to 2^53 - 1, so larger ints (PyTorch takes int64) and
 * NaN / Infinity / fractions fail to bind rather than reach a shape computation.
 */
function toInt(v: unknown): number | BindFailure {
  if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
  let big: bigint | null = null;
  if (typeof v === 'bigint') big = v;
  else if (v instanceof Scalar && v.kind === 'int') big = v.toBigInt();
  else if (v instanceof Tensor && v.ndim === 0 && !v.isWrappedNumber && v.storage.data) {
    const d = v.storage.data[v.storageOffset];
    if (DTYPE_INFO[v.dtype].kind === 'int') big = typeof d === 'bigint' ? d : BigInt(d as number);
  }
  if (big !== null && big <= MAX_SAFE && big >= -MAX_SAFE) return Number(big);
  return new BindFailure(
    `expected int, got ${describe(v)}${big !== null || typeof v === 'number' ? ` ${String(v)}` : ''}`,
  );
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Ops whose Tensor arguments (after the first) take a Python number, as a wrapped-number tensor. PyTorch's
 * python_arg_parser allows it for a fixed list (should_allow_numbers_as_tensors: add, sub, mul, div and their
 * aliases, true_divide, floor_divide, to, _to_copy, copy_), and every op with a Scalar overload for that argument
 * binds a number there (eq.Scalar, pow.Tensor_Scalar, where.ScalarOther, ...; this list is those of PyTorch
 * 1.13's schemas). Any other op refuses a number where its schema says Tensor: `atan2(x, 2.0)` is a TypeError in
 * PyTorch, and E_NO_OVERLOAD here.
 */
const NUMBERS_AS_TENSORS = new Set([
  ...['add', 'sub', 'subtract', 'mul', 'multiply', 'div', 'divide', 'true_divide', 'floor_divide', 'rsub'],
  ...['to', '_to_copy', 'copy', 'fill', 'masked_fill', 'index_fill', 'where', 'lerp', 'searchsorted'],
  ...['eq', 'ne', 'not_equal', 'lt', 'less', 'le', 'less_equal', 'gt', 'greater', 'ge', 'greater_equal'],
  ...['remainder', 'fmod', 'pow', 'float_power', 'copysign', 'xlogy', 'special_xlogy', 'special_xlog1py'],
  ...['bitwise_and', 'bitwise_or', 'bitwise_xor', 'bitwise_left_shift', 'bitwise_right_shift'],
  ...['__and__', '__or__', '__xor__', '__lshift__', '__rshift__', '__iand__', '__ior__', '__ixor__'],
  ...['clamp', 'clamp_min', 'clamp_max', 'clip', 'special_zeta', 'result_type', '_add_relu'],
]);

/** Whether `op` (an aten name, in-place `_` included) takes a Python number for a non-first Tensor argument. */
export function takesNumbersAsTensors(op: string): boolean {
  return NUMBERS_AS_TENSORS.has(op) || (op.endsWith('_') && NUMBERS_AS_TENSORS.has(op.slice(0, -1)));
}

function convertOne(
  _arg: Argument,
  t: ArgType,
  v: unknown,
  isFirst: boolean,
  op: string,
  exact: boolean,
): unknown {
  switch (t.base) {
    case 'Tensor':
      if (v instanceof Tensor) return v;
      if (!exact && !isFirst && isScalarLike(v) && takesNumbersAsTensors(op))
        return scalarToTensor(toScalar(v));
      return new BindFailure(`expected Tensor, got ${describe(v)}`);
    case 'Scalar':
      if (isScalarLike(v)) return toScalar(v);
      // python_arg_parser: a 0-dim tensor is a Scalar only if it does not require grad (else its gradient
      // would be lost); such a call binds to a Tensor overload instead.
      if (!exact && v instanceof Tensor && v.ndim === 0 && !v.requiresGrad) return v;
      return new BindFailure(`expected Scalar, got ${describe(v)}`);
    case 'int':
    case 'SymInt':
      // A 0-dim integral tensor is an int through __index__, but not in the exact pass: torch.max(x, tensor(1))
      // binds max.other, not max.dim.
      if (exact && v instanceof Tensor) return new BindFailure(`expected int, got ${describe(v)}`);
      return toInt(v);
    case 'float':
      if (typeof v === 'number') return v;
      if (typeof v === 'bigint') return Number(v);
      if (v instanceof Scalar && v.kind !== 'complex') return v.toNumber();
      return new BindFailure(`expected float, got ${describe(v)}`);
    case 'bool':
      return typeof v === 'boolean' ? v : new BindFailure(`expected bool, got ${describe(v)}`);
    case 'ScalarType':
      return isDType(v) ? v : new BindFailure(`expected a dtype, got ${describe(v)}`);
    case 'str':
    case 'Device':
    case 'Layout':
    case 'MemoryFormat':
    case 'Dimname':
      return typeof v === 'string' ? v : new BindFailure(`expected ${t.base}, got ${describe(v)}`);
    case 'complex':
      if (typeof v === 'number') return toScalar(v);
      if (v instanceof Scalar && v.kind !== 'bool') return v;
      return new BindFailure(`expected complex, got ${describe(v)}`);
    case 'Generator':
      return v instanceof Generator ? v : new BindFailure(`expected Generator, got ${describe(v)}`);
    default:
      // Storage, Stream, containers, type variables: passed through untouched.
      return v;
  }
}

function convert(arg: Argument, v: unknown, isFirst: boolean, op: string, exact: boolean): unknown {
  const t = arg.type;
  if (v === null || v === undefined) {
    if (t.optional) return null;
    return new BindFailure(`argument '${arg.name}' must not be None`);
  }
  if (!t.isList) return convertOne(arg, t, v, isFirst, op, exact);
  if (!Array.isArray(v)) {
    if (t.listSize !== null && (t.base === 'int' || t.base === 'SymInt')) {
      const i = toInt(v);
      return i instanceof BindFailure ? i : new Array(t.listSize).fill(i);
    }
    // A Python-only `float[2]` (F.fractional_max_pool2d's output_ratio, `_pair`ed in Python) takes one float too.
    if (t.listSize !== null && t.base === 'float') {
      const f = convertOne(arg, { ...t, isList: false }, v, false, op, exact);
      return f instanceof BindFailure ? f : new Array(t.listSize).fill(f);
    }
    return new BindFailure(`expected a list of ${t.base}, got ${describe(v)}`);
  }
  const out: unknown[] = [];
  for (const x of v) {
    if ((x === null || x === undefined) && t.elementOptional) {
      out.push(null);
      continue;
    }
    const c = convertOne(arg, { ...t, isList: false }, x, false, op, exact);
    if (c instanceof BindFailure) return c;
    if (t.base === 'Tensor' && !(x instanceof Tensor))
      return new BindFailure(`expected Tensor in list, got ${describe(x)}`);
    out.push(c);
  }
  return out;
}

/**
 * Returns the bound arguments, or a BindFailure explaining the mismatch. `exact`: a Tensor argument takes only a
 * Tensor and a Scalar only a number (no wrapped numbers, no 0-dim tensors as Scalars), the first pass of overload
 * resolution (see bindCall).
 */
export function bindArgs(
  schema: Schema,
  rawArgs: readonly unknown[],
  kwargs: Readonly<Record<string, unknown>>,
  exact = false,
): BoundArgs | BindFailure {
  const { positional, posOf, varargs } = layoutOf(schema);
  const args = packVarargs(positional, rawArgs, varargs);
  if (args.length > positional.length) {
    return new BindFailure(`takes ${positional.length} positional arguments but ${args.length} were given`);
  }
  for (const k of Object.keys(kwargs)) {
    if (kwargs[k] === undefined) continue;
    const a = schema.args.find((x) => x.name === k);
    if (!a) return new BindFailure(`unexpected keyword argument '${k}'`);
  }
  const bound: BoundArgs = {};
  for (let i = 0; i < schema.args.length; i++) {
    const a = schema.args[i];
    const pos = posOf[i];
    let v: unknown;
    let given = false;
    if (pos >= 0 && pos < args.length) {
      if (kwargs[a.name] !== undefined)
        return new BindFailure(`got multiple values for argument '${a.name}'`);
      v = args[pos];
      given = true;
    } else if (kwargs[a.name] !== undefined) {
      v = kwargs[a.name];
      given = true;
    }
    if (!given) {
      if (!a.hasDefault) return new BindFailure(`missing required argument '${a.name}'`);
      bound[a.name] = defaultFor(a);
      continue;
    }
    const c = convert(a, v, i === 0, schema.name, exact);
    if (c instanceof BindFailure) return new BindFailure(`argument '${a.name}': ${c.reason}`);
    bound[a.name] = c;
  }
  return bound;
}

/**
 * The arguments a call passes explicitly (positionally or by keyword), in schema order, for a call that binds to
 * `schema`: what schema coverage counts as exercised (a default the binder filled in is not).
 */
export function givenArgNames(
  schema: Schema,
  rawArgs: readonly unknown[],
  kwargs: Readonly<Record<string, unknown>>,
): string[] {
  const { positional, posOf, varargs } = layoutOf(schema);
  const args = packVarargs(positional, rawArgs, varargs);
  return schema.args
    .filter((a, i) => (posOf[i] >= 0 && posOf[i] < args.length) || kwargs[a.name] !== undefined)
    .map((a) => a.name);
}

interface ArgLayout {
  readonly positional: readonly Argument[];
  /** Each argument's position among the positional ones, -1 for keyword-only. */
  readonly posOf: readonly number[];
  /** The positional int-list argument trailing ints may fill (-1: none). */
  readonly varargs: number;
}

/** A schema's argument layout, computed once per schema (binding runs on every eager call). */
const LAYOUTS = new WeakMap<Schema, ArgLayout>();
function layoutOf(schema: Schema): ArgLayout {
  let l = LAYOUTS.get(schema);
  if (!l) {
    const positional = schema.args.filter((a) => !a.kwargOnly);
    l = {
      positional,
      posOf: schema.args.map((a) => (a.kwargOnly ? -1 : positional.indexOf(a))),
      varargs: positional.findIndex(
        (a) =>
          a.type.isList && a.type.listSize === null && (a.type.base === 'int' || a.type.base === 'SymInt'),
      ),
    };
    LAYOUTS.set(schema, l);
  }
  return l;
}

/** Python's `t.view(2, 3)` / `zeros(2, 3)`: trailing ints fill an int-list argument (IntArrayRef varargs). */
function packVarargs(
  positional: readonly Argument[],
  args: readonly unknown[],
  i: number,
): readonly unknown[] {
  if (
    i < 0 ||
    i >= args.length ||
    i !== positional.length - 1 - positional.slice(i + 1).filter((a) => a.hasDefault).length
  ) {
    if (i < 0 || i >= args.length) return args;
  }
  const rest = args.slice(i);
  if (rest.length < 1 || !rest.every((x) => typeof x === 'number' && Number.isInteger(x))) return args;
  if (rest.length === 1 && positional.length > i + 1) return args;
  return [...args.slice(0, i), rest];
}

/** Scalar defaults by argument: a Scalar is immutable, so one instance serves every call (alpha=1). */
const SCALAR_DEFAULTS = new WeakMap<Argument, Scalar>();

function defaultFor(a: Argument): unknown {
  const d = a.defaultValue;
  if (d === null) return null;
  if (a.type.base === 'Scalar') {
    let s = SCALAR_DEFAULTS.get(a);
    if (s === undefined) {
      s = toScalar(d as number);
      SCALAR_DEFAULTS.set(a, s);
    }
    return s;
  }
  if (a.type.isList && a.type.listSize !== null && typeof d === 'number')
    return new Array(a.type.listSize).fill(d);
  return Array.isArray(d) ? [...d] : d;
}
