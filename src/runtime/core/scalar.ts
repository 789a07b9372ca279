/**
 * Python scalars. JS cannot tell Python's `2` from `2.0`, so the runtime has explicit wrappers:
 * `int(2)`, `float(2)`, `bool(true)`, `complex(1, 2)`. Bare JS values map as follows (documented default):
 * a `number` that is an integer is a Python int, any other `number` is a Python float; a `bigint` is an int;
 * a `boolean` is a bool.
 */
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

  toBigInt(): bigint {
    if (typeof this.value === 'bigint') return this.value;
    if (typeof this.value === 'boolean') return this.value ? 1n : 0n;
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
  if (typeof v === 'number' && !Number.isInteger(v)) throw new TypeError(`int() needs an integer, got ${v}`);
  return new Scalar('int', BigInt(v));
}
export const float = (v: number): Scalar => new Scalar('float', v);
export const bool = (v: boolean): Scalar => new Scalar('bool', v);
export const complex = (re: number, im = 0): Scalar => new Scalar('complex', re, im);

export type ScalarLike = Scalar | number | bigint | boolean;

export function isScalarLike(x: unknown): x is ScalarLike {
  return x instanceof Scalar || typeof x === 'number' || typeof x === 'bigint' || typeof x === 'boolean';
}

/** Applies the documented default for bare JS values. */
export function toScalar(x: ScalarLike): Scalar {
  if (x instanceof Scalar) return x;
  if (typeof x === 'boolean') return bool(x);
  if (typeof x === 'bigint') return new Scalar('int', x);
  return Number.isInteger(x) ? new Scalar('int', BigInt(x)) : float(x);
}
