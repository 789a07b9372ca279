/** Trigonometric and hyperbolic rows: sin, cos, tan, asin, acos, atan, sinh, cosh, tanh, deg2rad, atan2, hypot. */
import { arg, binaryGrad, gradOps, unaryGrad } from '../../../autograd/index.ts';
import type { Tensor } from '../../../core/index.ts';
import type { PointwiseRow } from '../row.ts';
import { floatOp, self } from '../row_helpers.ts';

const { add, div, mul, neg, op, sub } = gradOps;
const DEG2RAD = Math.PI / 180;
type Grads = [Tensor | null, Tensor | null];

export const TRIG_ROWS = [
  floatOp(
    'sin',
    Math.sin,
    unaryGrad(['self'], (c) => mul(c.grad, op('cos', self(c)))),
    { complex: (re, im) => [Math.sin(re) * Math.cosh(im), Math.cos(re) * Math.sinh(im)] },
  ),
  floatOp(
    'cos',
    Math.cos,
    unaryGrad(['self'], (c) => mul(c.grad, neg(op('sin', self(c))))),
    { complex: (re, im) => [Math.cos(re) * Math.cosh(im), -Math.sin(re) * Math.sinh(im)] },
  ),
  floatOp(
    'tan',
    Math.tan,
    unaryGrad(['result'], (c) => mul(c.grad, add(op('square', c.result), 1))),
  ),
  // Through atan2: llvmpipe's asin/acos builtins are off by ~2e-4.
  floatOp(
    'asin',
    Math.asin,
    unaryGrad(['self'], (c) => div(c.grad, op('sqrt', sub(1, op('square', self(c)))))),
    { aliases: ['arcsin'], wgsl: 'select(atan2(a, sqrt((1.0 - a) * (1.0 + a))), f_nan(), abs(a) > 1.0)' },
  ),
  floatOp(
    'acos',
    Math.acos,
    unaryGrad(['self'], (c) => neg(div(c.grad, op('sqrt', sub(1, op('square', self(c))))))),
    { aliases: ['arccos'], wgsl: 'select(atan2(sqrt((1.0 - a) * (1.0 + a)), a), f_nan(), abs(a) > 1.0)' },
  ),
  floatOp(
    'atan',
    Math.atan,
    unaryGrad(['self'], (c) => div(c.grad, add(op('square', self(c)), 1))),
    { aliases: ['arctan'] },
  ),
  floatOp(
    'sinh',
    Math.sinh,
    unaryGrad(['self'], (c) => mul(c.grad, op('cosh', self(c)))),
  ),
  floatOp(
    'cosh',
    Math.cosh,
    unaryGrad(['self'], (c) => mul(c.grad, op('sinh', self(c)))),
  ),
  floatOp(
    'tanh',
    Math.tanh,
    unaryGrad(['result'], (c) => mul(c.grad, sub(1, op('square', c.result)))),
    { wgsl: 'select(tanh(a), sign(a), abs(a) > 10.0)' },
  ),
  // at::deg2rad: a product with the double M_PI / 180 (ints and bool promote to the default float dtype).
  floatOp(
    'deg2rad',
    (x) => x * DEG2RAD,
    unaryGrad([], (c) => mul(c.grad, DEG2RAD)),
    { wgsl: `a * ${DEG2RAD}` },
  ),
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
] as const satisfies readonly PointwiseRow[];
