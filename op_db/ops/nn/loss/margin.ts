/**
 * OpInfos for torch.nn.functional's margin and embedding losses written as composites: hinge_embedding_loss,
 * margin_ranking_loss, soft_margin_loss, multilabel_soft_margin_loss, cosine_embedding_loss, triplet_margin_loss
 * and triplet_margin_with_distance_loss (references in refs/loss_margin.ts). Samples combine the reductions with
 * the legacy size_average / reduce flags, broadcasting and unbatched inputs; random values keep gradient samples
 * off the hinges (margin - x = 0), where the losses are not differentiable. Dtypes are PyTorch 1.13's CPU ones.
 */
import { DTYPE_GROUPS, DTYPE_INFO, type DType, type Tensor } from '../../../../src/runtime/index.ts';
import { claims, exact } from '../../../families/shape.ts';
import { sample } from '../../../families/unary.ts';
import { opInfo } from '../../../info.ts';
import { maker, rng } from '../../../make.ts';
import {
  cosineEmbeddingRef,
  floatDType,
  hingeRef,
  marginRankingRef,
  multilabelSoftMarginRef,
  softMarginRef,
  tripletRef,
} from '../../../refs/loss_margin.ts';
import type { OpInfo, SampleContext, SampleInput } from '../../../types.ts';
import {
  cosineErrors,
  hingeErrors,
  multilabelSoftErrors,
  rankingErrors,
  softErrors,
  tripletDistanceErrors,
  tripletErrors,
} from './margin_errors.ts';

const FLOATS: readonly DType[] = ['bfloat16', 'float32', 'float64'];
const INTS: readonly DType[] = DTYPE_GROUPS.integral.filter((d) => d !== 'bool');
/** exp and log_sigmoid have float16 kernels in the runtime (PyTorch 1.13's CPU has none: a declared deviation). */
const WITH_HALF: readonly DType[] = ['float16', ...FLOATS];
const isFloat = (d: DType) => DTYPE_INFO[d].kind === 'float';

/** ±1 targets (0 / 1 with `binary`), of ctx's dtype (or `dtype`), int64 where ctx's dtype cannot hold -1. */
function targets(ctx: SampleContext, shape: number[], binary = false, dtype?: DType): Tensor {
  const r = rng(ctx.seed ^ 0x7a3);
  const n = shape.reduce((a, b) => a * b, 1);
  const values = Array.from({ length: n }, (_, i) => (i % 3 === 1 || r() < 0.4 ? 0 : 1));
  if (binary) return exact(ctx, values, shape, dtype ?? ctx.dtype);
  const own = isFloat(ctx.dtype) || (DTYPE_INFO[ctx.dtype].kind === 'int' && ctx.dtype !== 'uint8');
  const signs = values.map((v) => (v === 0 ? -1 : 1));
  return exact(ctx, signs, shape, dtype ?? (own ? ctx.dtype : 'int64'));
}

/** The reduction of the default call: integral losses have no mean (sum instead). */
const meanOr = (ctx: SampleContext) => (isFloat(ctx.dtype) ? 'mean' : 'sum');

function hingeSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const mean = meanOr(ctx);
  return [
    sample(make([2, 3]), [targets(ctx, [2, 3])], { reduction: mean }, { name: `[2, 3] ${mean}` }),
    sample(make([3, 4]), [targets(ctx, [3, 4]), 0.5], { reduction: 'none' }, { name: 'margin 0.5, none' }),
    sample(make([2, 3]), [targets(ctx, [3])], { margin: 2, reduction: 'sum' }, { name: 'broadcast target' }),
    sample(make([]), [targets(ctx, [])], { size_average: false }, { name: '0-dim, size_average=False' }),
    sample(make([4]), [targets(ctx, [4])], { reduce: false, size_average: true }, { name: 'reduce=False' }),
    ...(claims(ctx, FLOATS) ? [sample(make([0, 3]), [make([0, 3])], {}, { name: 'zero-size' })] : []),
  ];
}

function rankingSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  return [
    sample(make([4]), [make([4]), targets(ctx, [4])], {}, { name: '[4]' }),
    sample(make([2, 3]), [make([2, 3]), targets(ctx, [2, 3]), 0.5], { reduction: 'none' }, { name: 'none' }),
    sample(
      make([3, 1]),
      [make([1, 4]), targets(ctx, [3, 4])],
      { margin: -0.25, reduction: 'sum' },
      {
        name: 'broadcast, sum',
      },
    ),
    sample(make([]), [make([]), targets(ctx, [])], { size_average: false, reduce: false }, { name: '0-dim' }),
  ];
}

function softSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  // PyTorch's soft_margin_loss refuses a target that requires grad: gradient samples take int64 targets.
  const y = (shape: number[]) => targets(ctx, shape, false, ctx.requiresGrad ? 'int64' : undefined);
  return [
    sample(make([2, 3]), [y([2, 3])], {}, { name: '[2, 3]' }),
    sample(make([3, 4]), [y([4])], { reduction: 'none' }, { name: 'broadcast target, none' }),
    sample(make([]), [y([])], { size_average: false }, { name: '0-dim, size_average=False' }),
    sample(make([5]), [y([5])], { reduce: false }, { name: 'reduce=False' }),
    sample(make([0, 2]), [y([0, 2])], { reduction: 'sum' }, { name: 'zero-size' }),
  ];
}

function multilabelSoftSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const y = (shape: number[]) => targets(ctx, shape, true);
  return [
    sample(make([2, 3]), [y([2, 3])], {}, { name: '[2, 3]' }),
    sample(make([3, 4]), [y([3, 4]), make([4])], { reduction: 'none' }, { name: 'weight, none' }),
    sample(make([4]), [y([4])], { weight: make([4]), reduction: 'sum' }, { name: 'unbatched, weight=' }),
    sample(
      make([2, 2, 3]),
      [y([2, 2, 3])],
      { size_average: false, reduce: true },
      { name: '3-d, legacy sum' },
    ),
  ];
}

function cosineSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  return [
    sample(make([3, 4]), [make([3, 4]), targets(ctx, [3])], {}, { name: '[3, 4]' }),
    sample(
      make([2, 5]),
      [make([2, 5]), targets(ctx, [2]), 0.3],
      { reduction: 'none' },
      { name: 'margin 0.3' },
    ),
    sample(
      make([4]),
      [make([4]), targets(ctx, [])],
      { margin: -0.2, reduction: 'sum' },
      { name: '0-dim target' },
    ),
    sample(
      make([2, 3]),
      [make([2, 3]), targets(ctx, [2])],
      { size_average: true, reduce: false },
      {
        name: 'reduce=False',
      },
    ),
  ];
}

function tripletSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const three = (shape: number[]) => [make(shape), make(shape), make(shape)] as const;
  const [a, p, n] = three([3, 4]);
  const [a2, p2, n2] = three([2, 3]);
  const [a3, p3, n3] = three([4]);
  const [a4, p4, n4] = three([2, 2, 3]);
  return [
    sample(a, [p, n], {}, { name: '[3, 4]' }),
    sample(a2, [p2, n2, 0.5, 1, 1e-3, true], { reduction: 'none' }, { name: 'p 1, eps, swap' }),
    sample(a3, [p3, n3], { p: 3, swap: true, reduction: 'sum' }, { name: 'unbatched, p=3, swap' }),
    sample(a4, [p4, n4], { margin: 2, eps: 0, size_average: false, reduce: true }, { name: '3-d, legacy' }),
  ];
}

function tripletDistanceSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const pair = (shape: number[]) => [make(shape), make(shape)] as const;
  return [
    sample(make([3, 4]), [...pair([3, 4])], {}, { name: '[3, 4]' }),
    sample(
      make([2, 3]),
      [...pair([2, 3])],
      { distance_function: null, margin: 0.5, swap: true, reduction: 'none' },
      {
        name: 'swap, none',
      },
    ),
    sample(make([4]), [...pair([4])], { margin: 2, reduction: 'sum' }, { name: 'unbatched, sum' }),
  ];
}

const inputDType = (s: SampleInput) => (s.input as Tensor).dtype;
const reductionOf = (s: SampleInput) =>
  s.kwargs.reduce === false
    ? 'none'
    : s.kwargs.size_average === false
      ? 'sum'
      : String(s.kwargs.reduction ?? 'mean');
/** A sum of an integral loss is int64; other reductions keep the loss's dtype. */
const lossDType = (dtype: DType, s: SampleInput) =>
  reductionOf(s) === 'sum' && DTYPE_INFO[dtype].kind === 'int' ? 'int64' : dtype;

/**
 * Ops ending in clamp_min: float16 is refused on cpu (no CPU clamp_min kernel in PyTorch 1.13), not by the meta
 * functions, which check shapes and dtypes only; webgpu computes float32 and int32 (int64 targets of a uint8 or
 * bool sample have no webgpu kernels).
 */
const clamped = (dtypes: readonly DType[]) => ({
  dtypesIf: {
    meta: [...dtypes, 'float16'] as DType[],
    webgpu: dtypes.filter((d) => d === 'float32' || d === 'int32'),
  },
});

/** A difference of two distances, each rounded to bfloat16 first: the error is an ulp of the distances. */
const TRIPLET_TOLERANCES = { tolerances: { bfloat16: { rtol: 1.6e-2, atol: 6e-2 } } } as const;

const loss = (
  name: string,
  dtypes: readonly DType[],
  spec: Omit<Parameters<typeof opInfo>[0], 'name' | 'family' | 'dtypes'>,
): OpInfo =>
  opInfo({ name: `nn.functional.${name}`, op: `_functional_${name}`, family: 'loss', dtypes, ...spec });

export const NN_LOSS_MARGIN_OPINFOS: readonly OpInfo[] = [
  loss('hinge_embedding_loss', [...INTS, ...FLOATS], {
    ...clamped([...INTS, ...FLOATS]),
    sampleInputs: hingeSamples,
    errorInputs: hingeErrors,
    ref: hingeRef,
    resultDType: (s) => lossDType(inputDType(s), s),
  }),
  loss('margin_ranking_loss', [...INTS, ...FLOATS], {
    ...clamped([...INTS, ...FLOATS]),
    sampleInputs: rankingSamples,
    errorInputs: rankingErrors,
    ref: marginRankingRef,
    resultDType: (s) => floatDType(inputDType(s)),
  }),
  loss('soft_margin_loss', [...WITH_HALF, 'complex64', 'complex128'], {
    sampleInputs: softSamples,
    errorInputs: softErrors,
    ref: softMarginRef,
    resultDType: inputDType,
  }),
  loss('multilabel_soft_margin_loss', WITH_HALF, {
    sampleInputs: multilabelSoftSamples,
    errorInputs: multilabelSoftErrors,
    ref: multilabelSoftMarginRef,
    resultDType: inputDType,
    // log_sigmoid, products and a sum over classes, each rounded to the dtype (PyTorch's steps too).
    tolerances: { bfloat16: { rtol: 4e-2, atol: 1e-5 }, float16: { rtol: 5e-3, atol: 1e-5 } },
  }),
  loss('cosine_embedding_loss', ['bool', ...INTS, ...FLOATS], {
    ...clamped(['bool', ...INTS, ...FLOATS]),
    sampleInputs: cosineSamples,
    errorInputs: cosineErrors,
    ref: cosineEmbeddingRef,
    resultDType: (s) => floatDType(inputDType(s)),
  }),
  loss('triplet_margin_loss', [...INTS, ...FLOATS, 'complex64', 'complex128'], {
    ...clamped([...INTS, ...FLOATS, 'complex64', 'complex128']),
    ...TRIPLET_TOLERANCES,
    sampleInputs: tripletSamples,
    errorInputs: tripletErrors,
    ref: tripletRef(false),
    resultDType: (s) => floatDType(inputDType(s)),
  }),
  loss('triplet_margin_with_distance_loss', [...INTS, ...FLOATS, 'complex64', 'complex128'], {
    ...clamped([...INTS, ...FLOATS, 'complex64', 'complex128']),
    tolerances: {
      ...TRIPLET_TOLERANCES.tolerances,
      // A difference of float32 distances (uint8 differences wrap to hundreds) keeps their absolute error.
      float32: { rtol: 1.3e-6, atol: 6e-5 },
    },
    sampleInputs: tripletDistanceSamples,
    errorInputs: tripletDistanceErrors,
    ref: tripletRef(true),
    resultDType: (s) => floatDType(inputDType(s)),
  }),
];
