/**
 * OpInfos for the Python-only torch.nn.functional.normalize and for nn.functional.one_hot. References are float64
 * over logical values, from the definitions in PyTorch's docs.
 */
import type { DType, Tensor } from '../../../../src/runtime/index.ts';
import { claims, errorCase, f32 } from '../../../families/shape.ts';
import { sample } from '../../../families/unary.ts';
import { opInfo } from '../../../info.ts';
import { maker } from '../../../make.ts';
import { normalizeRef } from '../../../refs/distance.ts';
import { numelOf, type RefTensor, unravel } from '../../../refs/tensor.ts';
import type { ErrorInput, OpInfo, RefSample, SampleContext, SampleInput } from '../../../types.ts';

/** one_hot: [..., C] with 1 at each value's class; C = num_classes, or the largest value + 1 when -1. */
function oneHotRef(s: RefSample): RefTensor {
  const x = s.input;
  const given = Number(s.args[0] ?? s.kwargs.num_classes ?? -1);
  const classes = given === -1 ? Math.max(...x.re) + 1 : given;
  const shape = [...x.shape, classes];
  const re = new Float64Array(numelOf(shape)).map((_, i) => {
    const idx = unravel(i, shape);
    const flat = idx.slice(0, -1).reduce((f, v, d) => f * x.shape[d] + v, 0);
    return x.re[flat] === idx[idx.length - 1] ? 1 : 0;
  });
  return { shape, dtype: 'int64', re, im: null };
}

const NORMALIZE_DTYPES: readonly DType[] = ['bfloat16', 'float32', 'float64', 'complex64', 'complex128'];

function normalizeSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  return [
    sample(make([3, 4]), [], {}, { name: '[3, 4]' }),
    sample(make([3, 4]), [1, 0], {}, { name: 'p 1, dim 0' }),
    sample(make([2, 3]), [], { p: Number.POSITIVE_INFINITY, dim: -1 }, { name: 'p=inf, dim=-1' }),
    sample(make([2, 3, 2]), [3.5], { dim: [0, 2] }, { name: 'p 3.5, dim=[0, 2]' }),
    // Norms below eps are clamped to it (and the clamp stops their gradient).
    sample(make([2, 3], { low: -1, high: 1 }), [], { eps: 2.5 }, { name: 'eps=2.5' }),
    sample(make([4]), [2, 0, 1e-6], {}, { name: '1-d, dim 0, eps 1e-6' }),
    sample(make([]), [], { dim: 0 }, { name: '0-dim' }),
    ...(claims(ctx, NORMALIZE_DTYPES)
      ? [
          sample(make([0, 3]), [], {}, { name: 'zero-size' }),
          sample(make([3, 0]), [], { p: Number.POSITIVE_INFINITY }, { name: 'empty dim, p=inf' }),
        ]
      : []),
  ];
}

function normalizeErrors(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  return [
    errorCase(f([4]), [], {}, 'E_DIM_OUT_OF_RANGE', /Dimension out of range/),
    errorCase(
      f([2, 3]).to('int64'),
      [],
      {},
      'E_DTYPE_UNSUPPORTED',
      /input dtype should be either floating point or complex. Got Long instead/,
    ),
    errorCase(f([2, 3]).half(), [], {}, 'E_DTYPE_UNSUPPORTED', /"clamp_min_cpu" not implemented for 'Half'/),
    errorCase(
      f([2, 3]),
      [],
      { out: f([2, 3]).to('int64') },
      'E_RESULT_TYPE',
      /result type Float can't be cast to the desired output type Long/,
    ),
  ];
}

/** Class indices of the context's dtype (one_hot takes int64 only: other dtypes are the dtype claims' samples). */
function oneHotSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const v = (values: number[], shape?: number[]) => make.values(values, shape);
  return [
    sample(v([0, 2, 1, 2]), [], {}, { name: '[4]' }),
    sample(v([0, 2, 1]), [], { num_classes: 5 }, { name: 'num_classes=5' }),
    sample(v([3]).reshape([]), [4], {}, { name: '0-dim, 4 classes' }),
    sample(v([0, 1, 3, 1, 0, 2], [2, 3]), [-1], {}, { name: '[2, 3], -1' }),
    sample(v([1, 0, 1, 1], [2, 1, 2]), [2], {}, { name: '[2, 1, 2], 2 classes' }),
    ...(claims(ctx, ['int64']) ? [sample(v([], [2, 0]), [3], {}, { name: 'zero-size, 3 classes' })] : []),
  ];
}

function oneHotErrors(ctx: SampleContext): ErrorInput[] {
  const long = (values: number[]) => maker({ ...ctx, dtype: 'int64' }).values(values);
  const arg = 'E_INVALID_ARGUMENT';
  return [
    errorCase(long([0, -1, 2]), [], {}, arg, /Class values must be non-negative/),
    errorCase(long([0, 3]), [3], {}, arg, /Class values must be smaller than num_classes/),
    errorCase(long([0, 1]), [0], {}, arg, /Class values must be smaller than num_classes/),
    errorCase(long([]), [], {}, arg, /Can not infer total number of classes from empty tensor/),
    errorCase(long([]), [0], {}, arg, /Can not infer total number of classes from empty tensor/),
    errorCase(f32(ctx)([3]), [3], {}, 'E_DTYPE_UNSUPPORTED', /one_hot is only applicable to index tensor/),
    errorCase(long([0, 1]).to('int32'), [3], {}, 'E_DTYPE_UNSUPPORTED', /only applicable to index tensor/),
  ];
}

const META_VALUES =
  "one_hot's checks and (num_classes=-1) output shape depend on the index values, which a meta tensor does not " +
  'have: the meta device raises, as PyTorch 1.13\'s does ("Can not infer total number of classes from meta tensor")';

export const NN_MISC_OPINFOS: readonly OpInfo[] = [
  opInfo({
    name: 'nn.functional.normalize',
    op: 'normalize',
    family: 'reduction',
    dtypes: NORMALIZE_DTYPES,
    // The meta functions check shapes and dtypes, not whether clamp_min has a cpu float16 kernel.
    dtypesIf: { meta: [...NORMALIZE_DTYPES, 'float16'] },
    sampleInputs: normalizeSamples,
    errorInputs: normalizeErrors,
    ref: normalizeRef,
    resultDType: (s) => (s.input as Tensor).dtype,
  }),
  opInfo({
    name: 'nn.functional.one_hot',
    op: 'one_hot',
    family: 'index',
    dtypes: ['int64'],
    unsupported: {
      webgpu:
        'one_hot takes int64 indices only, and webgpu has no int64 arithmetic; its checks and (num_classes=-1) ' +
        'output shape read the values, which an async device would have to copy back first',
    },
    sampleInputs: oneHotSamples,
    errorInputs: oneHotErrors,
    ref: oneHotRef,
    resultDType: () => 'int64',
    skips: [
      { kind: 'skip', oracle: 'metadata', device: 'meta', reason: META_VALUES },
      { kind: 'skip', oracle: 'dtypes', device: 'meta', dtype: 'int64', reason: META_VALUES },
    ],
  }),
];
