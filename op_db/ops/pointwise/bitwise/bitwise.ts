/** OpInfos of the logical and bitwise ops. */
import { ALL, binaryOpInfo as binary, INT_BOOL, unaryOpInfo as unary } from '../../../families/pointwise.ts';
import { elementwise } from '../../../refs/pointwise.ts';
import type { OpInfo } from '../../../types.ts';
import { cmp, truthy } from '../binary_samples.ts';

export const BITWISE_OPINFOS: readonly OpInfo[] = [
  unary('logical_not', (x) => (x === 0 ? 1 : 0), {
    dtypes: ALL,
    rule: 'bool',
    complexRef: (re, im) => [re === 0 && im === 0 ? 1 : 0, 0],
  }),
  {
    ...unary('bitwise_not', (x) => ~x, { dtypes: INT_BOOL }),
    ref: (s) => elementwise([s.input], s.input.dtype === 'bool' ? (x) => 1 - x : (x) => ~x, s.input.dtype),
  },
  binary(
    'logical_and',
    cmp((a, b) => truthy(a) && truthy(b)),
    {
      dtypes: ALL,
      rule: 'bool',
      complexRef: (ar, ai, br, bi) => [(truthy(ar) || truthy(ai)) && (truthy(br) || truthy(bi)) ? 1 : 0, 0],
    },
  ),
  binary(
    'logical_or',
    cmp((a, b) => truthy(a) || truthy(b)),
    {
      dtypes: ALL,
      rule: 'bool',
      complexRef: (ar, ai, br, bi) => [truthy(ar) || truthy(ai) || truthy(br) || truthy(bi) ? 1 : 0, 0],
    },
  ),
  binary(
    'logical_xor',
    cmp((a, b) => truthy(a) !== truthy(b)),
    {
      dtypes: ALL,
      rule: 'bool',
      complexRef: (ar, ai, br, bi) => [(truthy(ar) || truthy(ai)) !== (truthy(br) || truthy(bi)) ? 1 : 0, 0],
    },
  ),
  binary('bitwise_and', (a, b) => a & b, { dtypes: INT_BOOL }),
  binary('bitwise_or', (a, b) => a | b, { dtypes: INT_BOOL }),
  binary('bitwise_xor', (a, b) => a ^ b, { dtypes: INT_BOOL }),
];
