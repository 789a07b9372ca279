/**
 * The variants every family declares, as one type: the API layer maps it to `torch.*` functions and Tensor
 * methods that tsc checks. The values are the same declarations the family files hand to the operator table,
 * so the type and the installed functions come from one statement per op.
 */

import type { COPY_API } from './copy.ts';
import type { FACTORY_API } from './factories.ts';
import type { INDEXING_API } from './indexing.ts';
import type { LINALG_API } from './linalg.ts';
import type { NN_ACTIVATION_API } from './nn/activations.ts';
import type { ADAPTIVE_POOL_API } from './nn/adaptive_pool.ts';
import type { ATTENTION_API } from './nn/attention.ts';
import type { BATCH_NORM_API } from './nn/batch_norm.ts';
import type { NN_CONV_API } from './nn/conv.ts';
import type { CTC_API } from './nn/ctc_loss.ts';
import type { NN_DISTANCE_API } from './nn/distance.ts';
import type { EMBEDDING_API } from './nn/embedding.ts';
import type { GRID_SAMPLE_API } from './nn/grid_sample.ts';
import type { NORM_API } from './nn/layer_norm.ts';
import type { NN_LINEAR_API } from './nn/linear.ts';
import type { LOSS_BINARY_API } from './nn/loss_binary.ts';
import type { LOSS_MARGIN_API } from './nn/loss_margin.ts';
import type { LOSS_MARGIN_FUNCTIONAL_API } from './nn/loss_margin_functional.ts';
import type { MULTI_MARGIN_API } from './nn/loss_margin_multi.ts';
import type { MULTILABEL_MARGIN_API } from './nn/loss_margin_multilabel.ts';
import type { LOSS_REGRESSION_API } from './nn/loss_regression.ts';
import type { NN_ONE_HOT_API } from './nn/one_hot.ts';
import type { PAD_API } from './nn/pad.ts';
import type { PIXEL_SHUFFLE_API } from './nn/pixel_shuffle.ts';
import type { POOLING_KERNEL_API } from './nn/pooling.ts';
import type { POOLING_API } from './nn/pooling_functional.ts';
import type { UNPOOL_API } from './nn/unpool.ts';
import type { ACTIVATION_ROWS } from './pointwise/activation.ts';
import type { BINARY_ROWS } from './pointwise/binary.ts';
import type { CLAMP_API } from './pointwise/clamp.ts';
import type { RowsApi } from './pointwise/row.ts';
import type { TERNARY_ROWS } from './pointwise/ternary.ts';
import type { UNARY_ROWS } from './pointwise/unary.ts';
import type { RANDOM_API } from './random.ts';
import type { REDUCTION_API } from './reductions/index.ts';
import type { SCATTER_API } from './scatter.ts';
import type { SCATTER_VIEW_API } from './scatter_views.ts';
import type { SHAPE_API } from './shape.ts';
import type { SORTING_API } from './sorting.ts';
import type { VIEW_API } from './views.ts';
import type { SPLIT_API } from './views_split.ts';

type PointwiseRows =
  | (typeof UNARY_ROWS)[number]
  | (typeof BINARY_ROWS)[number]
  | (typeof TERNARY_ROWS)[number]
  | (typeof ACTIVATION_ROWS)[number];

export type OpApi = RowsApi<PointwiseRows> &
  typeof CLAMP_API &
  typeof COPY_API &
  typeof FACTORY_API &
  typeof INDEXING_API &
  typeof LINALG_API &
  typeof NN_ACTIVATION_API &
  typeof RANDOM_API &
  typeof BATCH_NORM_API &
  typeof NORM_API &
  typeof ATTENTION_API &
  typeof EMBEDDING_API &
  typeof GRID_SAMPLE_API &
  typeof NN_DISTANCE_API &
  typeof NN_LINEAR_API &
  typeof NN_CONV_API &
  typeof NN_ONE_HOT_API &
  typeof POOLING_KERNEL_API &
  typeof POOLING_API &
  typeof UNPOOL_API &
  typeof PAD_API &
  typeof PIXEL_SHUFFLE_API &
  typeof ADAPTIVE_POOL_API &
  typeof LOSS_REGRESSION_API &
  typeof LOSS_BINARY_API &
  typeof LOSS_MARGIN_API &
  typeof LOSS_MARGIN_FUNCTIONAL_API &
  typeof MULTI_MARGIN_API &
  typeof MULTILABEL_MARGIN_API &
  typeof CTC_API &
  typeof REDUCTION_API &
  typeof SCATTER_API &
  typeof SCATTER_VIEW_API &
  typeof SHAPE_API &
  typeof SORTING_API &
  typeof VIEW_API &
  typeof SPLIT_API;
