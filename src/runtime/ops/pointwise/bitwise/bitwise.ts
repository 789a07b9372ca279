/** Logical and bitwise rows: logical_not/and/or/xor (bool results, non-differentiable), bitwise_not/and/or/xor. */
import type { PointwiseRow } from '../row.ts';

const BITWISE_OPS: Readonly<Record<string, string>> = { bitwise_and: '&', bitwise_or: '|', bitwise_xor: '^' };

const UNARY = [
  {
    name: 'logical_not',
    arity: 1,
    promotion: 'alwaysBool',
    num: (x: number) => x === 0,
    big: (x: bigint) => x === 0n,
    complex: (re: number, im: number) => re === 0 && im === 0,
    wgsl: { f32: 'a == 0.0 && !is_nan(a)', i32: 'a == 0' },
    derivative: { nondifferentiable: 'logical op: bool result' },
  },
  {
    name: 'bitwise_not',
    arity: 1,
    promotion: 'default',
    num: (x: number) => ~x,
    bool: (x: number) => (x === 0 ? 1 : 0),
    big: (x: bigint) => ~x,
    kinds: ['bool', 'int'],
    wgsl: { i32: '~a', bool: '1 - a' },
    derivative: { nondifferentiable: 'bitwise op: integer/bool domain' },
  },
] as const satisfies readonly PointwiseRow[];

export function logicalRows() {
  const truthy = (x: number) => x !== 0; // NaN is true, ±0 false, like C++ bool()
  const bigTruthy = (x: bigint) => x !== 0n;
  const OPS: Record<string, string> = { logical_and: '&&', logical_or: '||', logical_xor: '!=' };
  const row = <N extends string>(name: N, f: (a: boolean, b: boolean) => boolean) =>
    ({
      name,
      wgsl: {
        f32: `(a != 0.0 || is_nan(a)) ${OPS[name]} (b != 0.0 || is_nan(b))`,
        i32: `(a != 0) ${OPS[name]} (b != 0)`,
      },
      schema: `${name}(Tensor self, Tensor other) -> Tensor`,
      arity: 2,
      promotion: 'alwaysBool',
      num: (a: number, b: number) => f(truthy(a), truthy(b)),
      big: (a: bigint, b: bigint) => f(bigTruthy(a), bigTruthy(b)),
      complex: (ar: number, ai: number, br: number, bi: number) =>
        f(truthy(ar) || truthy(ai), truthy(br) || truthy(bi)),
      derivative: { nondifferentiable: 'logical op: bool result' },
    }) satisfies PointwiseRow;
  return [
    row('logical_and', (a, b) => a && b),
    row('logical_or', (a, b) => a || b),
    row('logical_xor', (a, b) => a !== b),
  ];
}

export function bitwiseRows() {
  const row = <N extends string>(
    name: N,
    num: (a: number, b: number) => number,
    big: (a: bigint, b: bigint) => bigint,
  ) =>
    ({
      name,
      wgsl: { i32: `a ${BITWISE_OPS[name]} b` },
      arity: 2,
      promotion: 'default',
      outOverload: 'Tensor_out',
      num,
      big,
      kinds: ['bool', 'int'],
      derivative: { nondifferentiable: 'bitwise op: integer/bool domain' },
    }) satisfies PointwiseRow;
  return [
    row(
      'bitwise_and',
      (a, b) => a & b,
      (a, b) => a & b,
    ),
    row(
      'bitwise_or',
      (a, b) => a | b,
      (a, b) => a | b,
    ),
    row(
      'bitwise_xor',
      (a, b) => a ^ b,
      (a, b) => a ^ b,
    ),
  ];
}

export const BITWISE_ROWS = [
  ...UNARY,
  ...logicalRows(),
  ...bitwiseRows(),
] as const satisfies readonly PointwiseRow[];
