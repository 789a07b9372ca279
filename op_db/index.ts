/**
 * The op database: one OpInfo per runtime op. `opDb` is the list the matrix expands; the families' sample
 * generators, the references and the tensor maker are exported for harnesses and tests.
 */

import { withAutogradClaims } from './autograd.ts';
import { withGoldenDeviations } from './deviations.ts';
import { ACTIVATION_OPINFOS } from './ops/activations.ts';
import { BINARY_OPINFOS } from './ops/binary.ts';
import { FACTORY_OPINFOS } from './ops/factories.ts';
import { NN_ACTIVATION_OPINFOS } from './ops/nn_activations.ts';
import { NN_ADAPTIVE_POOL_OPINFOS } from './ops/nn_adaptive_pool.ts';
import { NN_ATTENTION_OPINFOS } from './ops/nn_attention.ts';
import { NN_CONV_OPINFOS } from './ops/nn_conv.ts';
import { NN_CTC_LOSS_OPINFOS } from './ops/nn_ctc_loss.ts';
import { NN_CTC_LOSS_BACKWARD_OPINFOS } from './ops/nn_ctc_loss_backward.ts';
import { NN_DISTANCE_OPINFOS } from './ops/nn_distance.ts';
import { NN_EMBEDDING_OPINFOS } from './ops/nn_embedding.ts';
import { NN_FRACTIONAL_POOL_OPINFOS } from './ops/nn_fractional_pool.ts';
import { NN_GRID_SAMPLE_OPINFOS } from './ops/nn_grid_sample.ts';
import { NN_LAYER_NORM_OPINFOS } from './ops/nn_layer_norm.ts';
import { NN_LINEAR_OPINFOS } from './ops/nn_linear.ts';
import { NN_LOSS_ATEN_OPINFOS } from './ops/nn_loss_aten.ts';
import { NN_LOSS_CLASS_OPINFOS } from './ops/nn_loss_class.ts';
import { NN_LOSS_MARGIN_OPINFOS } from './ops/nn_loss_margin.ts';
import { NN_LOSS_MARGIN_KERNEL_OPINFOS } from './ops/nn_loss_margin_kernels.ts';
import { NN_LOSS_REGRESSION_OPINFOS } from './ops/nn_loss_regression.ts';
import { NN_MISC_OPINFOS } from './ops/nn_misc.ts';
import { NN_NORMALIZATION_OPINFOS } from './ops/nn_normalization.ts';
import { NN_PAD_OPINFOS } from './ops/nn_pad.ts';
import { NN_PIXEL_SHUFFLE_OPINFOS } from './ops/nn_pixel_shuffle.ts';
import { NN_POOLING_OPINFOS } from './ops/nn_pooling.ts';
import { NN_RESAMPLE_OPINFOS } from './ops/nn_resample.ts';
import { NN_RESAMPLE_ATEN_OPINFOS } from './ops/nn_resample_aten.ts';
import { NN_UNFOLD_OPINFOS } from './ops/nn_unfold.ts';
import { RANDOM_OPINFOS } from './ops/random.ts';
import { REDUCTION_OPINFOS } from './ops/reductions.ts';
import { SCATTER_VIEW_OPINFOS } from './ops/scatter_views.ts';
import { SHAPE_OPINFOS } from './ops/shape.ts';
import { UNARY_OPINFOS } from './ops/unary.ts';
import { VIEW_OPINFOS } from './ops/views.ts';
import { withUnsupportedOverloads } from './overloads.ts';
import type { OpInfo } from './types.ts';

export const opDb: readonly OpInfo[] = (
  [
    ...UNARY_OPINFOS,
    ...ACTIVATION_OPINFOS,
    ...NN_ACTIVATION_OPINFOS,
    ...RANDOM_OPINFOS,
    ...NN_NORMALIZATION_OPINFOS,
    ...NN_LAYER_NORM_OPINFOS,
    ...NN_EMBEDDING_OPINFOS,
    ...NN_ADAPTIVE_POOL_OPINFOS,
    ...NN_FRACTIONAL_POOL_OPINFOS,
    ...NN_ATTENTION_OPINFOS,
    ...NN_LINEAR_OPINFOS,
    ...NN_CONV_OPINFOS,
    ...NN_DISTANCE_OPINFOS,
    ...NN_RESAMPLE_OPINFOS,
    ...NN_RESAMPLE_ATEN_OPINFOS,
    ...NN_GRID_SAMPLE_OPINFOS,
    ...NN_MISC_OPINFOS,
    ...NN_POOLING_OPINFOS,
    ...NN_PAD_OPINFOS,
    ...NN_PIXEL_SHUFFLE_OPINFOS,
    ...NN_UNFOLD_OPINFOS,
    ...NN_LOSS_REGRESSION_OPINFOS,
    ...NN_LOSS_CLASS_OPINFOS,
    ...NN_LOSS_MARGIN_OPINFOS,
    ...NN_LOSS_MARGIN_KERNEL_OPINFOS,
    ...NN_LOSS_ATEN_OPINFOS,
    ...NN_CTC_LOSS_OPINFOS,
    ...NN_CTC_LOSS_BACKWARD_OPINFOS,
    ...BINARY_OPINFOS,
    ...VIEW_OPINFOS,
    ...FACTORY_OPINFOS,
    ...REDUCTION_OPINFOS,
    ...SHAPE_OPINFOS,
    ...SCATTER_VIEW_OPINFOS,
  ] as OpInfo[]
)
  .map(withAutogradClaims)
  .map(withUnsupportedOverloads)
  .map(withGoldenDeviations);

export function findOpInfo(name: string): OpInfo | undefined {
  return opDb.find((o) => o.name === name || o.op === name || o.aliases.includes(name));
}

export { NO_GRADGRAD, NOT_DIFFERENTIABLE, withAutogradClaims } from './autograd.ts';
export { type OpInfoSpec, opInfo, WEBGPU_DTYPES } from './info.ts';
export { hashString, type MakeOptions, type Maker, maker, rng, SPECIAL_FLOATS } from './make.ts';
export {
  INPLACE_VIEW,
  NAMED,
  OUT_FORM,
  OUT_TUPLE,
  SCALAR_OPERAND,
  SCALAR_SELF,
  TORCHSCRIPT,
  UNSUPPORTED_OVERLOADS,
  withUnsupportedOverloads,
} from './overloads.ts';
export { type PythonDeclaration, pythonDeclarations } from './python_surface.ts';
export { REACHED_THROUGH, type ReachedThrough } from './reached.ts';
export { asRef, elementwise } from './refs/pointwise.ts';
export { applyRule, type PromotionRule, pointwiseResultDType, tableResultType } from './refs/promotion.ts';
export {
  castRef,
  castValue,
  fromRuntime,
  numelOf,
  type RefTensor,
  refTensor,
  roundToBinary,
  unravel,
} from './refs/tensor.ts';
export { PYTORCH_TOLERANCES } from './refs/tolerances.ts';
export { ruleMatches } from './rules.ts';
export {
  type ErrorInput,
  type FactoryInput,
  type GoldenDeviation,
  type GoldenTolerance,
  LAYOUTS,
  type Layout,
  MODES,
  type Mode,
  type OpFlags,
  type OpInfo,
  ORACLES,
  type Oracle,
  RANDOM_SEED,
  type RefFn,
  type RefSample,
  type SampleContext,
  type SampleInput,
  type SkipRule,
  type Tolerance,
  type Variant,
} from './types.ts';
