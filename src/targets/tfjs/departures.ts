/**
 * tfjs's documented semantics where they are not PyTorch's: instances these cover are expected to depart (xfail),
 * kept apart from the departures the oracles find. Each reason cites what tfjs documents or is built as.
 */
import type { Departure } from '../target.ts';

const NO_INT64 =
  'tfjs has no int64 dtype (its integer tensors are int32), so indices and integer sums are int32';

export const TFJS_DEPARTURES: readonly Departure[] = [
  { op: 'argmax', reason: NO_INT64 },
  { op: 'argmin', reason: NO_INT64 },
  { op: 'sum', dtypes: ['int32', 'bool'], reason: NO_INT64 },
  { op: 'prod', dtypes: ['int32', 'bool'], reason: NO_INT64 },
  { op: 'cumsum', dtypes: ['int32', 'bool'], reason: NO_INT64 },
  {
    op: 'div',
    dtypes: ['int32'],
    reason:
      "tf.div of two int32 tensors divides as integers (tfjs's documented integer division); PyTorch's is true division",
  },
];
