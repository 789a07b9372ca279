/**
 * Output memory layouts that differ from PyTorch 1.13's (the golden oracle compares the strides of every new
 * output; values are compared as usual). By op: the input layouts on which the two lay the output out differently.
 */
import type { DType } from '../src/runtime/index.ts';
import type { Layout } from './types.ts';

const KEEPS_ORDER =
  "the runtime's output keeps the input's dim order (as TensorIterator ops do); PyTorch 1.13's CPU kernel " +
  'allocates it contiguous';
const CONTIGUOUS =
  "the runtime's kernel writes a contiguous output; PyTorch 1.13's keeps the input's channels-last (or " +
  'transposed) dim order';
/** The dtypes PyTorch 1.13 has these CPU kernels for (float16 raises there, so its layout is never compared). */
const KERNEL_DTYPES: readonly DType[] = ['bfloat16', 'float32', 'float64'];
export const LAYOUT_DEVIATIONS: Readonly<
  Record<string, readonly [readonly Layout[], string, (readonly DType[])?]>
> = {
  ...Object.fromEntries(
    [
      'native_batch_norm',
      'native_layer_norm',
      'nll_loss2d',
      'nn.functional.batch_norm',
      'nn.functional.layer_norm',
      'nn.functional.cross_entropy',
      'nn.functional.nll_loss',
      'nn.functional.max_pool1d',
      'nn.functional.prelu',
      'nn.functional.rrelu',
    ].map((op) => [op, [['transposed'], KEEPS_ORDER, KERNEL_DTYPES]]),
  ),
  ...Object.fromEntries(
    ['nn.functional.group_norm', 'nn.functional.logsigmoid'].map((op) => [
      op,
      [['transposed', 'channels_last'], KEEPS_ORDER, KERNEL_DTYPES],
    ]),
  ),
  'nn.functional.grid_sample': [['channels_last'], KEEPS_ORDER, KERNEL_DTYPES],
  ...Object.fromEntries(
    ['nn.functional.adaptive_avg_pool1d', 'nn.functional.adaptive_max_pool1d'].map((op) => [
      op,
      [['transposed'], CONTIGUOUS, KERNEL_DTYPES],
    ]),
  ),
  ...Object.fromEntries(
    [
      'adaptive_avg_pool2d',
      'adaptive_max_pool2d',
      'nn.functional.adaptive_avg_pool2d',
      'nn.functional.adaptive_max_pool2d',
      'max_unpool2d',
      'nn.functional.max_unpool2d',
      'nn.functional.interpolate',
    ].map((op) => [op, [['channels_last'], CONTIGUOUS, KERNEL_DTYPES]]),
  ),
  roll: [['channels_last'], CONTIGUOUS],
};
