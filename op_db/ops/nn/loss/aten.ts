/**
 * aten-level OpInfos for the loss kernels whose `.out` forms and own checks the functional OpInfos never reach
 * (F.multi_margin_loss, F.multilabel_margin_loss and F.nll_loss call the function overloads, and nll_loss_nd
 * hands nll_loss2d only 4-d inputs, nll_loss only 1-d and 2-d ones): multi_margin_loss, multilabel_margin_loss,
 * nll_loss2d, nll_loss and soft_margin_loss, with reduction 'none' samples of several frames, so the out= checks
 * see the per-frame writes at a storage offset. The references are the functional ones, the aten int reduction
 * read as its name.
 */
import type { DType, Tensor } from '../../../../src/runtime/index.ts';
import { errorCase, exact, f32, indexOf } from '../../../families/shape.ts';
import { sample } from '../../../families/unary.ts';
import { opInfo } from '../../../info.ts';
import { maker } from '../../../make.ts';
import { nllRef } from '../../../refs/loss.ts';
import { multilabelMarginRef, multiMarginRef, softMarginRef } from '../../../refs/loss_margin.ts';
import type { ErrorInput, OpInfo, RefFn, RefSample, SampleContext, SampleInput } from '../../../types.ts';
import { MULTI_MARGIN_STRIDED_WEIGHT } from './margin_kernels.ts';

const DTYPES: readonly DType[] = ['float32', 'float64'];
const REDUCTIONS = ['none', 'mean', 'sum'];
const NO_WEBGPU = 'the kernel reads the class targets on the host (no webgpu kernel)';
const inputDType = (s: SampleInput) => (s.input as Tensor).dtype;

/** A functional reference called with the aten sample: arguments by keyword, reduction by name. */
const atenRef =
  (ref: RefFn): RefFn =>
  (s: RefSample) =>
    ref({
      input: s.input,
      args: s.args.slice(0, 1),
      kwargs: { ...s.kwargs, reduction: REDUCTIONS[(s.kwargs.reduction as number | undefined) ?? 1] },
    });

/** An out= of float64 for a float32 call: aten's out dtype check. */
const wrongOut = (ctx: SampleContext) => f32(ctx)([0]).double();

function multiMarginSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const y = indexOf(ctx, [2, 0, 3], [3]);
  const weight = ctx.requiresGrad ? {} : { weight: make([4], { low: 0.5, high: 2 }) };
  return [
    sample(make([3, 4]), [y], { reduction: 0 }, { name: 'none, 3 frames' }),
    sample(make([3, 4]), [y], { p: 2, margin: 0.5, ...weight, reduction: 0 }, { name: 'p 2, weight, none' }),
    sample(make([3, 4]), [y], { reduction: 2 }, { name: 'sum' }),
  ];
}

function multiMarginErrors(ctx: SampleContext): ErrorInput[] {
  const x = f32(ctx)([3, 4]);
  const y = indexOf(ctx, [2, 0, 3], [3]);
  return [
    errorCase(
      x,
      [y],
      { reduction: 0, out: wrongOut(ctx) },
      'E_RESULT_TYPE',
      /Expected out tensor to have dtype float, but got double instead/,
      'out of another dtype',
    ),
    // F.multi_margin_loss refuses p itself (a ValueError); only a direct call reaches the kernel's check.
    errorCase(x, [y, 3], {}, 'E_INVALID_ARGUMENT', /only p == 1 and p == 2 supported/, 'p 3'),
  ];
}

function multilabelSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const rows = indexOf(ctx, [3, 0, -1, 1, 1, -1, 0, 0, 0, 1, 2, 3], [3, 4]);
  return [
    sample(make([3, 4]), [rows], { reduction: 0 }, { name: 'none, 3 frames' }),
    sample(make([3, 4]), [rows], { reduction: 1 }, { name: 'mean' }),
  ];
}

function multilabelErrors(ctx: SampleContext): ErrorInput[] {
  const rows = indexOf(ctx, [3, 0, -1, 1, 1, -1, 0, 0, 0, 1, 2, 3], [3, 4]);
  return [
    errorCase(
      f32(ctx)([3, 4]),
      [rows],
      { reduction: 0, out: wrongOut(ctx) },
      'E_DTYPE_UNSUPPORTED',
      /Expected out tensor to have dtype Float, but got Double instead/,
      'out of another dtype',
    ),
  ];
}

function nll2dSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const y = indexOf(ctx, [0, 2, 1, 1, 2, 0, 1, 2], [2, 2, 2]);
  const weight = ctx.requiresGrad ? {} : { weight: make([3], { low: 0.5, high: 2 }) };
  return [
    sample(make([2, 3, 2, 2]), [y], { reduction: 0 }, { name: 'none' }),
    sample(
      make([2, 3, 2, 2]),
      [y],
      { ...weight, reduction: 1, ignore_index: 1 },
      { name: 'weight, ignore 1' },
    ),
  ];
}

function nll2dErrors(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  const y3 = exact(ctx, [0, 1, 2, 0], [1, 2, 2], 'int64');
  return [
    errorCase(
      f([1, 3, 4]),
      [y3],
      {},
      'E_SHAPE_MISMATCH',
      /only batches of spatial inputs supported \(4D tensors\), but got input of dimension: 3/,
      '3-d input',
    ),
    errorCase(
      f([1, 3, 2, 2]),
      [indexOf(ctx, [0, 1], [1, 2])],
      {},
      'E_SHAPE_MISMATCH',
      /only batches of spatial targets supported \(3D tensors\) but got targets of dimension: 2/,
      '2-d target',
    ),
    // nll_loss_nd checks the target's shape itself: only a direct call reaches nll_loss2d's own check.
    errorCase(
      f([1, 3, 2, 2]),
      [indexOf(ctx, [0, 1, 2, 0, 1, 2], [1, 2, 3])],
      {},
      'E_SHAPE_MISMATCH',
      /size mismatch \(got input: \[1, 3, 2, 2\] , target: \[1, 2, 3\]/,
      'target of another spatial size',
    ),
  ];
}

function nllSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const y = indexOf(ctx, [2, 0, 3], [3]);
  const weight = ctx.requiresGrad ? {} : { weight: make([4], { low: 0.5, high: 2 }) };
  return [
    sample(make([3, 4]), [y], { reduction: 0 }, { name: 'none, 3 frames' }),
    sample(make([3, 4]), [y], { ...weight, reduction: 1, ignore_index: 0 }, { name: 'weight, ignore 0' }),
    sample(make([4]), [indexOf(ctx, [1], [])], { reduction: 2 }, { name: '1-d input, 0-d target' }),
  ];
}

/** nll_loss_nd hands nll_loss only 1-d and 2-d inputs: only a direct call reaches nll_loss_forward's check. */
function nllErrors(ctx: SampleContext): ErrorInput[] {
  return [
    errorCase(
      f32(ctx)([2, 3, 4]),
      [indexOf(ctx, [0, 1, 2, 0, 1, 2, 0, 1], [2, 4])],
      {},
      'E_SHAPE_MISMATCH',
      /input tensor should be 1D or 2D/,
      '3-d input',
    ),
  ];
}

/** ±1 targets of the sample's dtype; int64 for gradient samples (aten refuses a target that requires grad). */
const signs = (ctx: SampleContext, shape: number[]) =>
  exact(
    ctx,
    Array.from({ length: shape.reduce((a, b) => a * b, 1) }, (_, i) => (i % 3 === 1 ? -1 : 1)),
    shape,
    ctx.requiresGrad ? 'int64' : ctx.dtype,
  );

function softMarginSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  return [
    sample(make([2, 3]), [signs(ctx, [2, 3])], { reduction: 0 }, { name: 'none' }),
    sample(make([2, 3]), [signs(ctx, [2, 3])], {}, { name: 'mean' }),
    sample(make([4]), [signs(ctx, [4])], { reduction: 2 }, { name: 'sum' }),
  ];
}

/** soft_margin_loss_out computes in out: an out of another dtype is refused (F has no out=). */
function softMarginErrors(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  return [
    errorCase(
      f([3]),
      [f([3])],
      { reduction: 0, out: f([3]).double() },
      'E_DTYPE_UNSUPPORTED',
      /Found dtype Double but expected Float/,
      'out of another dtype',
    ),
  ];
}

const lossInfo = (spec: Parameters<typeof opInfo>[0]): OpInfo =>
  opInfo({ unsupported: { webgpu: NO_WEBGPU }, resultDType: inputDType, ...spec });

export const NN_LOSS_ATEN_OPINFOS: readonly OpInfo[] = [
  lossInfo({
    name: 'multi_margin_loss',
    family: 'loss',
    dtypes: DTYPES,
    sampleInputs: multiMarginSamples,
    errorInputs: multiMarginErrors,
    ref: atenRef(multiMarginRef),
    skips: [MULTI_MARGIN_STRIDED_WEIGHT],
  }),
  lossInfo({
    name: 'multilabel_margin_loss',
    family: 'loss',
    dtypes: DTYPES,
    sampleInputs: multilabelSamples,
    errorInputs: multilabelErrors,
    ref: atenRef(multilabelMarginRef),
  }),
  lossInfo({
    name: 'nll_loss2d',
    family: 'loss',
    dtypes: ['float16', 'bfloat16', ...DTYPES],
    sampleInputs: nll2dSamples,
    errorInputs: nll2dErrors,
    ref: atenRef(nllRef),
  }),
  lossInfo({
    name: 'nll_loss',
    family: 'loss',
    dtypes: ['float16', 'bfloat16', ...DTYPES],
    sampleInputs: nllSamples,
    errorInputs: nllErrors,
    ref: atenRef(nllRef),
    // The weighted mean divides two sums each rounded to the dtype (F.nll_loss's tolerances).
    tolerances: { float16: { rtol: 2e-3, atol: 1e-5 } },
  }),
  opInfo({
    name: 'soft_margin_loss',
    family: 'loss',
    dtypes: ['float16', 'bfloat16', ...DTYPES, 'complex64', 'complex128'],
    sampleInputs: softMarginSamples,
    errorInputs: softMarginErrors,
    ref: atenRef(softMarginRef),
    resultDType: inputDType,
  }),
];
