/**
 * Typed runtime errors. Every error carries a stable `code` and names the op, the argument, what it got and
 * what was expected, so harnesses can match on `code` and humans can read the message.
 */
export type ErrorCode =
  | 'E_SHAPE_MISMATCH'
  | 'E_DIM_OUT_OF_RANGE'
  | 'E_DTYPE_UNSUPPORTED'
  | 'E_NOT_IMPLEMENTED'
  | 'E_INVALID_VIEW'
  | 'E_INPLACE_BROADCAST'
  | 'E_INPLACE_VERSION'
  | 'E_GRAPH_FREED'
  | 'E_AUTOGRAD'
  | 'E_ZERO_DIVISION'
  | 'E_RESULT_TYPE'
  | 'E_INVALID_ARGUMENT'
  | 'E_INDEX_OUT_OF_RANGE'
  | 'E_NO_OVERLOAD'
  | 'E_UNKNOWN_OP'
  | 'E_DEVICE_MISMATCH'
  | 'E_SCHEMA_PARSE'
  | 'E_INTERNAL_OVERLAP'
  | 'E_NO_ADAPTER'
  | 'E_SYNC_READBACK'
  | 'E_OUT_OF_MEMORY'
  | 'E_DUPLICATE_OP'
  | 'E_RESERVED_NAMESPACE'
  | 'E_SCHEMA_MISMATCH'
  | 'E_DUPLICATE_DEVICE'
  | 'E_RESERVED_DEVICE';

export interface ErrorDetails {
  op?: string;
  arg?: string;
  got?: unknown;
  expected?: unknown;
}

function show(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'bigint') return `${v}`;
  if (Array.isArray(v)) return `[${v.map(show).join(', ')}]`;
  return String(v);
}

function format(code: ErrorCode, summary: string, details: ErrorDetails): string {
  const parts = [details.op ? `${details.op}: ${summary}` : summary];
  if (details.arg !== undefined) parts.push(`argument '${details.arg}'`);
  if (details.got !== undefined) parts.push(`got ${show(details.got)}`);
  if (details.expected !== undefined) parts.push(`expected ${show(details.expected)}`);
  return `${parts.join('; ')} [${code}]`;
}

export class OpgateError extends Error {
  readonly code: ErrorCode;
  readonly op: string | undefined;
  readonly arg: string | undefined;
  readonly got: unknown;
  readonly expected: unknown;
  private readonly summary: string;

  constructor(code: ErrorCode, summary: string, details: ErrorDetails = {}) {
    super(format(code, summary, details));
    this.name = new.target.name;
    this.code = code;
    this.summary = summary;
    this.op = details.op;
    this.arg = details.arg;
    this.got = details.got;
    this.expected = details.expected;
  }

  /**
   * Names the op of an error raised where the op is not known (a core backstop: a tensor's layout, an
   * allocation); the dispatcher calls this as the error leaves the innermost op, so the check costs nothing
   * on the normal path.
   */
  attributeTo(op: string): this {
    if (this.op !== undefined) return this;
    (this as { op: string | undefined }).op = op;
    this.message = format(this.code, this.summary, this);
    return this;
  }
}

export class ShapeMismatchError extends OpgateError {
  constructor(summary: string, d: ErrorDetails = {}) {
    super('E_SHAPE_MISMATCH', summary, d);
  }
}
export class DimOutOfRangeError extends OpgateError {
  constructor(summary: string, d: ErrorDetails = {}) {
    super('E_DIM_OUT_OF_RANGE', summary, d);
  }
}
export class DTypeUnsupportedError extends OpgateError {
  constructor(summary: string, d: ErrorDetails = {}) {
    super('E_DTYPE_UNSUPPORTED', summary, d);
  }
}
export class NotImplementedError extends OpgateError {
  constructor(summary: string, d: ErrorDetails = {}) {
    super('E_NOT_IMPLEMENTED', summary, d);
  }
}
export class InvalidViewError extends OpgateError {
  constructor(summary: string, d: ErrorDetails = {}) {
    super('E_INVALID_VIEW', summary, d);
  }
}
export class InplaceBroadcastError extends OpgateError {
  constructor(summary: string, d: ErrorDetails = {}) {
    super('E_INPLACE_BROADCAST', summary, d);
  }
}
export class ZeroDivisionError extends OpgateError {
  constructor(summary: string, d: ErrorDetails = {}) {
    super('E_ZERO_DIVISION', summary, d);
  }
}
export class ResultTypeError extends OpgateError {
  constructor(summary: string, d: ErrorDetails = {}) {
    super('E_RESULT_TYPE', summary, d);
  }
}
export class InvalidArgumentError extends OpgateError {
  constructor(summary: string, d: ErrorDetails = {}) {
    super('E_INVALID_ARGUMENT', summary, d);
  }
}
export class IndexOutOfRangeError extends OpgateError {
  constructor(summary: string, d: ErrorDetails = {}) {
    super('E_INDEX_OUT_OF_RANGE', summary, d);
  }
}
export class NoOverloadError extends OpgateError {
  constructor(summary: string, d: ErrorDetails = {}) {
    super('E_NO_OVERLOAD', summary, d);
  }
}
export class UnknownOpError extends OpgateError {
  constructor(summary: string, d: ErrorDetails = {}) {
    super('E_UNKNOWN_OP', summary, d);
  }
}
export class DeviceMismatchError extends OpgateError {
  constructor(summary: string, d: ErrorDetails = {}) {
    super('E_DEVICE_MISMATCH', summary, d);
  }
}
export class SchemaParseError extends OpgateError {
  constructor(summary: string, d: ErrorDetails = {}) {
    super('E_SCHEMA_PARSE', summary, d);
  }
}
export class InternalOverlapError extends OpgateError {
  constructor(summary: string, d: ErrorDetails = {}) {
    super('E_INTERNAL_OVERLAP', summary, d);
  }
}
export class InplaceVersionError extends OpgateError {
  constructor(summary: string, d: ErrorDetails = {}) {
    super('E_INPLACE_VERSION', summary, d);
  }
}
/** Backward through a graph whose saved tensors were freed (backward twice without retainGraph). */
export class GraphFreedError extends OpgateError {
  constructor(summary: string, d: ErrorDetails = {}) {
    super('E_GRAPH_FREED', summary, d);
  }
}
/** Misuse of autograd: in-place on a leaf that requires grad, grad of a non-scalar without a gradient, ... */
export class AutogradError extends OpgateError {
  constructor(summary: string, d: ErrorDetails = {}) {
    super('E_AUTOGRAD', summary, d);
  }
}

/** The webgpu device was used without an adapter (none on this machine, or `initWebGPU()` not awaited). */
export class NoAdapterError extends OpgateError {
  constructor(summary: string, details?: ErrorDetails) {
    super('E_NO_ADAPTER', summary, details);
  }
}

/** Data on an async device was read synchronously; `await t.toArray()` / `await t.cpuAsync()` read it back. */
export class SyncReadbackError extends OpgateError {
  constructor(summary: string, details?: ErrorDetails) {
    super('E_SYNC_READBACK', summary, details);
  }
}

/**
 * A tensor (or a list of outputs) too large to build: more bytes than the allocation limit (core/limits.ts), which
 * is at most what an ArrayBuffer can hold. Raised before anything is allocated.
 */
export class OutOfMemoryError extends OpgateError {
  constructor(summary: string, details?: ErrorDetails) {
    super('E_OUT_OF_MEMORY', summary, details);
  }
}

/** A custom op defined twice, or a second kernel for the same op and device (library.define / impl). */
export class DuplicateOpError extends OpgateError {
  constructor(summary: string, details?: ErrorDetails) {
    super('E_DUPLICATE_OP', summary, details);
  }
}

/** A custom op in a namespace the runtime owns (aten, prim, ...): it would shadow a built-in op. */
export class ReservedNamespaceError extends OpgateError {
  constructor(summary: string, details?: ErrorDetails) {
    super('E_RESERVED_NAMESPACE', summary, details);
  }
}

/** A custom op's kernel returned what its schema does not declare (a number for a Tensor, two outputs for one). */
export class SchemaMismatchError extends OpgateError {
  constructor(summary: string, details?: ErrorDetails) {
    super('E_SCHEMA_MISMATCH', summary, details);
  }
}

/** A second registerDevice: the runtime has one PrivateUse1 slot, as PyTorch has. */
export class DuplicateDeviceError extends OpgateError {
  constructor(summary: string, details?: ErrorDetails) {
    super('E_DUPLICATE_DEVICE', summary, details);
  }
}

/** registerDevice with a built-in device's name (cpu, meta, webgpu) or one PyTorch reserves (cuda, mps, ...). */
export class ReservedDeviceError extends OpgateError {
  constructor(summary: string, details?: ErrorDetails) {
    super('E_RESERVED_DEVICE', summary, details);
  }
}

/**
 * The dispatcher found no kernel for an op on a backend key (E_NOT_IMPLEMENTED): `kernelOp` is the op, `key` the
 * dispatch key's name, `device` the device it stands for. The cross-backend oracle reports a registered device's
 * missing kernel as unsupported, not failed.
 */
export class MissingKernelError extends NotImplementedError {
  readonly kernelOp: string;
  readonly key: string;
  readonly device: string;
  constructor(
    summary: string,
    details: ErrorDetails,
    where: { readonly kernelOp: string; readonly key: string; readonly device: string },
  ) {
    super(summary, details);
    this.kernelOp = where.kernelOp;
    this.key = where.key;
    this.device = where.device;
  }
}
