/** Special functions: sigmoid (special.expit), erf (special.erf). */
import { gradOps, unaryGrad } from '../../../autograd/index.ts';
import type { PointwiseRow } from '../row.ts';
import { floatOp, self } from '../row_helpers.ts';
import { erf } from '../unary_math.ts';

const { mul, neg, op, sub } = gradOps;

export const SPECIAL_ROWS = [
  floatOp(
    'sigmoid',
    (x) => 1 / (1 + Math.exp(-x)),
    unaryGrad(['result'], (c) => mul(c.grad, mul(c.result, sub(1, c.result)))),
    { aliases: ['special.expit'], wgsl: '1.0 / (1.0 + exp(-a))' },
  ),
  floatOp(
    'erf',
    erf,
    unaryGrad(['self'], (c) =>
      mul(c.grad, mul(op('exp', neg(op('square', self(c)))), 2 / Math.sqrt(Math.PI))),
    ),
    { aliases: ['special.erf'], wgsl: 'erf_f(a)' },
  ),
] as const satisfies readonly PointwiseRow[];
