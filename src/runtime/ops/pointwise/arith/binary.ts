/**
 * Binary arithmetic rows (add, sub, mul, div, remainder, fmod, maximum, minimum, copysign) with their derivatives;
 * the scalar functions and argument checks are in scalar_math.ts.
 */

import { arg, binaryGrad, type GradContext, gradOps } from '../../../autograd/index.ts';
import { Scalar, type Tensor } from '../../../core/index.ts';
import type { PointwiseRow } from '../row.ts';
import {
  cdiv,
  checkAlpha,
  checkSubBool,
  cmul,
  floorDivBig,
  floorDivFloat,
  floorDivNum,
  fmaxNaN,
  fminNaN,
  remainderFloat,
  SUB_TWO_BOOLS,
  truncDivBig,
  zeroDiv,
} from './scalar_math.ts';
import { checkIntegerDivisor } from './zero_divisor.ts';

const { div, mul, neg, op, zerosLike } = gradOps;
/**
 * A binary formula's gradients, annotated: the rows' `as const` types feed Tensor's method names, so a formula
 * whose result type tsc had to infer from Tensor's members would be a circular type.
 */
type Grads = [Tensor | null, Tensor | null];

const ADD = {
  name: 'add',
  // alpha = 1 exactly as a + b (no fused multiply-add), so the sum is correctly rounded like cpu's.
  wgsl: 'select(a + s0 * b, a + b, s0 == 1)',
  simd: { op: 'add', scalars: [1] },
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
  simd: { op: 'sub', scalars: [1] },
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
const DIV_TRUE: PointwiseRow = {
  name: 'div',
  wgsl: { f32: 'a / b' },
  simd: { op: 'div' },
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

export const ARITH_BINARY_ROWS = [
  {
    ...ADD,
    select: (args) => checkAlpha(args, ADD),
    derivative: binaryGrad([], (c): Grads => [c.grad, alpha(c) === 1 ? c.grad : mul(c.grad, alpha(c))]),
  },
  {
    ...SUB,
    select: (args) => checkAlpha(args, checkSubBool(args, SUB)),
    derivative: binaryGrad([], (c): Grads => {
      const a = alpha(c);
      return [c.grad, mul(c.grad, typeof a === 'number' ? -a : neg(a))];
    }),
  },
  {
    name: 'mul',
    wgsl: 'a * b',
    simd: { op: 'mul' },
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
