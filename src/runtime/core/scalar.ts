/**
 * Python scalars. JS cannot tell Python's `2` from `2.0`, so the runtime has explicit wrappers:
 * `int(2)`, `float(2)`, `bool(true)`, `complex(1, 2)`. Bare JS values map as follows (documented default):
 * a `number` that is an integer within int64 is a Python int, any other `number` (a fraction, NaN, ±Infinity,
 * an integer-valued 1e300) is a Python float; a `bigint` is an int; a `boolean` is a bool.
 */
import { InvalidArgumentError } from './errors.ts';
import type { ScalarKind } from './promotion.ts';

export class Scalar {
  readonly kind: ScalarKind;
  /** For int: a bigint (exact). For bool: 0n/1n is not used; bool holds a boolean. Others: number. */
  readonly value: number | bigint | boolean;
  /** Imaginary part, only meaningful for complex. */
  readonly imag: number;

  constructor(kind: ScalarKind, value: number | bigint | boolean, imag = 0) {
    this.kind = kind;
    this.value = value;
    this.imag = imag;
  }

  /** The real value as a JS number (ints may lose precision beyond 2^53). */
  toNumber(): number {
    if (typeof this.value === 'boolean') return this.value ? 1 : 0;
    return Number(this.value);
  }

  /** The value truncated to an integer; NaN and ±Infinity have none (c10's checked_convert refuses them). */
  toBigInt(): bigint {
    if (typeof this.value === 'bigint') return this.value;
    if (typeof this.value === 'boolean') return this.value ? 1n : 0n;
    if (!Number.isFinite(this.value))
      throw new InvalidArgumentError('value cannot be converted to type int64_t without overflow', {
        arg: 'value',
        got: this.toString(),
        expected: 'a finite value',
      });
    return BigInt(Math.trunc(this.value));
  }

  toString(): string {
    if (this.kind === 'complex') return `(${this.value}${this.imag < 0 ? '-' : '+'}${Math.abs(this.imag)}j)`;
    if (this.kind === 'bool') return this.value ? 'True' : 'False';
    if (this.kind === 'float' && Number.isInteger(this.value)) return `${this.value}.0`;
    return String(this.value);
  }
}

export function int(v: number | bigint): Scalar {
  if (typeof v === 'bigint') return new Scalar('int', v);
  if (typeof v !== 'number' || !Number.isInteger(v))
    throw wrapperError('int', v, 'an integer number or a bigint');
  return new Scalar('int', BigInt(v));
}
export function float(v: number): Scalar {
  if (typeof v !== 'number') throw wrapperError('float', v, 'a number');
  return new Scalar('float', v);
}
export function bool(v: boolean): Scalar {
  if (typeof v !== 'boolean') throw wrapperError('bool', v, 'a boolean');
  return new Scalar('bool', v);
}
export function complex(re: number, im = 0): Scalar {
  if (typeof re !== 'number' || typeof im !== 'number')
    throw wrapperError('complex', [re, im], 'two numbers');
  return new Scalar('complex', re, im);
}

/** The scalar wrappers are public API: a wrong value is a typed error, not a TypeError or a junk Scalar. */
function wrapperError(op: string, got: unknown, expected: string): InvalidArgumentError {
  return new InvalidArgumentError(`${op}() got a value it cannot wrap`, {
    op,
    arg: 'value',
    got: typeof got === 'symbol' ? 'a symbol' : got,
    expected,
  });
}

export type ScalarLike = Scalar | number | bigint | boolean;

export function isScalarLike(x: unknown): x is ScalarLike {
  return x instanceof Scalar || typeof x === 'number' || typeof x === 'bigint' || typeof x === 'boolean';
}

/** Applies the documented default for bare JS values. */
export function toScalar(x: ScalarLike): Scalar {
  if (x instanceof Scalar) return x;
  if (typeof x === 'boolean') return bool(x);
  if (typeof x === 'bigint') return new Scalar('int', x);
  return isIntNumber(x) ? new Scalar('int', BigInt(x)) : float(x);
}

/**
 * Whether a bare number is a Python int: an integer value within int64. A larger integer-valued number (1e300)
 * can only be a float, as Python's literal `1e300` is; a bigint is always an int.
 */
export function isIntNumber(x: number): boolean {
  return Number.isInteger(x) && Math.abs(x) < 2 ** 63;
}
