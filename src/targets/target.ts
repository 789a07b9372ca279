/**
 * A foreign JavaScript tensor runtime as a system under test: the few things the oracles need from it (make a
 * tensor from row-major values, read one back, call an op by its op_db name with PyTorch's arguments), behind
 * one interface. The op mapping is data, one row per op_db name, as the OpInfos are; an op with no counterpart is
 * `unmapped` with a reason, never a failure. A target's documented semantics that differ from PyTorch's are
 * declared departures (with a reason), kept apart from the bugs the oracles find.
 */
import type { DType } from '../runtime/index.ts';

/** A tensor's values on the host: row-major, in the storage of its dtype (complex interleaved). */
export interface HostTensor {
  readonly dtype: DType;
  readonly shape: readonly number[];
  readonly data: ArrayLike<number> | ArrayLike<bigint>;
}

/** A call's argument with its tensors made native to the target (T), everything else as PyTorch passes it. */
export type TargetArg<T> = T | number | boolean | string | null | undefined | readonly TargetArg<T>[];

/**
 * A call's arguments bound to the op's schema, as PyTorch's Python binding does (defaults filled in, by name:
 * `self`, `other`, `alpha`, `dim`, `keepdim`, ...), with `overload` the schema's overload name ('' for the default).
 */
export type BoundTargetArgs<T> = Readonly<Record<string, TargetArg<T>>>;

/** How one op_db op runs on a target: a call in the target's own API (`rt` is the loaded runtime module). */
export interface MappedOp<R, T> {
  /** The target's op(s) the row calls, for the report (e.g. 'tf.add'). */
  readonly as: string;
  /**
   * Calls the target. An argument the row does not model (a `dtype=`, an `alpha` other than 1 where the target
   * has none) throws NotExpressible: that sample is not expressible on the target, which is neither agreement
   * nor a departure.
   */
  readonly call: (rt: R, a: BoundTargetArgs<T>, overload: string) => T | readonly T[];
}

/** A call the target's API cannot express (an argument it has no counterpart for): the sample is left out. */
export class NotExpressible extends Error {
  readonly code = 'E_NOT_EXPRESSIBLE';
  constructor(what: string) {
    super(what);
    this.name = 'NotExpressible';
  }
}

/** An op_db op the target has no counterpart for (or one this mapping does not cover yet), with the reason. */
export interface UnmappedOp {
  readonly unmapped: string;
}

export type OpRow<R, T> = MappedOp<R, T> | UnmappedOp;

/**
 * A documented difference between the target and PyTorch: instances it covers are expected to depart (an xfail,
 * whose unexpected pass fails), with the target's own documentation as the reason.
 */
export interface Departure {
  readonly op: string;
  readonly dtypes?: readonly DType[];
  readonly reason: string;
}

/** A runtime under test. R is its loaded module (what rows call), T its tensor type. */
export interface TargetAdapter<R = unknown, T = unknown> {
  /** The target's name on the matrix's device axis: `test_golden_add_<name>_float32_contiguous_eager`. */
  readonly name: string;
  /** The npm packages (pinned) it runs. */
  readonly packages: readonly string[];
  /** The dtypes its tensors hold, in PyTorch's names. */
  readonly dtypes: readonly DType[];
  /** Loads the runtime (its backend, its wasm) and returns the module the rows call. */
  load(): Promise<R>;
  fromHost(rt: R, t: HostTensor): T;
  toHost(rt: R, t: T): Promise<HostTensor>;
  /** Whether a value a call returned is one of its tensors. */
  isTensor(rt: R, x: unknown): x is T;
  /**
   * Makes this target the one its runtime computes with before each call (tfjs-cpu and tfjs-wasm share one tfjs
   * module, whose backend is global).
   */
  activate?(rt: R): Promise<void>;
  /** Frees the tensors made since the last call (tfjs keeps them until disposed). */
  release?(rt: R): void;
}

/** A target: its adapter (glue), its op rows and its declared departures. */
export interface Target<R = unknown, T = unknown> {
  readonly adapter: TargetAdapter<R, T>;
  readonly ops: Readonly<Record<string, OpRow<R, T>>>;
  readonly departures: readonly Departure[];
}

export const isMapped = <R, T>(row: OpRow<R, T> | undefined): row is MappedOp<R, T> =>
  row !== undefined && 'call' in row;

/**
 * A call known to break the target itself (it never returns: a synchronous loop opgate cannot interrupt; or it
 * corrupts the runtime's memory, so later calls hang or lie), raised by the row instead of making the call, naming
 * the bug's repro. It is a departure (PyTorch returns a result), reported as [known-bug].
 */
export class KnownBug extends Error {
  readonly code = 'E_TARGET_KNOWN_BUG';
  constructor(what: string) {
    super(what);
    this.name = 'KnownBug';
  }
}

/** A bad target registration or name: E_DUPLICATE_TARGET, E_UNKNOWN_TARGET. */
export class TargetError extends Error {
  readonly code: 'E_DUPLICATE_TARGET' | 'E_UNKNOWN_TARGET';
  constructor(code: TargetError['code'], message: string) {
    super(message);
    this.name = 'TargetError';
    this.code = code;
  }
}
