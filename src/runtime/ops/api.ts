/**
 * The variants every family declares, as one type: the API layer maps it to `torch.*` functions and Tensor
 * methods that tsc checks. The values are the same declarations the family files hand to the operator table,
 * so the type and the installed functions come from one statement per op.
 */

import type { FACTORY_API } from './factories/index.ts';
import type { INDEXING_API, SCATTER_API } from './indexing/index.ts';
import type { LINALG_API } from './linalg/index.ts';
import type { ACTIVATION_ROWS, NN_ACTIVATION_API } from './nn/activation/index.ts';
import type { ATTENTION_API } from './nn/attention/index.ts';
import type { NN_CONV_API } from './nn/conv/index.ts';
import type { NN_DISTANCE_API } from './nn/distance/index.ts';
import type { EMBEDDING_API, NN_ONE_HOT_API } from './nn/embedding/index.ts';
import type { NN_LINEAR_API } from './nn/linear/index.ts';
import type {
  CTC_API,
  LOSS_BINARY_API,
  LOSS_MARGIN_API,
  LOSS_MARGIN_FUNCTIONAL_API,
  LOSS_REGRESSION_API,
  MULTI_MARGIN_API,
  MULTILABEL_MARGIN_API,
} from './nn/loss/index.ts';
import type { BATCH_NORM_API, NORM_API } from './nn/norm/index.ts';
import type { PAD_API } from './nn/pad/index.ts';
import type { ADAPTIVE_POOL_API, POOLING_API, POOLING_KERNEL_API, UNPOOL_API } from './nn/pool/index.ts';
import type { GRID_SAMPLE_API, PIXEL_SHUFFLE_API } from './nn/resample/index.ts';
import type { CLAMP_API, POINTWISE_ROWS, RowsApi } from './pointwise/index.ts';
import type { RANDOM_API } from './random/index.ts';
import type { REDUCTION_API } from './reductions/index.ts';
import type { COPY_API, SCATTER_VIEW_API, SHAPE_API, SPLIT_API, VIEW_API } from './shape/index.ts';
import type { SORTING_API } from './sort_search/index.ts';

type PointwiseRows = (typeof POINTWISE_ROWS)[number] | (typeof ACTIVATION_ROWS)[number];

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
