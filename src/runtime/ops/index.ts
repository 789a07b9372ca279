/**
 * Registers every op into the operator table (once, at import). Each family file exports a `register*`
 * function or a table of rows; adding a pointwise op is one row (with its variants and derivative) in
 * pointwise/unary.ts or binary.ts.
 */
import { registerCopies } from './copy.ts';
import { registerFactories } from './factories.ts';
import { registerIndexing } from './indexing.ts';
import { registerLinalg } from './linalg.ts';
import { registerNnActivations } from './nn/activations.ts';
import { registerAttention } from './nn/attention.ts';
import { registerBatchNorm } from './nn/batch_norm.ts';
import { registerCtcLoss } from './nn/ctc_loss.ts';
import { registerNnDistance } from './nn/distance.ts';
import { registerEmbedding } from './nn/embedding.ts';
import { registerEmbeddingBag } from './nn/embedding_bag.ts';
import { registerLayerNorm } from './nn/layer_norm.ts';
import { registerNnLinear } from './nn/linear.ts';
import { registerLossMargin } from './nn/loss_margin.ts';
import { registerLossMarginFunctional } from './nn/loss_margin_functional.ts';
import { registerMultiMarginLoss } from './nn/loss_margin_multi.ts';
import { registerMultilabelMarginLoss } from './nn/loss_margin_multilabel.ts';
import { registerNnOneHot } from './nn/one_hot.ts';
import { ACTIVATION_ROWS } from './pointwise/activation.ts';
import { BINARY_ROWS } from './pointwise/binary.ts';
import { registerClamp } from './pointwise/clamp.ts';
import { definePointwise } from './pointwise/define.ts';
import { registerRoundDecimals } from './pointwise/round_decimals.ts';
import { TERNARY_ROWS } from './pointwise/ternary.ts';
import { UNARY_ROWS } from './pointwise/unary.ts';
import { registerRandom } from './random.ts';
import { registerReductions } from './reductions/index.ts';
import { registerScatterViews } from './scatter_views.ts';
import { registerShapeOps } from './shape.ts';
import { registerSorting } from './sorting.ts';
import { registerViews } from './views.ts';

let registered = false;

export function registerAllOps(): void {
  if (registered) return;
  registered = true;
  for (const row of UNARY_ROWS) definePointwise(row);
  for (const row of BINARY_ROWS) definePointwise(row);
  for (const row of TERNARY_ROWS) definePointwise(row);
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
  registerNnDistance();
  registerNnOneHot();
  registerLossMargin();
  registerMultiMarginLoss();
  registerMultilabelMarginLoss();
  registerLossMarginFunctional();
  registerCtcLoss();
}

export type { OpApi } from './api.ts';
export { fillTensor } from './factories.ts';
export { outAliasing } from './out_write.ts';
export { BINARY_ROWS } from './pointwise/binary.ts';
export { POINTWISE_OVERLOADS, type PointwiseInfo, pointwisePlan, wgslExpr } from './pointwise/define.ts';
export type { PointwiseRow, PromotionKind } from './pointwise/row.ts';
export { UNARY_ROWS } from './pointwise/unary.ts';
export { makeView, selectDim, sliceDim } from './views.ts';
