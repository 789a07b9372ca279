/**
 * Error inputs of binary ops beyond the family's (binaryErrors): aten's alpha_check on add and pow's refusal of a
 * negative Python int exponent for an integral base.
 */
import { bool, complex, float } from '../../../src/runtime/index.ts';
import { sample } from '../../families/unary.ts';
import { maker } from '../../make.ts';
import type { ErrorInput, SampleContext } from '../../types.ts';

/** alpha_check: no bool alpha for a non-bool result, no float alpha for an integral one, no complex for a real one. */
export const alphaErrors = (ctx: SampleContext): ErrorInput[] => {
  const int = maker({ ...ctx, dtype: 'int32' });
  const f = maker({ ...ctx, dtype: 'float32' });
  return (
    [
      [int, bool(true), /Boolean alpha only supported for Boolean results\./],
      [int, float(0.5), /For integral input tensors, argument alpha must not be a floating point number\./],
      [f, complex(0, 1), /For non-complex input tensors, argument alpha must not be a complex number\./],
    ] as const
  ).map(([make, alpha, regex]) => ({
    sample: sample(make([3]), [make([3])], { alpha }, { name: `alpha ${alpha.kind}` }),
    code: 'E_INVALID_ARGUMENT',
    regex,
  }));
};

/** pow(integral tensor, negative Python int): PyTorch refuses it before computing (a tensor exponent it allows). */
export const negativeIntExponent = (ctx: SampleContext): ErrorInput[] => [
  {
    sample: sample(
      maker({ ...ctx, dtype: 'int32' }).values([1, 2, 3]),
      [-1],
      {},
      { name: 'int32 base, Python int exponent -1' },
    ),
    code: 'E_ZERO_DIVISION',
    regex: /Integers to negative integer powers are not allowed\./,
  },
];
