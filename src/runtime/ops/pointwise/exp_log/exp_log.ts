/** Exponentials, logarithms and roots: exp, exp2, expm1, log, log2, log10, log1p, sqrt, rsqrt. */
import { gradOps, unaryGrad } from '../../../autograd/index.ts';
import type { PointwiseRow } from '../row.ts';
import { floatOp, self } from '../row_helpers.ts';
import { cexp, clog } from '../unary_math.ts';

const { add, div, mul, op } = gradOps;
const LN2 = Math.LN2;
const LN10 = Math.LN10;

export const EXP_LOG_ROWS = [
  floatOp(
    'exp',
    Math.exp,
    unaryGrad(['result'], (c) => mul(c.grad, c.result)),
    { complex: cexp },
  ),
  floatOp(
    'exp2',
    (x) => 2 ** x,
    unaryGrad(['result'], (c) => mul(c.grad, mul(c.result, LN2))),
  ),
  floatOp(
    'expm1',
    Math.expm1,
    unaryGrad(['result'], (c) => mul(c.grad, add(c.result, 1))),
    { wgsl: 'select(exp(a) - 1.0, a + 0.5 * a * a, abs(a) < 1e-4)' },
  ),
  floatOp(
    'log',
    Math.log,
    unaryGrad(['self'], (c) => div(c.grad, self(c))),
    { complex: clog },
  ),
  floatOp(
    'log2',
    Math.log2,
    unaryGrad(['self'], (c) => div(c.grad, mul(self(c), LN2))),
  ),
  floatOp(
    'log10',
    Math.log10,
    unaryGrad(['self'], (c) => div(c.grad, mul(self(c), LN10))),
    { wgsl: 'log2(a) * 0.30102999566398120' },
  ),
  floatOp(
    'log1p',
    Math.log1p,
    unaryGrad(['self'], (c) => div(c.grad, add(self(c), 1))),
    { wgsl: 'select(log(1.0 + a), a - 0.5 * a * a, abs(a) < 1e-4)' },
  ),
  floatOp(
    'sqrt',
    Math.sqrt,
    unaryGrad(['result'], (c) => div(c.grad, mul(c.result, 2))),
    {
      simd: { op: 'sqrt' },
      complex: (re, im) => {
        const m = Math.hypot(re, im);
        const r = Math.sqrt((m + re) / 2);
        const i = Math.sqrt((m - re) / 2);
        return [r, im < 0 || (im === 0 && Object.is(im, -0)) ? -i : i];
      },
    },
  ),
  floatOp(
    'rsqrt',
    (x) => 1 / Math.sqrt(x),
    unaryGrad(['result'], (c) => mul(c.grad, mul(op('pow', c.result, 3), -0.5))),
    { wgsl: '1.0 / sqrt(a)' },
  ),
] as const satisfies readonly PointwiseRow[];
