/** The pointwise OpInfos by sub-family (the same folders as src/runtime/ops/pointwise/). */

import type { OpInfo } from '../../types.ts';
import { ARITH_OPINFOS, CLAMP_OPINFOS } from './arith/index.ts';
import { BITWISE_OPINFOS } from './bitwise/index.ts';
import { COMPARE_OPINFOS, WHERE_OPINFO } from './compare/index.ts';
import { EXP_LOG_OPINFOS } from './exp_log/index.ts';
import { ROUNDING_OPINFOS } from './rounding/index.ts';
import { SPECIAL_OPINFOS } from './special/index.ts';
import { TRIG_OPINFOS } from './trig/index.ts';

/** The table-row ops: one OpInfo line each. */
export const POINTWISE_OPINFOS: readonly OpInfo[] = [
  ...ARITH_OPINFOS,
  ...EXP_LOG_OPINFOS,
  ...TRIG_OPINFOS,
  ...ROUNDING_OPINFOS,
  ...SPECIAL_OPINFOS,
  ...BITWISE_OPINFOS,
  ...COMPARE_OPINFOS,
];
/** where and clamp (their samples are the shape family's: a condition, Scalar? or Tensor? bounds). */
export const TERNARY_OPINFOS: readonly OpInfo[] = [WHERE_OPINFO, ...CLAMP_OPINFOS];
