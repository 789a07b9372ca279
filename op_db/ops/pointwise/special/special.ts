/** OpInfos of the special functions: sigmoid (special.expit), erf. */
import { floatSpec as float_, NO_COMPLEX, unaryOpInfo as unary } from '../../../families/pointwise.ts';
import { erfRef } from '../../../refs/special.ts';
import type { OpInfo } from '../../../types.ts';

export const SPECIAL_OPINFOS: readonly OpInfo[] = [
  unary('sigmoid', (x) => 1 / (1 + Math.exp(-x)), float_(NO_COMPLEX)),
  unary('erf', erfRef, float_(NO_COMPLEX)),
];
