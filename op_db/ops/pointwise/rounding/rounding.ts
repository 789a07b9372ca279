/** OpInfos of rounding: floor, ceil, trunc, round (with decimals), frac. */
import { DTYPE_INFO, type DType, tensor } from '../../../../src/runtime/index.ts';
import { FLOATS, REAL_NUMERIC, unaryOpInfo as unary } from '../../../families/pointwise.ts';
import { sample, unaryErrors, unarySamples } from '../../../families/unary.ts';
import { elementwise } from '../../../refs/pointwise.ts';
import { roundHalfEvenRef } from '../../../refs/special.ts';
import { castValue } from '../../../refs/tensor.ts';
import type { OpInfo } from '../../../types.ts';

/**
 * ATen's round(decimals=d) in the dtype: nearbyint(x * 10^d) / 10^d (x / 10^-d, then * 10^-d for negative d), each
 * product and quotient rounded to the dtype as ATen's scalar_t arithmetic rounds it.
 */
const roundDecimalsRef = (x: number, d: number, dtype: DType) => {
  if (d === 0) return roundHalfEvenRef(x);
  const p = 10 ** Math.abs(d);
  const scaled = castValue(d > 0 ? x * p : x / p, dtype);
  return castValue(d > 0 ? roundHalfEvenRef(scaled) / p : roundHalfEvenRef(scaled) * p, dtype);
};

export const ROUNDING_OPINFOS: readonly OpInfo[] = [
  unary('floor', Math.floor, { dtypes: REAL_NUMERIC, exact: true }),
  unary('ceil', Math.ceil, { dtypes: REAL_NUMERIC, exact: true }),
  unary('trunc', Math.trunc, { dtypes: REAL_NUMERIC, exact: true, aliases: ['fix'] }),
  {
    ...unary('round', roundHalfEvenRef, { dtypes: REAL_NUMERIC, exact: true }),
    // round.decimals on floating dtypes (integers raise with decimals, an error input); it has no out= form here.
    outApplies: (s) => s.kwargs.decimals === undefined,
    sampleInputs: (ctx) => [
      ...unarySamples()(ctx),
      ...(DTYPE_INFO[ctx.dtype].kind === 'float'
        ? [2, -1, 0].flatMap((decimals) =>
            unarySamples({ kwargs: { decimals }, noSpecials: true })(ctx).slice(0, 2),
          )
        : []),
    ],
    errorInputs: (ctx) => [
      ...unaryErrors(false)(ctx),
      {
        sample: sample(tensor([1, 2]), [], { decimals: 1 }, { name: 'int64 with decimals' }),
        code: 'E_DTYPE_UNSUPPORTED',
        regex: /"round_cpu" not implemented for 'Long'/,
      },
    ],
    ref: (s) =>
      elementwise(
        [s.input],
        (x) => roundDecimalsRef(x, Number(s.kwargs.decimals ?? 0), s.input.dtype),
        s.input.dtype,
      ),
  },
  unary('frac', (x) => x - Math.trunc(x), { dtypes: FLOATS }),
];
