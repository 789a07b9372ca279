/**
 * The torch-like function API: `add(a, b, {alpha: 2})`. A trailing plain object is the keyword arguments
 * (Python's calling convention); everything goes through `callOp`, so functions, methods and outside
 * harnesses reach exactly the same overloads.
 */
import { Scalar, Tensor } from '../core/index.ts';
import { callOp } from '../dispatch/index.ts';

export type Kwargs = Record<string, unknown>;
export type OpArg = unknown;

export function isKwargs(x: unknown): x is Kwargs {
  if (x === null || typeof x !== 'object' || Array.isArray(x) || x instanceof Tensor || x instanceof Scalar)
    return false;
  const proto = Object.getPrototypeOf(x);
  return proto === Object.prototype || proto === null;
}

export function splitKwargs(args: readonly unknown[]): [unknown[], Kwargs] {
  if (args.length > 0 && isKwargs(args[args.length - 1]))
    return [args.slice(0, -1), args[args.length - 1] as Kwargs];
  return [[...args], {}];
}

export function invoke(name: string, args: readonly unknown[]): unknown {
  const [pos, kw] = splitKwargs(args);
  return callOp(name, pos, kw);
}

/** A function `name(...args)` returning one tensor. */
export const fn1 =
  (name: string) =>
  (...args: OpArg[]): Tensor =>
    invoke(name, args) as Tensor;

/** A function returning several tensors (split, max with dim, sort, ...). */
export const fnN =
  (name: string) =>
  (...args: OpArg[]): Tensor[] =>
    invoke(name, args) as Tensor[];
