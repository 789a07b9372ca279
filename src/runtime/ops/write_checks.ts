/**
 * The checks every written tensor passes before a kernel writes it (in-place self, out=): one device for all
 * tensor arguments, no internal overlap, no partial overlap with an input, a result dtype it can hold.
 */
import {
  canCast,
  DeviceMismatchError,
  type DeviceType,
  DTYPE_INFO,
  type DType,
  InternalOverlapError,
  isNonOverlappingAndDense,
  ResultTypeError,
  sameShape,
  Tensor,
} from '../core/index.ts';
import type { BoundArgs, OperatorEntry } from '../dispatch/index.ts';

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

/** Checks every tensor argument except the written-to ones (`skip`) against `out`. */
export function assertInputsDontOverlap(
  op: OperatorEntry,
  args: BoundArgs,
  out: Tensor,
  skip: string | readonly string[],
): void {
  for (const a of op.schema.args) {
    if (typeof skip === 'string' ? a.name === skip : skip.includes(a.name)) continue;
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
