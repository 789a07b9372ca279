/** OpInfos of nn.functional.silu, relu and softplus (their runtime rows: src/runtime/ops/nn/activation/rectifiers.ts). */
import { FLOATS, REAL_NUMERIC, unaryOpInfo as unary } from '../../../families/pointwise.ts';
import { unarySamples } from '../../../families/unary.ts';
import { elementwise } from '../../../refs/pointwise.ts';
import type { OpInfo } from '../../../types.ts';

/** PyTorch's softplus in float64: the input itself above the threshold, else log(1 + e^(beta x)) / beta. */
const softplusRef = (x: number, beta: number, threshold: number) =>
  beta * x > threshold ? x : Math.log1p(Math.exp(beta * x)) / beta;

export const RECTIFIER_OPINFOS: readonly OpInfo[] = [
  unary('silu', (x) => x / (1 + Math.exp(-x)), { dtypes: FLOATS, name: 'nn.functional.silu' }),
  unary('relu', (x) => (Number.isNaN(x) ? x : Math.max(x, 0)), {
    dtypes: REAL_NUMERIC,
    exact: true,
    name: 'nn.functional.relu',
  }),
  {
    ...unary('softplus', (x) => softplusRef(x, 1, 20), { dtypes: FLOATS, name: 'nn.functional.softplus' }),
    // The defaults, then beta/threshold kwargs: threshold 5 puts beta * x on both sides of the switch.
    sampleInputs: (ctx) => [
      ...unarySamples()(ctx),
      ...unarySamples({ kwargs: { beta: 2, threshold: 5 }, noSpecials: true, low: -4, high: 4 })(ctx).slice(
        0,
        3,
      ),
    ],
    ref: (s) =>
      elementwise(
        [s.input],
        (x) => softplusRef(x, Number(s.kwargs.beta ?? 1), Number(s.kwargs.threshold ?? 20)),
        s.input.dtype,
      ),
  },
];
