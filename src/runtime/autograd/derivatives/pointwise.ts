/**
 * Derivatives of pointwise ops (derivatives.yaml rows). Binary gradients are summed back to each input's shape
 * (broadcasting); formulas use runtime ops only, so they are differentiable again (gradgrad).
 */
import { Scalar, type Tensor } from '../../core/index.ts';
import type { Derivative, GradContext } from '../derivative.ts';
import { add, div, mul, neg, op, sub, sumToSize, zerosLike } from '../grad_helpers.ts';

const t = (ctx: GradContext, name: string) => ctx.args[name] as Tensor;
const zero: Derivative = { saves: [], formula: (c) => [zerosLike(c.grad)] };
const unary = (saves: string[], f: (c: GradContext) => Tensor): Derivative => ({
  saves,
  formula: (c) => [f(c)],
});
const LN2 = Math.LN2;
const LN10 = Math.LN10;

/** Gradients for (self, other) summed to their shapes. */
const binary = (saves: string[], f: (c: GradContext) => [Tensor | null, Tensor | null]): Derivative => ({
  saves,
  formula: (c) => {
    const [gs, go] = f(c);
    return [gs && sumToSize(gs, c.shapes.self), go && c.shapes.other ? sumToSize(go, c.shapes.other) : null];
  },
});

/** alpha: a Scalar, or a 0-dim tensor bound to the Scalar parameter (kept a tensor, so meta works too). */
const alpha = (c: GradContext): number | Tensor =>
  c.args.alpha instanceof Scalar ? c.args.alpha.toNumber() : (c.args.alpha as Tensor);

export const POINTWISE_DERIVATIVES: Record<string, Derivative> = {
  abs: unary(['self'], (c) => mul(c.grad, op('sign', t(c, 'self')))),
  neg: unary([], (c) => neg(c.grad)),
  exp: unary(['result'], (c) => mul(c.grad, c.result)),
  exp2: unary(['result'], (c) => mul(c.grad, mul(c.result, LN2))),
  expm1: unary(['result'], (c) => mul(c.grad, add(c.result, 1))),
  log: unary(['self'], (c) => div(c.grad, t(c, 'self'))),
  log2: unary(['self'], (c) => div(c.grad, mul(t(c, 'self'), LN2))),
  log10: unary(['self'], (c) => div(c.grad, mul(t(c, 'self'), LN10))),
  log1p: unary(['self'], (c) => div(c.grad, add(t(c, 'self'), 1))),
  sqrt: unary(['result'], (c) => div(c.grad, mul(c.result, 2))),
  rsqrt: unary(['result'], (c) => mul(c.grad, mul(op('pow', c.result, 3), -0.5))),
  sin: unary(['self'], (c) => mul(c.grad, op('cos', t(c, 'self')))),
  cos: unary(['self'], (c) => mul(c.grad, neg(op('sin', t(c, 'self'))))),
  tan: unary(['result'], (c) => mul(c.grad, add(op('square', c.result), 1))),
  asin: unary(['self'], (c) => div(c.grad, op('sqrt', sub(1, op('square', t(c, 'self')))))),
  acos: unary(['self'], (c) => neg(div(c.grad, op('sqrt', sub(1, op('square', t(c, 'self'))))))),
  atan: unary(['self'], (c) => div(c.grad, add(op('square', t(c, 'self')), 1))),
  sinh: unary(['self'], (c) => mul(c.grad, op('cosh', t(c, 'self')))),
  cosh: unary(['self'], (c) => mul(c.grad, op('sinh', t(c, 'self')))),
  tanh: unary(['result'], (c) => mul(c.grad, sub(1, op('square', c.result)))),
  sigmoid: unary(['result'], (c) => mul(c.grad, mul(c.result, sub(1, c.result)))),
  erf: unary(['self'], (c) =>
    mul(c.grad, mul(op('exp', neg(op('square', t(c, 'self')))), 2 / Math.sqrt(Math.PI))),
  ),
  silu: unary(['self'], (c) => {
    const s = op('sigmoid', t(c, 'self'));
    return mul(c.grad, mul(s, add(mul(t(c, 'self'), sub(1, s)), 1)));
  }),
  relu: { name: 'ReluBackward0', saves: ['result'], formula: (c) => [mul(c.grad, op('gt', c.result, 0))] },
  floor: zero,
  ceil: zero,
  trunc: zero,
  round: zero,
  sign: zero,
  frac: unary([], (c) => c.grad),
  reciprocal: unary(['result'], (c) => neg(mul(c.grad, op('square', c.result)))),
  square: { name: 'PowBackward0', saves: ['self'], formula: (c) => [mul(c.grad, mul(t(c, 'self'), 2))] },

  add: binary([], (c) => [c.grad, alpha(c) === 1 ? c.grad : mul(c.grad, alpha(c))]),
  sub: binary([], (c) => {
    const a = alpha(c);
    return [c.grad, mul(c.grad, typeof a === 'number' ? -a : neg(a))];
  }),
  mul: binary(['self', 'other'], (c) => [mul(c.grad, t(c, 'other')), mul(c.grad, t(c, 'self'))]),
  div: binary(['self', 'other'], (c) => {
    // Rounding divisions are piecewise constant: zero gradient, as in PyTorch.
    if (c.args.rounding_mode) return [zerosLike(c.grad), zerosLike(c.grad)];
    const other = t(c, 'other');
    return [div(c.grad, other), neg(div(mul(c.grad, t(c, 'self')), op('square', other)))];
  }),
  remainder: binary(['self', 'other'], (c) => [
    c.grad,
    neg(mul(c.grad, op('floor', div(t(c, 'self'), t(c, 'other'))))),
  ]),
  fmod: binary(['self', 'other'], (c) => [
    c.grad,
    neg(mul(c.grad, op('trunc', div(t(c, 'self'), t(c, 'other'))))),
  ]),
  pow: {
    name: 'PowBackward1',
    saves: ['self', 'exponent', 'result'],
    formula: (c) => {
      const [self, e] = [t(c, 'self'), t(c, 'exponent')];
      const gs = mul(c.grad, mul(e, op('pow', self, sub(e, 1))));
      // d/de self^e = self^e * log(self), taken as 0 where self == 0 and e >= 0 (PyTorch's masking).
      const ge = mul(
        c.grad,
        op('where', op('logical_and', op('eq', self, 0), op('ge', e, 0)), 0, mul(c.result, op('log', self))),
      );
      return [sumToSize(gs, c.shapes.self), c.shapes.exponent ? sumToSize(ge, c.shapes.exponent) : null];
    },
  },
  maximum: binary(['self', 'other'], (c) => minMax(c, 'gt')),
  minimum: binary(['self', 'other'], (c) => minMax(c, 'lt')),
  atan2: binary(['self', 'other'], (c) => {
    const [y, x] = [t(c, 'self'), t(c, 'other')];
    const r2 = add(op('square', y), op('square', x));
    return [mul(c.grad, div(x, r2)), mul(c.grad, neg(div(y, r2)))];
  }),
  hypot: binary(['self', 'other', 'result'], (c) => [
    mul(c.grad, div(t(c, 'self'), c.result)),
    mul(c.grad, div(t(c, 'other'), c.result)),
  ]),
  copysign: binary(['self', 'result'], (c) => {
    const self = t(c, 'self');
    return [op('where', op('eq', self, 0), 0, mul(c.grad, div(c.result, self))), zerosLike(c.grad)];
  }),
  where: {
    name: 'WhereBackward0',
    saves: ['condition'],
    formula: (c) => {
      const cond = t(c, 'condition');
      const gs = op('where', cond, c.grad, 0);
      const go = op('where', cond, 0, c.grad);
      return [
        null,
        c.shapes.self ? sumToSize(gs, c.shapes.self) : null,
        c.shapes.other ? sumToSize(go, c.shapes.other) : null,
      ];
    },
  },
};

/** maximum/minimum: the gradient goes to the winner, split evenly on ties (derivatives.yaml). */
function minMax(c: GradContext, wins: 'gt' | 'lt'): [Tensor, Tensor] {
  const [a, b] = [t(c, 'self'), t(c, 'other')];
  const tie = op('eq', a, b);
  const half = mul(c.grad, 0.5);
  const ga = op('where', tie, half, op('where', op(wins, a, b), c.grad, 0));
  const gb = op('where', tie, half, op('where', op(wins, b, a), c.grad, 0));
  return [ga, gb];
}
