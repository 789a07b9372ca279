/** Binary pointwise rows (add, sub, mul, div, comparisons, logical, bitwise, ...). */

import { arg, binaryGrad, type GradContext, gradOps } from '../../autograd/index.ts';
import {
  DTYPE_INFO,
  DTypeUnsupportedError,
  InvalidArgumentError,
  promotionOperand,
  resultType,
  Scalar,
  type Tensor,
  ZeroDivisionError,
} from '../../core/index.ts';
import type { PointwiseRow } from './row.ts';
import { checkIntegerDivisor } from './zero_divisor.ts';

const { div, mul, neg, op, sumToSize, zerosLike } = gradOps;
/**
 * A binary formula's gradients, annotated: the rows' `as const` types feed Tensor's method names, so a formula
 * whose result type tsc had to infer from Tensor's members would be a circular type.
 */
type Grads = [Tensor | null, Tensor | null];

const zeroDiv = (op: string) =>
  new ZeroDivisionError('integer division by zero', {
    op,
    arg: 'other',
    got: 0,
    expected: 'a nonzero divisor',
  });

/** Python's floor division on exact integers. */
function floorDivNum(a: number, b: number): number {
  if (b === 0) throw zeroDiv('div');
  return Math.floor(a / b);
}
function floorDivBig(a: bigint, b: bigint): bigint {
  if (b === 0n) throw zeroDiv('div');
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}
function truncDivBig(a: bigint, b: bigint): bigint {
  if (b === 0n) throw zeroDiv('div');
  return a / b;
}
/** Python remainder: the result has the sign of the divisor. */
function remainderFloat(a: number, b: number): number {
  const r = a % b;
  return r !== 0 && r < 0 !== b < 0 ? r + b : r;
}
/**
 * Python's floor division on floats (c10's div_floor_floating): computed from fmod so that 1.0 // 0.1 is 9.0,
 * not Math.floor(1.0 / 0.1) = 10; a zero divisor gives the IEEE quotient.
 */
function floorDivFloat(a: number, b: number): number {
  if (b === 0) return a / b;
  const mod = a % b;
  let div = (a - mod) / b;
  if (mod !== 0 && b < 0 !== mod < 0) div -= 1;
  if (div === 0) return Math.sign(a / b) < 0 || Object.is(a / b, -0) ? -0 : 0;
  let floordiv = Math.floor(div);
  if (div - floordiv > 0.5) floordiv += 1;
  return floordiv;
}
/** Integer pow with a negative exponent: 1 and -1 stay exact, anything else truncates to 0 (like c10 powi). */
function intPowNum(a: number, b: number): number {
  if (b < 0) {
    if (a === 1) return 1;
    if (a === -1) return b % 2 === 0 ? 1 : -1;
    return 0;
  }
  let r = 1;
  let base = a;
  let e = b;
  while (e > 0) {
    if (e & 1) r = Math.imul(r, base);
    base = Math.imul(base, base);
    e = Math.floor(e / 2);
  }
  return r;
}
function intPowBig(a: bigint, b: bigint): bigint {
  if (b < 0n) {
    if (a === 1n) return 1n;
    if (a === -1n) return b % 2n === 0n ? 1n : -1n;
    return 0n;
  }
  let r = 1n;
  let base = a;
  let e = b;
  while (e > 0n) {
    if (e & 1n) r = BigInt.asIntN(64, r * base);
    base = BigInt.asIntN(64, base * base);
    e >>= 1n;
  }
  return r;
}
function cmul(ar: number, ai: number, br: number, bi: number): [number, number] {
  return [ar * br - ai * bi, ar * bi + ai * br];
}
/**
 * PyTorch 1.13's c10::complex division: the textbook formula over c^2 + d^2 (so x / 0 is nan+nanj, not inf;
 * later PyTorch versions switched to Smith's algorithm).
 */
function cdiv(ar: number, ai: number, br: number, bi: number): [number, number] {
  const den = br * br + bi * bi;
  return [(ar * br + ai * bi) / den, (ai * br - ar * bi) / den];
}
/**
 * Float maximum/minimum propagate NaN; for ±0 they keep the comparison's choice (`a > b ? a : b`, as ATen's
 * kernel does) rather than Math.max's +0 preference.
 */
const fmaxNaN = (a: number, b: number) =>
  // biome-ignore lint/complexity/useMathMinMax: Math.max differs on ±0
  Number.isNaN(a) || Number.isNaN(b) ? Number.NaN : a > b ? a : b;
const fminNaN = (a: number, b: number) =>
  // biome-ignore lint/complexity/useMathMinMax: Math.min differs on ±0
  Number.isNaN(a) || Number.isNaN(b) ? Number.NaN : a < b ? a : b;

/** aten's alpha_check: alpha must not be a float for integral results, complex for real ones, bool for non-bool. */
function checkAlpha(args: Readonly<Record<string, unknown>>, row: PointwiseRow): PointwiseRow {
  const alpha = args.alpha;
  if (!(alpha instanceof Scalar)) return row;
  const dtype = resultType([promotionOperand(args.self as Tensor), promotionOperand(args.other as Tensor)]);
  const kind = DTYPE_INFO[dtype].kind;
  const fail = (why: string, expected: string) =>
    new InvalidArgumentError(why, { op: row.name, arg: 'alpha', got: `${alpha.kind} ${alpha}`, expected });
  if (alpha.kind === 'bool' && dtype !== 'bool')
    throw fail('Boolean alpha only supported for Boolean results.', 'an int or float alpha');
  if (alpha.kind === 'float' && (kind === 'int' || kind === 'bool')) {
    throw fail(
      'For integral input tensors, argument alpha must not be a floating point number.',
      'an integer alpha',
    );
  }
  if (alpha.kind === 'complex' && kind !== 'complex') {
    throw fail('For non-complex input tensors, argument alpha must not be a complex number.', 'a real alpha');
  }
  return row;
}
/** aten's sub_check: subtraction refuses any bool operand (a Python bool included), not just a bool result. */
function checkSubBool(args: Readonly<Record<string, unknown>>): PointwiseRow {
  const a = (args.self as Tensor).dtype === 'bool';
  const b = (args.other as Tensor).dtype === 'bool';
  if (a || b) {
    const why =
      a && b
        ? SUB_TWO_BOOLS
        : 'Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.';
    throw new DTypeUnsupportedError(why, {
      op: 'sub',
      arg: a ? 'self' : 'other',
      got: 'bool',
      expected: 'a non-bool tensor',
    });
  }
  return SUB;
}
const SUB_TWO_BOOLS =
  'Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.';
const ADD = {
  name: 'add',
  // alpha = 1 exactly as a + b (no fused multiply-add), so the sum is correctly rounded like cpu's.
  wgsl: 'select(a + s0 * b, a + b, s0 == 1)',
  schema: 'add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor',
  arity: 2,
  promotion: 'default',
  scalars: ['alpha'],
  num: (a: number, b: number, alpha: number) => (alpha === 1 ? a + b : a + alpha * b),
  int: (a: number, b: number, alpha: number) => a + Math.imul(alpha, b),
  big: (a: bigint, b: bigint, alpha: bigint) => a + alpha * b,
  complex: (ar: number, ai: number, br: number, bi: number, xr: number, xi: number) => {
    const [sr, si] = cmul(br, bi, xr, xi);
    return [ar + sr, ai + si];
  },
} as const satisfies PointwiseRow;
const SUB = {
  name: 'sub',
  wgsl: 'select(a - s0 * b, a - b, s0 == 1)',
  schema: 'sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor',
  arity: 2,
  promotion: 'default',
  scalars: ['alpha'],
  refuse: { bool: SUB_TWO_BOOLS },
  num: (a: number, b: number, alpha: number) => (alpha === 1 ? a - b : a - alpha * b),
  int: (a: number, b: number, alpha: number) => a - Math.imul(alpha, b),
  big: (a: bigint, b: bigint, alpha: bigint) => a - alpha * b,
  complex: (ar: number, ai: number, br: number, bi: number, xr: number, xi: number) => {
    const [sr, si] = cmul(br, bi, xr, xi);
    return [ar - sr, ai - si];
  },
} as const satisfies PointwiseRow;
const POW = {
  name: 'pow',
  wgsl: { f32: 'fpow(a, b)', i32: 'ipow(a, b)', nan: 'own' },
  schema: 'pow.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor',
  inplaceOverload: 'Tensor',
  outOverload: 'Tensor_Tensor_out',
  arity: 2,
  promotion: 'default',
  // C pow, as ATen: 1 ** NaN and NaN ** 0 are 1, (-1) ** ±inf is 1 (JS's ** gives NaN for these).
  num: (a: number, b: number) =>
    b === 0 || a === 1 || (a === -1 && (b === Number.POSITIVE_INFINITY || b === Number.NEGATIVE_INFINITY))
      ? 1
      : a ** b,
  int: intPowNum,
  big: intPowBig,
  complex: (ar: number, ai: number, br: number, bi: number) => {
    if (ar === 0 && ai === 0) return br === 0 && bi === 0 ? [1, 0] : [0, 0];
    const logr = Math.log(Math.hypot(ar, ai));
    const th = Math.atan2(ai, ar);
    const mag = Math.exp(br * logr - bi * th);
    const ang = bi * logr + br * th;
    return [mag * Math.cos(ang), mag * Math.sin(ang)];
  },
  kinds: ['int', 'float', 'complex'],
} as const satisfies PointwiseRow;
const DIV_TRUE: PointwiseRow = {
  name: 'div',
  wgsl: { f32: 'a / b' },
  arity: 2,
  promotion: 'intToFloat',
  num: (a: number, b: number) => a / b,
  complex: cdiv,
};
const DIV_TRUNC: PointwiseRow = {
  name: 'div_trunc',
  wgsl: { f32: 'trunc(a / b)', i32: 'a / b' },
  arity: 2,
  promotion: 'default',
  num: (a: number, b: number) => Math.trunc(a / b),
  precheck: checkIntegerDivisor,
  int: (a: number, b: number) => {
    if (b === 0) throw zeroDiv('div');
    return Math.trunc(a / b);
  },
  big: truncDivBig,
  kinds: ['int', 'float'], // "div_trunc_cpu" is not implemented for Bool
};
const DIV_FLOOR: PointwiseRow = {
  name: 'div_floor',
  wgsl: { f32: 'fdiv_floor(a, b)', i32: 'ifloordiv(a, b)' },
  arity: 2,
  promotion: 'default',
  num: floorDivFloat,
  precheck: checkIntegerDivisor,
  int: floorDivNum,
  big: floorDivBig,
  kinds: ['int', 'float'], // "div_floor_cpu" is not implemented for Bool
};

const BITWISE_OPS: Readonly<Record<string, string>> = { bitwise_and: '&', bitwise_or: '|', bitwise_xor: '^' };

export const BINARY_ROWS = [
  {
    ...ADD,
    select: (args) => checkAlpha(args, ADD),
    derivative: binaryGrad([], (c): Grads => [c.grad, alpha(c) === 1 ? c.grad : mul(c.grad, alpha(c))]),
  },
  {
    ...SUB,
    select: (args) => checkAlpha(args, checkSubBool(args)),
    derivative: binaryGrad([], (c): Grads => {
      const a = alpha(c);
      return [c.grad, mul(c.grad, typeof a === 'number' ? -a : neg(a))];
    }),
  },
  {
    name: 'mul',
    wgsl: 'a * b',
    arity: 2,
    promotion: 'default',
    num: (a: number, b: number) => a * b,
    // Math.imul keeps int8..int32 products exact modulo 2^32 (a * b would round above 2^53).
    int: Math.imul,
    big: (a: bigint, b: bigint) => a * b,
    complex: cmul,
    derivative: binaryGrad(
      ['self', 'other'],
      (c): Grads => [mul(c.grad, arg(c, 'other')), mul(c.grad, arg(c, 'self'))],
    ),
  },
  {
    name: 'div',
    wgsl: { f32: 'a / b' },
    schema: 'div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode=None) -> Tensor',
    outOverload: 'out_mode',
    arity: 2,
    promotion: 'intToFloat',
    num: (a: number, b: number) => a / b,
    complex: cdiv,
    select: (args): PointwiseRow =>
      args.rounding_mode === 'trunc' ? DIV_TRUNC : args.rounding_mode === 'floor' ? DIV_FLOOR : DIV_TRUE,
    derivative: binaryGrad(['self', 'other'], (c): Grads => {
      // Rounding divisions are piecewise constant: zero gradient, as in PyTorch.
      if (c.args.rounding_mode) return [zerosLike(c.grad), zerosLike(c.grad)];
      const other = arg(c, 'other');
      return [div(c.grad, other), neg(div(mul(c.grad, arg(c, 'self')), op('square', other)))];
    }),
  },
  {
    name: 'remainder',
    wgsl: { f32: 'rem_f(a, b)', i32: 'imod_py(a, b)', nan: 'own' },
    outOverload: 'Tensor_out',
    arity: 2,
    promotion: 'default',
    num: remainderFloat,
    precheck: checkIntegerDivisor,
    int: (a: number, b: number) => {
      if (b === 0) throw zeroDiv('remainder');
      return remainderFloat(a, b);
    },
    big: (a: bigint, b: bigint) => {
      if (b === 0n) throw zeroDiv('remainder');
      const r = a % b;
      return r !== 0n && r < 0n !== b < 0n ? r + b : r;
    },
    kinds: ['int', 'float'],
    derivative: binaryGrad(
      ['self', 'other'],
      (c): Grads => [c.grad, neg(mul(c.grad, op('floor', div(arg(c, 'self'), arg(c, 'other')))))],
    ),
  },
  {
    name: 'fmod',
    wgsl: { f32: 'fmod_f(a, b)', i32: 'select(a % b, 0, b == 0)', nan: 'own' },
    outOverload: 'Tensor_out',
    arity: 2,
    promotion: 'default',
    num: (a: number, b: number) => a % b,
    precheck: checkIntegerDivisor,
    int: (a: number, b: number) => {
      if (b === 0) throw zeroDiv('fmod');
      return a % b;
    },
    big: (a: bigint, b: bigint) => {
      if (b === 0n) throw zeroDiv('fmod');
      return a % b;
    },
    kinds: ['int', 'float'],
    derivative: binaryGrad(
      ['self', 'other'],
      (c): Grads => [c.grad, neg(mul(c.grad, op('trunc', div(arg(c, 'self'), arg(c, 'other')))))],
    ),
  },
  {
    ...POW,
    select: (args): PointwiseRow => {
      // pow.Tensor_Scalar refuses a negative Python int exponent for an integral base; tensor exponents don't.
      const self = args.self as Tensor;
      const e = args.exponent as Tensor;
      const exp =
        e.isWrappedNumber && e.dtype === 'int64' ? (e.storage.data as BigInt64Array)[e.storageOffset] : 0n;
      if (exp < 0n && (self.dtype === 'bool' || DTYPE_INFO[self.dtype].kind === 'int')) {
        throw new ZeroDivisionError('Integers to negative integer powers are not allowed.', {
          op: 'pow',
          arg: 'exponent',
          got: exp,
          expected: 'a non-negative integer exponent for an integral base',
        });
      }
      return POW;
    },
    derivative: {
      name: 'PowBackward1',
      saves: ['self', 'exponent', 'result'],
      formula: (c): Grads => {
        const [self, e] = [arg(c, 'self'), arg(c, 'exponent')];
        const gs = mul(c.grad, mul(e, op('pow', self, op('sub', e, 1))));
        // d/de self^e = self^e * log(self), taken as 0 where self == 0 and e >= 0 (PyTorch's masking).
        const ge = mul(
          c.grad,
          op(
            'where',
            op('logical_and', op('eq', self, 0), op('ge', e, 0)),
            0,
            mul(c.result, op('log', self)),
          ),
        );
        return [sumToSize(gs, c.shapes.self), c.shapes.exponent ? sumToSize(ge, c.shapes.exponent) : null];
      },
    },
  },
  {
    name: 'maximum',
    wgsl: { f32: 'nan_max(a, b)', i32: 'max(a, b)' },
    schema: 'maximum(Tensor self, Tensor other) -> Tensor',
    arity: 2,
    inplace: false,
    promotion: 'default',
    num: fmaxNaN,
    big: (a: bigint, b: bigint) => (a > b ? a : b),
    kinds: ['bool', 'int', 'float'],
    derivative: binaryGrad(['self', 'other'], (c): Grads => minMax(c, 'gt')),
  },
  {
    name: 'minimum',
    wgsl: { f32: 'nan_min(a, b)', i32: 'min(a, b)' },
    schema: 'minimum(Tensor self, Tensor other) -> Tensor',
    arity: 2,
    inplace: false,
    promotion: 'default',
    num: fminNaN,
    big: (a: bigint, b: bigint) => (a < b ? a : b),
    kinds: ['bool', 'int', 'float'],
    derivative: binaryGrad(['self', 'other'], (c): Grads => minMax(c, 'lt')),
  },
  {
    name: 'atan2',
    wgsl: { f32: 'atan2_f(a, b)', nan: 'own' },
    schema: 'atan2(Tensor self, Tensor other) -> Tensor',
    arity: 2,
    promotion: 'intToFloat',
    num: Math.atan2,
    kinds: ['float'],
    derivative: binaryGrad(['self', 'other'], (c): Grads => {
      const [y, x] = [arg(c, 'self'), arg(c, 'other')];
      const r2 = op('add', op('square', y), op('square', x));
      return [mul(c.grad, div(x, r2)), mul(c.grad, neg(div(y, r2)))];
    }),
  },
  {
    name: 'hypot',
    wgsl: { f32: 'hypot_f(a, b)', nan: 'own' },
    schema: 'hypot(Tensor self, Tensor other) -> Tensor',
    arity: 2,
    promotion: 'default',
    num: Math.hypot,
    kinds: ['float'],
    derivative: binaryGrad(
      ['self', 'other', 'result'],
      (c): Grads => [mul(c.grad, div(arg(c, 'self'), c.result)), mul(c.grad, div(arg(c, 'other'), c.result))],
    ),
  },
  {
    name: 'copysign',
    wgsl: { f32: 'copysign_f(a, b)', nan: 'own' },
    arity: 2,
    promotion: 'intToFloat',
    num: (a: number, b: number) => (b < 0 || Object.is(b, -0) ? -Math.abs(a) : Math.abs(a)),
    kinds: ['float'],
    derivative: binaryGrad(['self', 'result'], (c): Grads => {
      const self = arg(c, 'self');
      return [op('where', op('eq', self, 0), 0, mul(c.grad, div(c.result, self))), zerosLike(c.grad)];
    }),
  },
  ...comparisonRows(),
  ...logicalRows(),
  ...bitwiseRows(),
] as const satisfies readonly PointwiseRow[];

/** alpha: a Scalar, or a 0-dim tensor bound to the Scalar parameter (kept a tensor, so meta works too). */
const alpha = (c: GradContext): number | Tensor =>
  c.args.alpha instanceof Scalar ? c.args.alpha.toNumber() : (c.args.alpha as Tensor);

/** maximum/minimum: the gradient goes to the winner, split evenly on ties (derivatives.yaml). */
function minMax(c: GradContext, wins: 'gt' | 'lt'): [Tensor, Tensor] {
  const [a, b] = [arg(c, 'self'), arg(c, 'other')];
  const tie = op('eq', a, b);
  const half = mul(c.grad, 0.5);
  const ga = op('where', tie, half, op('where', op(wins, a, b), c.grad, 0));
  const gb = op('where', tie, half, op('where', op(wins, b, a), c.grad, 0));
  return [ga, gb];
}

function comparisonRows() {
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

function logicalRows() {
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

function bitwiseRows() {
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
