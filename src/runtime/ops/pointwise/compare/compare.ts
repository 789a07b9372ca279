/** Comparison rows (eq, ne, lt, le, gt, ge) and the float predicates isnan, isinf, isfinite: bool results. */
import type { NonDifferentiable } from '../../../autograd/index.ts';
import type { PointwiseRow } from '../row.ts';

const predicate: NonDifferentiable = { nondifferentiable: 'predicate: bool result' };

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

export const COMPARE_ROWS = [
  ...comparisonRows(),
  {
    name: 'isnan',
    arity: 1,
    promotion: 'alwaysBool',
    num: Number.isNaN,
    big: () => false,
    complex: (re: number, im: number) => Number.isNaN(re) || Number.isNaN(im),
    inplace: false,
    out: false,
    wgsl: { f32: 'is_nan(a)', i32: 'false' },
    derivative: predicate,
  },
  {
    name: 'isinf',
    arity: 1,
    promotion: 'alwaysBool',
    num: (x: number) => x === Number.POSITIVE_INFINITY || x === Number.NEGATIVE_INFINITY,
    big: () => false,
    inplace: false,
    out: false,
    kinds: ['bool', 'int', 'float'],
    wgsl: { f32: 'is_inf(a)', i32: 'false' },
    derivative: predicate,
  },
  {
    name: 'isfinite',
    arity: 1,
    promotion: 'alwaysBool',
    num: Number.isFinite,
    big: () => true,
    complex: (re: number, im: number) => Number.isFinite(re) && Number.isFinite(im),
    inplace: false,
    out: false,
    wgsl: { f32: '!is_nan(a) && !is_inf(a)', i32: 'true' },
    derivative: predicate,
  },
] as const satisfies readonly PointwiseRow[];
