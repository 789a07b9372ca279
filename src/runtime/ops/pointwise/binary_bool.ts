/** The bool-valued and bitwise binary rows: comparisons, logical ops (non-differentiable), bitwise ops. */
import type { PointwiseRow } from './row.ts';

const BITWISE_OPS: Readonly<Record<string, string>> = { bitwise_and: '&', bitwise_or: '|', bitwise_xor: '^' };

export function comparisonRows() {
  const OPS: Record<string, string> = { eq: '==', ne: '!=', lt: '<', le: '<=', gt: '>', ge: '>=' };
  const row = <N extends string>(
    name: N,
    num: (a: number, b: number) => boolean,
    complex?: (ar: number, ai: number, br: number, bi: number) => boolean,
  ) =>
    ({
      name,
      // NaN compares false (ne: true) — said explicitly, as GLSL backends may not.
      wgsl: {
        f32:
          name === 'ne' ? 'a != b || is_nan(a) || is_nan(b)' : `a ${OPS[name]} b && !is_nan(a) && !is_nan(b)`,
        i32: `a ${OPS[name]} b`,
      },
      arity: 2,
      promotion: 'alwaysBool',
      outOverload: 'Tensor_out',
      num,
      big: num as unknown as (a: bigint, b: bigint) => boolean,
      complex,
      derivative: { nondifferentiable: 'comparison: bool result' },
    }) satisfies PointwiseRow;
  return [
    row(
      'eq',
      (a, b) => a === b,
      (ar, ai, br, bi) => ar === br && ai === bi,
    ),
    row(
      'ne',
      (a, b) => a !== b,
      (ar, ai, br, bi) => ar !== br || ai !== bi,
    ),
    row('lt', (a, b) => a < b),
    row('le', (a, b) => a <= b),
    row('gt', (a, b) => a > b),
    row('ge', (a, b) => a >= b),
  ];
}

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
