/**
 * OpInfos for nn.functional.embedding and nn.functional.embedding_bag, called with F's signature (indices first,
 * then weight; the OpInfo dtype is weight's). References pick and reduce weight's rows in float64. Samples whose
 * gradient PyTorch defines apart from the numerical one (embedding's padding row gets none, scale_grad_by_freq
 * rescales it, max_norm rewrites weight in place) are not gradient samples, as in PyTorch's op_db.
 */
import { DTYPE_GROUPS, DTYPE_INFO, type Tensor } from '../../../../src/runtime/index.ts';
import { errorCase, exact, f32, indexOf, onValues, sample } from '../../../families/shape.ts';
import { opInfo } from '../../../info.ts';
import { maker } from '../../../make.ts';
import { type RefTensor, refTensor } from '../../../refs/tensor.ts';
import type { ErrorInput, RefSample, SampleContext, SampleInput } from '../../../types.ts';

const FLOATING = ['float16', 'float32', 'float64'] as const;
const weightDType = (s: SampleInput) => (s.args[0] as Tensor).dtype;
const isFloating = (ctx: SampleContext) => ['float', 'complex'].includes(DTYPE_INFO[ctx.dtype].kind);

/** Weight's rows (re and im) as arrays. */
function rowsOf(w: RefTensor): { re: number[]; im: number[] }[] {
  const [n, d] = w.shape;
  return Array.from({ length: n }, (_, r) => ({
    re: Array.from(w.re.subarray(r * d, (r + 1) * d)),
    im: Array.from({ length: d }, (_, c) => w.im?.[r * d + c] ?? 0),
  }));
}

/** embedding_renorm_: rows named by `idx` whose p-norm exceeds maxNorm scaled by maxNorm / (norm + 1e-7). */
function renorm(rows: { re: number[]; im: number[] }[], idx: readonly number[], maxNorm: number, p: number) {
  for (const r of new Set(idx)) {
    const abs = rows[r].re.map((x, c) => Math.hypot(x, rows[r].im[c]));
    const norm =
      p === Number.POSITIVE_INFINITY ? Math.max(...abs) : abs.reduce((s, a) => s + a ** p, 0) ** (1 / p);
    if (norm > maxNorm) {
      const f = maxNorm / (norm + 1e-7);
      rows[r] = { re: rows[r].re.map((x) => x * f), im: rows[r].im.map((x) => x * f) };
    }
  }
}

function embeddingRef(s: RefSample): RefTensor {
  const w = s.args[0] as RefTensor;
  const idx = Array.from(s.input.re);
  const rows = rowsOf(w);
  const maxNorm = s.kwargs.max_norm as number | undefined;
  if (maxNorm !== undefined && maxNorm !== null) renorm(rows, idx, maxNorm, Number(s.kwargs.norm_type ?? 2));
  const d = w.shape[1];
  const re = new Float64Array(idx.length * d);
  const im = w.im ? new Float64Array(idx.length * d) : undefined;
  idx.forEach((r, i) => {
    re.set(rows[r].re, i * d);
    im?.set(rows[r].im, i * d);
  });
  return refTensor([...s.input.shape, d], w.dtype, re, im);
}

function embeddingSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const idx = (values: number[], shape: number[]) => indexOf(ctx, values, shape);
  const grad = [
    sample(idx([0, 2, 4, 4], [2, 2]), [make([5, 3])], {}, { name: '2-D indices' }),
    sample(idx([3], []), [make([5, 3])], {}, { name: '0-dim index' }),
    sample(exact(ctx, [1, 0, 3, 1], [4], 'int32'), [make([4, 2])], {}, { name: 'int32 indices' }),
    sample(idx([], [0, 2]), [make([5, 3])], { sparse: false }, { name: 'no indices, sparse=False' }),
    sample(idx([2, 1, 0, 1, 2, 0], [2, 3]), [make([3, 4])], {}, { name: '[2, 3] indices of [3, 4]' }),
  ];
  if (ctx.requiresGrad) return grad;
  return [
    ...grad,
    sample(idx([0, 2, 1, 2], [2, 2]), [make([5, 3])], { padding_idx: 2 }, { name: 'padding_idx=2' }),
    sample(idx([4, 1, 4], [3]), [make([5, 3])], { padding_idx: -1 }, { name: 'padding_idx=-1' }),
    // The lowest valid padding_idx, -num_embeddings (row 0).
    sample(idx([0, 2, 0], [3]), [make([5, 3])], { padding_idx: -5 }, { name: 'padding_idx=-5' }),
    sample(
      idx([1, 1, 3, 0], [4]),
      [make([5, 3])],
      { scale_grad_by_freq: true },
      { name: 'scale_grad_by_freq' },
    ),
    ...(isFloating(ctx)
      ? [
          sample(idx([0, 3, 3, 1], [2, 2]), [make([5, 3])], { max_norm: 2.5 }, { name: 'max_norm=2.5' }),
          sample(
            idx([2, 0], [2]),
            [make([4, 3])],
            { max_norm: 4, norm_type: 1 },
            { name: 'max_norm, norm_type=1' },
          ),
        ]
      : []),
  ];
}

function embeddingErrors(ctx: SampleContext): ErrorInput[] {
  const w = f32(ctx)([5, 3]);
  const idx = (values: number[]) => indexOf(ctx, values, [values.length]);
  return [
    onValues(errorCase(idx([5]), [w], {}, 'E_INDEX_OUT_OF_RANGE', /index out of range in self/)),
    onValues(errorCase(idx([-1]), [w], {}, 'E_INDEX_OUT_OF_RANGE', /index out of range in self/)),
    errorCase(
      idx([0]),
      [w],
      { padding_idx: 5 },
      'E_INVALID_ARGUMENT',
      /Padding_idx must be within num_embeddings/,
    ),
    errorCase(
      idx([0]),
      [w],
      { padding_idx: -6 },
      'E_INVALID_ARGUMENT',
      /Padding_idx must be within num_embeddings/,
    ),
    errorCase(idx([0]), [f32(ctx)([3])], {}, 'E_INVALID_ARGUMENT', /'weight' must be 2-D/),
    errorCase(
      exact(ctx, [0], [1], 'float32'),
      [w],
      {},
      'E_DTYPE_UNSUPPORTED',
      /'indices' to have one of the following scalar types: Long, Int; but got torch.FloatTensor/,
    ),
    errorCase(
      idx([0]),
      [exact(ctx, [1, 2], [1, 2], 'int64')],
      { max_norm: 1 },
      'E_DTYPE_UNSUPPORTED',
      /norm\(\): input dtype should be either floating point or complex. Got Long instead/,
    ),
    errorCase(idx([0]), [w], { sparse: true }, 'E_NOT_IMPLEMENTED', /no sparse tensors/, 'sparse=True'),
    // max_norm renormalises the rows first: embedding_renorm_'s select raises on the index out of range.
    onValues(
      errorCase(
        idx([0, 9]),
        [w],
        { max_norm: 1 },
        'E_INDEX_OUT_OF_RANGE',
        /select\(\): index 9 out of range for tensor of size \[5, 3\] at dimension 0/,
      ),
    ),
  ];
}

const MODE = { sum: 0, mean: 1, max: 2 } as const;

function embeddingBagRef(s: RefSample): RefTensor {
  const w = s.args[0] as RefTensor;
  const [n, d] = w.shape;
  const two = s.input.shape.length === 2;
  const idx = Array.from(s.input.re);
  // A 2-D input is a batch of bags of its row length.
  const offs = two
    ? Array.from({ length: s.input.shape[0] }, (_, b) => b * s.input.shape[1])
    : Array.from(((s.args[1] ?? s.kwargs.offsets) as RefTensor).re);
  const mode = MODE[(s.kwargs.mode as keyof typeof MODE) ?? 'mean'];
  const psw = s.kwargs.per_sample_weights as RefTensor | undefined;
  const last = Boolean(s.kwargs.include_last_offset);
  const rawPad = s.kwargs.padding_idx as number | undefined | null;
  const pad = rawPad === undefined || rawPad === null ? -1 : rawPad < 0 ? rawPad + n : rawPad;
  const rows = rowsOf(w);
  if (s.kwargs.max_norm !== undefined && s.kwargs.max_norm !== null)
    renorm(rows, idx, s.kwargs.max_norm as number, Number(s.kwargs.norm_type ?? 2));
  const numBags = last ? offs.length - 1 : offs.length;
  const out = new Float64Array(numBags * d);
  for (let b = 0; b < numBags; b++) {
    const end = b + 1 < offs.length ? offs[b + 1] : idx.length;
    const members = [];
    for (let i = offs[b]; i < end; i++) if (idx[i] !== pad) members.push(i);
    for (let c = 0; c < d; c++) {
      const vals = members.map((i) => rows[idx[i]].re[c] * (psw ? psw.re[i] : 1));
      if (vals.length === 0) continue;
      const sum = vals.reduce((a, v) => a + v, 0);
      out[b * d + c] = mode === MODE.max ? Math.max(...vals) : mode === MODE.mean ? sum / vals.length : sum;
    }
  }
  return refTensor([numBags, d], w.dtype, out);
}

function embeddingBagSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const idx = (values: number[], shape = [values.length]) => indexOf(ctx, values, shape);
  const bag = idx([0, 2, 1, 4, 3, 3]);
  const offsets = idx([0, 2, 2, 5]);
  const grad = [
    sample(bag, [make([5, 3]), offsets], {}, { name: 'mean, an empty bag' }),
    sample(
      bag,
      [make([5, 3]), offsets],
      { mode: 'sum', per_sample_weights: make([6]) },
      { name: 'sum, per_sample_weights' },
    ),
    sample(idx([1, 0, 3, 2, 4]), [make([5, 4]), idx([0, 1, 3])], { mode: 'max' }, { name: 'max' }),
    sample(idx([1, 0, 2, 2, 0, 1], [2, 3]), [make([3, 2])], { mode: 'max' }, { name: '2-D input, max' }),
    sample(
      idx([1, 0, 2, 2], [2, 2]),
      [make([3, 2])],
      { mode: 'sum', per_sample_weights: make([2, 2]) },
      { name: '2-D input, per_sample_weights' },
    ),
    sample(
      idx([0, 1, 2, 3, 4]),
      [make([5, 2]), idx([0, 2, 5])],
      { mode: 'sum', include_last_offset: true },
      { name: 'include_last_offset' },
    ),
    sample(
      idx([1, 2, 1, 1, 0]),
      [make([4, 3]), idx([0, 2, 4])],
      { mode: 'mean', padding_idx: 1 },
      { name: 'mean, padding_idx=1' },
    ),
    sample(
      idx([3, 2, 3, 0]),
      [make([4, 2]), idx([0, 1])],
      { mode: 'max', padding_idx: -1 },
      { name: 'max, padding_idx=-1' },
    ),
    sample(
      exact(ctx, [2, 0, 1], [3], 'int32'),
      [make([3, 3]), exact(ctx, [0, 1], [2], 'int32')],
      { mode: 'sum', sparse: false },
      { name: 'int32, sparse=False' },
    ),
    sample(idx([]), [make([3, 2]), idx([0, 0])], { mode: 'sum' }, { name: 'no indices' }),
  ];
  if (ctx.requiresGrad) return grad;
  return [
    ...grad,
    // weight is not the primary input (the layouts leave it contiguous): rows 1-5 of a [6, 3] tensor.
    sample(
      idx([4, 0, 2, 1]),
      [make([6, 3]).narrow(0, 1, 5), idx([0, 1])],
      { mode: 'sum' },
      { name: 'weight with a storage offset' },
    ),
    sample(
      idx([1, 1, 3, 0]),
      [make([5, 3]), idx([0, 2])],
      { mode: 'sum', scale_grad_by_freq: true },
      { name: 'scale_grad_by_freq' },
    ),
    sample(
      idx([0, 3, 3, 1]),
      [make([5, 3]), idx([0, 1])],
      { max_norm: 2.5, norm_type: 1.5 },
      { name: 'max_norm, norm_type' },
    ),
  ];
}

function embeddingBagErrors(ctx: SampleContext): ErrorInput[] {
  const f = f32(ctx);
  const w = f([5, 3]);
  const idx = (values: number[], shape = [values.length]) => indexOf(ctx, values, shape);
  const two = idx([0, 1], [1, 2]);
  return [
    errorCase(
      idx([0, 1]),
      [w, idx([0])],
      { mode: 'max', per_sample_weights: f([2]) },
      'E_NOT_IMPLEMENTED',
      /per_sample_weights is only supported for mode='sum' \(got mode='max'\)/,
    ),
    onValues(
      errorCase(
        idx([0, 1]),
        [w, idx([1])],
        {},
        'E_INVALID_ARGUMENT',
        /offsets\[0\] has to be 0, i.e., the first sequence in the mini-batch has to start from position 0. However, got 1/,
      ),
    ),
    onValues(
      errorCase(
        idx([0, 1, 2]),
        [w, idx([0, 5])],
        {},
        'E_INVALID_ARGUMENT',
        /offsets\[-1\] can not be greater than input's length 3 but got offsets\[-1\] of 5/,
      ),
    ),
    onValues(
      errorCase(
        idx([0, 5]),
        [w, idx([0])],
        { mode: 'max' },
        'E_INDEX_OUT_OF_RANGE',
        /Expected idx >= 0 && idx < num_embeddings but found idx to be 5/,
      ),
    ),
    errorCase(two, [w, idx([0])], {}, 'E_INVALID_ARGUMENT', /if input is 2D, then offsets has to be None/),
    errorCase(idx([0, 1]), [w], {}, 'E_INVALID_ARGUMENT', /offsets has to be a 1D Tensor but got None/),
    errorCase(
      idx([0, 1]),
      [w, idx([0], [1, 1])],
      {},
      'E_INVALID_ARGUMENT',
      /^offsets has to be a 1D Tensor$|offsets has to be a 1D Tensor;/,
    ),
    errorCase(
      idx([0, 0], [1, 1, 2]),
      [w],
      {},
      'E_INVALID_ARGUMENT',
      /input has to be 1D or 2D Tensor, but got Tensor of dimension 3/,
    ),
    errorCase(
      idx([0, 1]),
      [w, idx([0])],
      { mode: 'foo' },
      'E_INVALID_ARGUMENT',
      /mode has to be one of sum, mean or max/,
    ),
    errorCase(
      idx([0, 1]),
      [w, idx([0])],
      { mode: 'max', scale_grad_by_freq: true },
      'E_INVALID_ARGUMENT',
      /max mode does not support scaling the gradient by the frequency/,
    ),
    errorCase(
      idx([0, 1]),
      [w, idx([0])],
      { mode: 'sum', per_sample_weights: f([3]) },
      'E_INVALID_ARGUMENT',
      /If per_sample_weights \(torch.Size\(\[3\]\)\) is not None, then it must have the same shape as the input \(torch.Size\(\[2\]\)\)/,
    ),
    errorCase(
      idx([0, 1]),
      [w, idx([0])],
      { mode: 'sum', per_sample_weights: exact(ctx, [1, 2], [2], 'float64') },
      'E_DTYPE_UNSUPPORTED',
      /to have the same type as tensor for argument #1 'per_sample_weights'; but type torch.FloatTensor does not equal torch.DoubleTensor/,
    ),
    errorCase(
      idx([0, 1]),
      [exact(ctx, [1, 2, 3, 4], [2, 2], 'bfloat16'), idx([0])],
      {},
      'E_DTYPE_UNSUPPORTED',
      /'weight' to have one of the following scalar types: Half, Float, Double; but got CPUBFloat16Type instead/,
    ),
    errorCase(
      idx([0, 1, 2]),
      [w, idx([0])],
      { padding_idx: 5 },
      'E_INVALID_ARGUMENT',
      /padding_idx must be within the number of embeddings, -5 through 4, but got 5/,
    ),
    errorCase(
      idx([0, 1, 2]),
      [w, idx([], [0])],
      { include_last_offset: true },
      'E_INVALID_ARGUMENT',
      /include_last_offset: number of offset should be at least 1/,
    ),
    errorCase(
      idx([0, 1]),
      [f([5]), idx([0])],
      {},
      'E_DIM_OUT_OF_RANGE',
      /Dimension out of range \(expected to be in range of \[-1, 0\], but got 1\)/,
    ),
    // Bags of no index: F's arange(0, numel, size(1)) takes a zero step.
    errorCase(idx([], [2, 0]), [w], {}, 'E_INVALID_ARGUMENT', /step must be nonzero/),
    errorCase(
      idx([0, 1]),
      [w, idx([0])],
      { mode: 'max', sparse: true },
      'E_INVALID_ARGUMENT',
      /max mode does not support sparse weights/,
    ),
    errorCase(
      idx([0, 1]),
      [w, idx([0])],
      { mode: 'sum', sparse: true },
      'E_NOT_IMPLEMENTED',
      /no sparse tensors/,
      'sparse=True',
    ),
  ];
}

const EXPANDED_WEIGHT = {
  kind: 'skip',
  layout: 'expanded',
  reason:
    'max_norm renormalises weight in place, and an expanded weight has rows sharing memory: the runtime ' +
    'refuses that write (E_INTERNAL_OVERLAP) where PyTorch 1.13 scales the shared elements without a check',
} as const;

export const NN_EMBEDDING_OPINFOS = [
  opInfo({
    name: 'nn.functional.embedding',
    op: '_functional_embedding',
    family: 'indexing',
    dtypes: DTYPE_GROUPS.all,
    sampleInputs: embeddingSamples,
    ref: embeddingRef,
    resultDType: weightDType,
    // max_norm renormalises weight's rows in place (the schema marks weight `Tensor(a!)`).
    flags: { mutates: true },
    errorInputs: embeddingErrors,
    skips: [EXPANDED_WEIGHT],
  }),
  opInfo({
    name: 'nn.functional.embedding_bag',
    op: '_functional_embedding_bag',
    family: 'indexing',
    dtypes: FLOATING,
    unsupported: { webgpu: 'no webgpu kernel: the bags and their maxima are read on the host' },
    skips: [EXPANDED_WEIGHT],
    sampleInputs: embeddingBagSamples,
    ref: embeddingBagRef,
    resultDType: weightDType,
    // max_norm renormalises weight's rows in place (the schema marks weight `Tensor(a!)`).
    flags: { mutates: true },
    errorInputs: embeddingBagErrors,
  }),
];
