/**
 * The op database: one OpInfo per runtime op. `opDb` is the list the matrix expands; the families' sample
 * generators, the references and the tensor maker are exported for harnesses and tests.
 */

import { DuplicateOpError } from '../src/runtime/index.ts';
import { withAutogradClaims } from './autograd.ts';
import { withGoldenDeviations } from './deviations.ts';
import { FACTORY_OPINFOS } from './ops/factories/index.ts';
import { ACTIVATION_OPINFOS, NN_ACTIVATION_OPINFOS } from './ops/nn/activation/index.ts';
import { NN_ATTENTION_OPINFOS } from './ops/nn/attention/index.ts';
import { NN_CONV_OPINFOS, NN_UNFOLD_OPINFOS } from './ops/nn/conv/index.ts';
import { NN_DISTANCE_OPINFOS, NN_MISC_OPINFOS } from './ops/nn/distance/index.ts';
import { NN_EMBEDDING_OPINFOS } from './ops/nn/embedding/index.ts';
import { NN_LINEAR_OPINFOS } from './ops/nn/linear/index.ts';
import {
  NN_CTC_LOSS_BACKWARD_OPINFOS,
  NN_CTC_LOSS_OPINFOS,
  NN_LOSS_ATEN_OPINFOS,
  NN_LOSS_CLASS_OPINFOS,
  NN_LOSS_MARGIN_KERNEL_OPINFOS,
  NN_LOSS_MARGIN_OPINFOS,
  NN_LOSS_REGRESSION_OPINFOS,
} from './ops/nn/loss/index.ts';
import { NN_LAYER_NORM_OPINFOS, NN_NORMALIZATION_OPINFOS } from './ops/nn/norm/index.ts';
import { NN_PAD_OPINFOS } from './ops/nn/pad/index.ts';
import {
  NN_ADAPTIVE_POOL_OPINFOS,
  NN_FRACTIONAL_POOL_OPINFOS,
  NN_POOLING_OPINFOS,
} from './ops/nn/pool/index.ts';
import {
  NN_GRID_SAMPLE_OPINFOS,
  NN_PIXEL_SHUFFLE_OPINFOS,
  NN_RESAMPLE_ATEN_OPINFOS,
  NN_RESAMPLE_OPINFOS,
} from './ops/nn/resample/index.ts';
import { POINTWISE_OPINFOS } from './ops/pointwise/index.ts';
import { RANDOM_OPINFOS } from './ops/random/index.ts';
import { REDUCTION_OPINFOS } from './ops/reductions/index.ts';
import { SCATTER_VIEW_OPINFOS, SHAPE_OPINFOS, VIEW_OPINFOS } from './ops/shape/index.ts';
import { withUnsupportedOverloads } from './overloads.ts';
import type { OpInfo } from './types.ts';

const db: OpInfo[] = (
  [
    ...POINTWISE_OPINFOS,
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
export const opDb: readonly OpInfo[] = db;

/**
 * Adds a project's own OpInfos (declared in its opgate.config.ts, `source`) to op_db: the matrix expands them
 * through the same templates and oracles as op_db's own, except the golden oracle (no PyTorch recording exists).
 * A name op_db already has is E_DUPLICATE_OP, and nothing is added.
 */
export function extendOpDb(infos: readonly OpInfo[], source: string): void {
  const names = new Set(db.map((o) => o.name));
  for (const info of infos) {
    if (names.has(info.name))
      throw new DuplicateOpError(`op_db already has an OpInfo named '${info.name}'`, {
        op: info.name,
        arg: 'opInfos',
        got: source,
        expected: 'a name op_db and the other extensions do not have',
      });
    names.add(info.name);
  }
  for (const info of infos)
    db.push(
      withGoldenDeviations(withUnsupportedOverloads(withAutogradClaims({ ...info, outOfTree: source }))),
    );
}

export function findOpInfo(name: string): OpInfo | undefined {
  return opDb.find((o) => o.name === name || o.op === name || o.aliases.includes(name));
}

export { NO_GRADGRAD, NOT_DIFFERENTIABLE, withAutogradClaims } from './autograd.ts';
export { type BinaryOptions, binaryErrors, binarySamples } from './families/binary.ts';
export {
  type BinarySpec,
  binaryOpInfo,
  floatSpec,
  type UnarySpec,
  unaryOpInfo,
} from './families/pointwise.ts';
export { type ReductionSpec, reductionSamples } from './families/reductions.ts';
export { sample, type UnaryOptions, unaryErrors, unarySamples } from './families/unary.ts';
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
