/** Unary arithmetic rows: abs, neg, sign, reciprocal, square. */
import { gradOps, unaryGrad, zeroGrad } from '../../../autograd/index.ts';
import type { PointwiseRow } from '../row.ts';
import { self } from '../row_helpers.ts';

const { mul, neg, op } = gradOps;

export const ARITH_UNARY_ROWS = [
  {
    name: 'abs',
    arity: 1,
    promotion: 'complexToFloat',
    num: Math.abs,
    big: (x: bigint) => (x < 0n ? -x : x),
    complex: (re: number, im: number) => Math.hypot(re, im),
    kinds: ['int', 'float', 'complex'],
    wgsl: 'abs(a)',
    simd: { op: 'abs' },
    derivative: unaryGrad(['self'], (c) => mul(c.grad, op('sign', self(c)))),
  },
  {
    name: 'neg',
    arity: 1,
    promotion: 'default',
    num: (x: number) => -x,
    big: (x: bigint) => -x,
    complex: (re: number, im: number) => [-re, -im],
    refuse: {
      bool: 'Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.',
    },
    aliases: ['negative'],
    wgsl: '-a',
    simd: { op: 'neg' },
    derivative: unaryGrad([], (c) => neg(c.grad)),
  },
  {
    name: 'sign',
    arity: 1,
    promotion: 'default',
    // (0 < x) - (x < 0), as in aten: sign(NaN) and sign(-0.0) are +0 (verified with PyTorch 1.13).
    num: (x: number) => (x > 0 ? 1 : 0) - (x < 0 ? 1 : 0),
    big: (x: bigint) => (x > 0n ? 1n : x < 0n ? -1n : 0n),
    kinds: ['bool', 'int', 'float'],
    wgsl: {
      f32: 'select(select(0.0, 1.0, a > 0.0) - select(0.0, 1.0, a < 0.0), 0.0, is_nan(a))',
      i32: 'select(0, 1, a > 0) - select(0, 1, a < 0)',
      nan: 'own',
    },
    derivative: zeroGrad,
  },
  {
    name: 'reciprocal',
    arity: 1,
    promotion: 'intToFloat',
    num: (x: number) => 1 / x,
    complex: (re: number, im: number) => {
      const d = re * re + im * im;
      return [re / d, -im / d];
    },
    wgsl: '1.0 / a',
    derivative: unaryGrad(['result'], (c) => neg(mul(c.grad, op('square', c.result)))),
  },
  {
    name: 'square',
    arity: 1,
    promotion: 'default',
    num: (x: number) => x * x,
    int: (x: number) => Math.imul(x, x),
    big: (x: bigint) => x * x,
    complex: (re: number, im: number) => [re * re - im * im, 2 * re * im],
    refuse: {
      bool: 'square is not supported for bool tensors (PyTorch promotes bool to int64 here); use logical ops instead',
    },
    wgsl: 'a * a',
    derivative: unaryGrad(['self'], (c) => mul(c.grad, mul(self(c), 2)), 'PowBackward0'),
  },
] as const satisfies readonly PointwiseRow[];
