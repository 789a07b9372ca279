/** relu, silu and softplus: unary rows like the pointwise ones, reached from Python as nn.functional.X. */
import { arg, type GradContext, gradOps, unaryGrad } from '../../../autograd/index.ts';
import { Scalar } from '../../../core/index.ts';
import { floatOp, type PointwiseRow } from '../../pointwise/index.ts';

const { add, mul, op, sub } = gradOps;
const self = (c: GradContext) => arg(c, 'self');
/** A Scalar argument as a number (a 0-dim tensor bound to it stays a tensor, so meta inputs work too). */
const scalarArg = (c: GradContext, name: string): unknown =>
  c.args[name] instanceof Scalar ? (c.args[name] as Scalar).toNumber() : c.args[name];

export const RECTIFIER_ROWS = [
  {
    // Floating inputs only: PyTorch 1.13 raises "silu_cpu" not implemented for 'Long' (no int-to-float promotion).
    ...floatOp(
      'silu',
      (x) => x / (1 + Math.exp(-x)),
      unaryGrad(['self'], (c) => {
        const s = op('sigmoid', self(c));
        return mul(c.grad, mul(s, add(mul(self(c), sub(1, s)), 1)));
      }),
      { aliases: ['nn.functional.silu'], wgsl: 'a / (1.0 + exp(-a))' },
    ),
    promotion: 'default',
    kinds: ['float'],
  },
  {
    name: 'relu',
    arity: 1,
    promotion: 'default',
    // clamp_min(x, 0): -0 stays -0, NaN stays NaN (as PyTorch 1.13).
    // biome-ignore lint/complexity/useMathMinMax: Math.max(-0, 0) is +0
    num: (x: number) => (x < 0 ? 0 : x),
    big: (x: bigint) => (x > 0n ? x : 0n),
    kinds: ['int', 'float'],
    aliases: ['nn.functional.relu'],
    wgsl: { f32: 'select(a, 0.0, a < 0.0)', i32: 'max(a, 0)' },
    derivative: unaryGrad(['result'], (c) => mul(c.grad, op('gt', c.result, 0)), 'ReluBackward0'),
  },
  {
    // aten's softplus: x where beta * x > threshold (log1p(exp(.)) would only round to x there), else
    // log1p(exp(beta * x)) / beta. Python reaches it as nn.functional.softplus: no method, no softplus_.
    name: 'softplus',
    schema: 'softplus(Tensor self, Scalar beta=1, Scalar threshold=20) -> Tensor',
    arity: 1,
    promotion: 'default',
    scalars: ['beta', 'threshold'],
    num: (x: number, beta: number, threshold: number) =>
      x * beta > threshold ? x : Math.log1p(Math.exp(x * beta)) / beta,
    kinds: ['float'], // "softplus_cpu" is not implemented for integers or bool
    variants: 'function',
    inplace: false,
    aliases: ['nn.functional.softplus'],
    wgsl: { f32: 'select(log(1.0 + exp(a * s0)) / s0, a, a * s0 > s1)' },
    // softplus_backward: grad * sigmoid(beta * x), or grad where beta * x > threshold.
    derivative: unaryGrad(['self'], (c) => {
      const bx = mul(self(c), scalarArg(c, 'beta'));
      return mul(c.grad, op('where', op('gt', bx, scalarArg(c, 'threshold')), 1, op('sigmoid', bx)));
    }),
  },
] as const satisfies readonly PointwiseRow[];
