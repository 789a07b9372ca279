/**
 * Size limits, checked before anything is allocated so a bad size is a typed error, never a RangeError from a
 * TypedArray constructor or a process killed by the heap limit.
 *
 * - Sizes are integers >= 0 and, as JS numbers are exact only up to 2^53 - 1, a size or numel past that is
 *   refused like PyTorch refuses int64 overflow ("Storage size calculation overflowed"), meta tensors included.
 * - One storage holds at most `maxAllocationBytes()` bytes (default 4 GiB, Node's largest Buffer; V8 refuses
 *   larger typed arrays of small items anyway). Meta tensors have no data and are exempt.
 * - Ops returning a list of views (unbind, split, chunk) build at most MAX_LIST_OUTPUTS of them, and readback
 *   (tolist / toArray) at most maxAllocationBytes() / 64 JS values.
 */
import { InvalidArgumentError, OutOfMemoryError } from './errors.ts';

export const DEFAULT_MAX_ALLOCATION_BYTES = 2 ** 32;
/** A million views is already ~hundreds of MB of JS objects; PyTorch has no such cap (it just runs out). */
export const MAX_LIST_OUTPUTS = 2 ** 20;
/** torch.tensor's limit on the nesting depth of its data (tensor_new.cpp MAX_DIMS). */
export const MAX_TENSOR_DATA_DIMS = 128;

let maxBytes = DEFAULT_MAX_ALLOCATION_BYTES;

export function maxAllocationBytes(): number {
  return maxBytes;
}

/** Sets the most bytes one storage may hold (null restores the default); tests lower it to stay fast. */
export function setMaxAllocationBytes(bytes: number | null): void {
  if (bytes !== null && !(Number.isSafeInteger(bytes) && bytes > 0))
    throw new InvalidArgumentError('the allocation limit must be a positive safe integer (bytes) or null', {
      op: 'setMaxAllocationBytes',
      arg: 'bytes',
      got: bytes,
      expected: `an integer in [1, ${Number.MAX_SAFE_INTEGER}] or null`,
    });
  maxBytes = bytes ?? DEFAULT_MAX_ALLOCATION_BYTES;
}

/**
 * Each size is a finite non-negative integer (-1 too where `allowInfer`, for view/reshape/expand); a NaN, a
 * fraction, an infinity or a negative size is E_INVALID_ARGUMENT naming the op and argument. Sizes too large to
 * count are refused by checkedNumel (or, when they would be allocated, by checkAllocation first).
 */
export function checkSizes(
  size: readonly unknown[],
  op: string | undefined,
  arg = 'size',
  allowInfer = false,
): void {
  for (const s of size) {
    if (typeof s === 'number' && Number.isInteger(s) && (s >= 0 || (allowInfer && s === -1))) continue;
    const negative = typeof s === 'number' && Number.isInteger(s);
    throw new InvalidArgumentError(
      negative
        ? `Trying to create tensor with negative dimension ${s}: [${size.map(String).join(', ')}]`
        : `sizes must be finite non-negative integers, got ${typeof s === 'symbol' ? 'a symbol' : String(s)}`,
      {
        op,
        arg,
        got: size.map((x) => (typeof x === 'symbol' ? 'a symbol' : x)),
        expected: allowInfer ? 'sizes >= 0, or -1 to infer one' : 'sizes >= 0',
      },
    );
  }
}

/** The number of elements of checked `size`, refusing sizes or a count JS numbers cannot hold exactly. */
export function checkedNumel(size: readonly number[], op: string | undefined, arg = 'size'): number {
  let n = 1;
  let big = false;
  for (const s of size) {
    n *= s;
    if (s > Number.MAX_SAFE_INTEGER) big = true;
  }
  if (big || (n > Number.MAX_SAFE_INTEGER && !size.includes(0))) {
    throw new InvalidArgumentError(`Storage size calculation overflowed with sizes=[${size.join(', ')}]`, {
      op,
      arg,
      got: [...size],
      expected: `sizes and an element count of at most ${Number.MAX_SAFE_INTEGER}`,
    });
  }
  return n;
}

/**
 * The checks for a new tensor of `size`: valid sizes, then (when it has data) the allocation limit, so a huge
 * cpu size reads as out of memory like PyTorch's allocator failure, then a countable numel (meta included).
 */
export function checkNewTensor(
  size: readonly number[],
  itemsize: number,
  device: string,
  op: string | undefined,
  arg = 'size',
): number {
  checkSizes(size, op, arg);
  if (device !== 'meta') {
    let n = 1;
    for (const s of size) n *= s;
    checkAllocation(n, itemsize, op, arg);
  }
  return checkedNumel(size, op, arg);
}

/** Refuses an allocation of `numel` elements of `itemsize` bytes past the limit, before it is attempted. */
export function checkAllocation(numel: number, itemsize: number, op: string | undefined, arg = 'size'): void {
  const bytes = numel * itemsize;
  if (bytes <= maxBytes) return;
  throw new OutOfMemoryError(`cannot allocate ${bytes} bytes (${numel} elements of ${itemsize} bytes)`, {
    op,
    arg,
    got: `${bytes} bytes`,
    expected: `at most ${maxBytes} bytes (setMaxAllocationBytes)`,
  });
}

/** Refuses to build more than MAX_LIST_OUTPUTS outputs (unbind / split / chunk of a huge dim). */
export function checkOutputCount(count: number, op: string, arg: string): void {
  if (count <= MAX_LIST_OUTPUTS) return;
  throw new OutOfMemoryError(`${op} would return ${count} tensors`, {
    op,
    arg,
    got: count,
    expected: `at most ${MAX_LIST_OUTPUTS} outputs`,
  });
}

/**
 * Reading a tensor back into JS values (tolist / toArray / item) builds one JS value per element, which costs far
 * more than its bytes in storage: a view of a huge expanded or strided tensor could exhaust the JS heap and kill
 * the process. Refused past 1/64 of the allocation limit in elements (64M elements by default).
 */
export function checkReadback(numel: number, op: string): void {
  const max = Math.floor(maxBytes / 64);
  if (numel <= max) return;
  throw new OutOfMemoryError(`cannot read back ${numel} elements into JS values`, {
    op,
    arg: 'self',
    got: numel,
    expected: `at most ${max} elements (1/64 of setMaxAllocationBytes)`,
  });
}
