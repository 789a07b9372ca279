/**
 * Integer division's ZeroDivisionError, raised before the kernel writes anything. The rows' scalar functions
 * raise only when they meet the zero, after the elements before it were stored: `a.remainder_(b)` would leave
 * `a` half-updated (and an out= tensor half-written). One pass over the divisor is much cheaper than
 * computing into a temporary and copying.
 */

import { forEachLine } from '../../../backends/cpu/index.ts';
import {
  DTYPE_INFO,
  type DType,
  integralRange,
  type Tensor,
  ZeroDivisionError,
} from '../../../core/index.ts';

export const zeroDivisionError = (op: string) =>
  new ZeroDivisionError('integer division by zero', {
    op,
    arg: 'other',
    got: 0,
    expected: 'a nonzero divisor',
  });

/** Whether every value of `from` is one of `to` (the cast cannot turn a nonzero value into 0). */
function within(from: DType, to: DType): boolean {
  const [lo, hi] = integralRange(from);
  const [tlo, thi] = integralRange(to);
  return lo >= tlo && hi <= thi;
}

/**
 * A row's `precheck`: raises if the divisor (the second input), cast to the integral compute dtype, holds a
 * zero. Float compute divides by zero without raising. Only a 0-dim divisor (a wrapped Python int, or a 0-dim
 * tensor losing to a dimensioned one in promotion) can be wider than the compute dtype; its value wraps on the
 * cast (256 is 0 as uint8), so it is tested on its low bits.
 */
export function checkIntegerDivisor(inputs: readonly Tensor[], compute: DType, op: string): void {
  const kind = DTYPE_INFO[compute].kind;
  if (kind !== 'int' && kind !== 'bool') return;
  const d = inputs[1];
  if (d.numel === 0) return;
  const data = d.storage.data!;
  if (!within(d.dtype, compute)) {
    const mask = (1n << BigInt(DTYPE_INFO[compute].itemsize * 8)) - 1n;
    lines(d, (i, n, step) => {
      for (let k = 0; k < n; k++, i += step) if ((BigInt(data[i]) & mask) === 0n) throw zeroDivisionError(op);
    });
    return;
  }
  lines(d, (i, n, step) => {
    // A zero of any integer array is `0` or `0n`: `==` matches both without a branch on the array type.
    // biome-ignore lint/suspicious/noDoubleEquals: 0 == 0n is the point
    for (let k = 0; k < n; k++, i += step) if (data[i] == 0) throw zeroDivisionError(op);
  });
}

/** Calls `line(start, n, step)` for every line of `t` along its last dim (storage indices). */
function lines(t: Tensor, line: (start: number, n: number, step: number) => void): void {
  const shape = t.ndim === 0 ? [1] : t.shape;
  const strides = t.ndim === 0 ? [1] : t.strides;
  const last = shape.length - 1;
  forEachLine(shape, last, [strides], [t.storageOffset], (offs) => line(offs[0], shape[last], strides[last]));
}
