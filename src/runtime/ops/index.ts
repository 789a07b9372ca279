/**
 * Registers every op into the operator table (once, at import). Each family file exports a `register*`
 * function or a table of rows; adding a pointwise op is one row (with its variants and derivative) in
 * its pointwise sub-family (pointwise/<arith|exp_log|trig|rounding|special|bitwise|compare>/).
 */

import { registerFactories } from './factories/index.ts';
import { registerIndexing } from './indexing/index.ts';
import { registerLinalg } from './linalg/index.ts';
import { ACTIVATION_ROWS, registerNnActivations } from './nn/activation/index.ts';
import { registerAttention } from './nn/attention/index.ts';
import { registerNnConv, registerUnfold } from './nn/conv/index.ts';
import { registerNnDistance } from './nn/distance/index.ts';
import { registerEmbedding, registerEmbeddingBag, registerNnOneHot } from './nn/embedding/index.ts';
import { registerNnLinear } from './nn/linear/index.ts';
import {
  registerCtcLoss,
  registerLossBinary,
  registerLossClass,
  registerLossMargin,
  registerLossMarginFunctional,
  registerLossRegression,
  registerMultilabelMarginLoss,
  registerMultiMarginLoss,
} from './nn/loss/index.ts';
import { registerBatchNorm, registerLayerNorm } from './nn/norm/index.ts';
import { registerPad } from './nn/pad/index.ts';
import {
  registerAdaptivePool,
  registerFractionalPool,
  registerPoolingFunctional,
  registerPoolingKernels,
  registerUnpool,
} from './nn/pool/index.ts';
import {
  registerGridSample,
  registerInterpolate,
  registerPixelShuffle,
  registerUpsampleOps,
} from './nn/resample/index.ts';
import { definePointwise, POINTWISE_ROWS, registerClamp, registerRoundDecimals } from './pointwise/index.ts';
import { registerRandom } from './random/index.ts';
import { registerReductions } from './reductions/index.ts';
import { registerCopies, registerScatterViews, registerShapeOps, registerViews } from './shape/index.ts';
import { registerSorting } from './sort_search/index.ts';

let registered = false;

export function registerAllOps(): void {
  if (registered) return;
  registered = true;
  for (const row of POINTWISE_ROWS) definePointwise(row);
  for (const row of ACTIVATION_ROWS) definePointwise(row);
  registerClamp();
  registerRoundDecimals();
  registerViews();
  registerFactories();
  registerCopies();
  registerReductions();
  registerShapeOps();
  registerIndexing();
  registerLinalg();
  registerSorting();
  registerScatterViews();
  registerNnActivations();
  registerRandom();
  registerBatchNorm();
  registerLayerNorm();
  registerEmbedding();
  registerEmbeddingBag();
  registerAttention();
  registerNnLinear();
  registerUpsampleOps();
  registerInterpolate();
  registerGridSample();
  registerNnDistance();
  registerNnOneHot();
  registerPoolingKernels();
  registerPoolingFunctional();
  registerUnpool();
  registerNnConv();
  registerPad();
  registerPixelShuffle();
  registerUnfold();
  registerAdaptivePool();
  registerFractionalPool();
  registerLossRegression();
  registerLossClass();
  registerLossBinary();
  registerLossMargin();
  registerMultiMarginLoss();
  registerMultilabelMarginLoss();
  registerLossMarginFunctional();
  registerCtcLoss();
}

export type { OpApi } from './api.ts';
export { fillTensor } from './factories/index.ts';
export { outAliasing } from './out_write.ts';
export type { PointwiseRow, PromotionKind } from './pointwise/index.ts';
export {
  POINTWISE_OVERLOADS,
  POINTWISE_ROWS,
  type PointwiseInfo,
  pointwisePlan,
  wgslExpr,
} from './pointwise/index.ts';
export { makeView, selectDim, sliceDim } from './shape/index.ts';
export { introsort, type Less, topkOrder } from './sort_search/index.ts';
