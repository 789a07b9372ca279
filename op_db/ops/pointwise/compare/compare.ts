/** OpInfos of the comparisons and the predicates isnan, isinf, isfinite. */
import {
  ALL,
  binaryOpInfo as binary,
  NO_COMPLEX,
  unaryOpInfo as unary,
} from '../../../families/pointwise.ts';
import type { OpInfo } from '../../../types.ts';
import { cmp } from '../binary_samples.ts';

export const COMPARE_OPINFOS: readonly OpInfo[] = [
  unary('isnan', (x) => (Number.isNaN(x) ? 1 : 0), {
    dtypes: ALL,
    rule: 'bool',
    complexRef: (re, im) => [Number.isNaN(re) || Number.isNaN(im) ? 1 : 0, 0],
  }),
  unary('isinf', (x) => (x === Infinity || x === -Infinity ? 1 : 0), {
    dtypes: NO_COMPLEX,
    rule: 'bool',
  }),
  unary('isfinite', (x) => (Number.isFinite(x) ? 1 : 0), {
    dtypes: ALL,
    rule: 'bool',
    complexRef: (re, im) => [Number.isFinite(re) && Number.isFinite(im) ? 1 : 0, 0],
  }),
  binary(
    'eq',
    cmp((a, b) => a === b),
    { dtypes: ALL, rule: 'bool', complexRef: (ar, ai, br, bi) => [ar === br && ai === bi ? 1 : 0, 0] },
  ),
  binary(
    'ne',
    cmp((a, b) => a !== b),
    { dtypes: ALL, rule: 'bool', complexRef: (ar, ai, br, bi) => [ar !== br || ai !== bi ? 1 : 0, 0] },
  ),
  binary(
    'lt',
    cmp((a, b) => a < b),
    { dtypes: NO_COMPLEX, rule: 'bool' },
  ),
  binary(
    'le',
    cmp((a, b) => a <= b),
    { dtypes: NO_COMPLEX, rule: 'bool' },
  ),
  binary(
    'gt',
    cmp((a, b) => a > b),
    { dtypes: NO_COMPLEX, rule: 'bool' },
  ),
  binary(
    'ge',
    cmp((a, b) => a >= b),
    { dtypes: NO_COMPLEX, rule: 'bool' },
  ),
];
