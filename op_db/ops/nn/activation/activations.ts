/**
 * OpInfos for the activations that are not one pointwise row: glu and prelu (aten ops the runtime decomposes) and
 * the Python-only softsign, tanhshrink and softmin. References work on logical float64 values.
 */
import { DTYPE_GROUPS, DTYPE_INFO, type DType, type Tensor, tensor } from '../../../../src/runtime/index.ts';
import { unaryArbitrary } from '../../../families/arbitraries.ts';
import { f32 } from '../../../families/shape.ts';
import { sample, unarySamples } from '../../../families/unary.ts';
import { opInfo } from '../../../info.ts';
import { maker } from '../../../make.ts';
import { elementwise } from '../../../refs/pointwise.ts';
import { pointwiseResultDType } from '../../../refs/promotion.ts';
import { softmaxRef } from '../../../refs/reductions.ts';
import { castValue, numelOf, type RefTensor, refTensor, unravel } from '../../../refs/tensor.ts';
import type { ErrorInput, OpInfo, RefSample, SampleContext, SampleInput } from '../../../types.ts';

const FLOATS = DTYPE_GROUPS.floating;
const REAL = DTYPE_GROUPS.realNumeric.filter((d) => d !== 'bool');
const SOFTMAX_DTYPES = ['bfloat16', 'float32', 'float64'] as const;
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** The element of `x` at a logical index. */
const at = (x: RefTensor, idx: readonly number[]) =>
  x.re[idx.reduce((flat, i, d) => flat * x.shape[d] + i, 0)];

/** glu: first half times the sigmoid of the second, along dim. */
function gluRef(s: RefSample): RefTensor {
  const x = s.input;
  const raw = Number(s.args[0] ?? s.kwargs.dim ?? -1);
  const dim = raw < 0 ? raw + x.shape.length : raw;
  const half = x.shape[dim] / 2;
  const shape = x.shape.map((n, d) => (d === dim ? half : n));
  const out = new Float64Array(numelOf(shape));
  for (let i = 0; i < out.length; i++) {
    const idx = unravel(i, shape);
    const b = idx.map((v, d) => (d === dim ? v + half : v));
    out[i] = at(x, idx) * sigmoid(at(x, b));
  }
  return refTensor(shape, x.dtype, out);
}

/** prelu: x where x > 0, else the weight of x's channel (dim 1; a single weight for all) times x. */
function preluRef(s: RefSample): RefTensor {
  const x = s.input;
  const w = s.args[0] as RefTensor;
  const out = new Float64Array(numelOf(x.shape));
  for (let i = 0; i < out.length; i++) {
    const v = x.re[i];
    const c = w.re.length === 1 ? 0 : unravel(i, x.shape)[1];
    out[i] = v > 0 ? v : w.re[c] * v;
  }
  return refTensor(x.shape, x.dtype, out);
}

function gluSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  return [
    sample(make([4]), [], {}, { name: '[4]' }),
    sample(make([3, 6]), [], {}, { name: '[3, 6]' }),
    sample(make([4, 3]), [0], {}, { name: '[4, 3] dim 0' }),
    sample(make([2, 4, 3]), [], { dim: 1 }, { name: '[2, 4, 3] dim=1' }),
    sample(make([2, 3, 2]), [-1], {}, { name: '[2, 3, 2] dim -1' }),
    sample(make([0, 4]), [], {}, { name: 'zero-size' }),
  ];
}

function preluSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  return [
    sample(make([2, 3, 4]), [make([3])], {}, { name: '[2, 3, 4] per channel' }),
    sample(make([2, 3, 4]), [make([1])], {}, { name: '[2, 3, 4] one weight' }),
    sample(make([4, 5]), [make([5])], {}, { name: '[4, 5] per channel' }),
    sample(make([2, 3, 2, 2]), [make([3])], {}, { name: '[2, 3, 2, 2] per channel' }),
    sample(make([6]), [make([1])], {}, { name: '1-d' }),
    sample(make([]), [make([])], {}, { name: '0-dim, 0-dim weight' }),
  ];
}

const raises = (s: SampleInput, code: ErrorInput['code'], regex: RegExp): ErrorInput => ({
  sample: s,
  code,
  regex,
});

function softminSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const other = ctx.dtype === 'float64' ? 'float32' : 'float64';
  // dtype= casts first and an empty input needs no kernel, so both work on any dtype, as in PyTorch: only
  // claimed dtypes get them (the dtype claims are what the other samples show).
  const claimed = (SOFTMAX_DTYPES as readonly string[]).includes(ctx.dtype);
  return [
    sample(make([3, 4]), [1], {}, { name: '[3, 4] dim 1' }),
    sample(make([3, 4]), [0], {}, { name: '[3, 4] dim 0' }),
    sample(make([2, 3, 4]), [-1], {}, { name: '[2, 3, 4] dim -1' }),
    sample(make([5]), [], { dim: 0, _stacklevel: 5 }, { name: '[5] dim=0 _stacklevel=5' }),
    sample(make([]), [0], {}, { name: '0-dim' }),
    // No dim: the legacy choice (0 for 0-, 1- and 3-dim inputs, else 1).
    sample(make([4]), [], {}, { name: '[4] no dim' }),
    sample(make([3, 4]), [], {}, { name: '[3, 4] no dim' }),
    sample(make([2, 3, 2]), [], {}, { name: '[2, 3, 2] no dim' }),
    ...(claimed ? [sample(make([0, 3]), [1], {}, { name: 'zero-size' })] : []),
    // A float32 dtype= makes float32-accurate gradients: not a float64 gradient sample.
    ...(claimed && !ctx.requiresGrad
      ? [sample(make([3, 4]), [1], { dtype: other }, { name: `dtype=${other}` })]
      : []),
  ];
}

function softminRef(s: RefSample): RefTensor {
  const x = s.input;
  const n = x.shape.length;
  const dim = Number(s.args[0] ?? s.kwargs.dim ?? (n === 0 || n === 1 || n === 3 ? 0 : 1));
  const neg = { ...x, re: x.re.map((v) => -v) };
  return softmaxRef(false)({ input: neg, args: [dim], kwargs: { dtype: s.kwargs.dtype ?? null } });
}

export const NN_ACTIVATION_OPINFOS: readonly OpInfo[] = [
  opInfo({
    name: 'nn.functional.glu',
    op: 'glu',
    family: 'pointwise',
    dtypes: FLOATS,
    sampleInputs: gluSamples,
    ref: gluRef,
    resultDType: (s) => pointwiseResultDType({ input: s.input, args: [] }, 'promote'),
    errorInputs: (ctx) => {
      const make = maker(ctx);
      return [
        raises(
          sample(make([3, 3]), [1]),
          'E_INVALID_ARGUMENT',
          /Halving dimension must be even, but dimension 1 is size 3/,
        ),
        raises(
          sample(make([])),
          'E_INVALID_ARGUMENT',
          /glu does not support scalars because halving size must be even/,
        ),
        raises(sample(make([2, 4]), [2]), 'E_DIM_OUT_OF_RANGE', /Dimension out of range/),
      ];
    },
  }),
  opInfo({
    name: 'nn.functional.prelu',
    op: 'prelu',
    family: 'pointwise',
    dtypes: FLOATS,
    sampleInputs: preluSamples,
    ref: preluRef,
    resultDType: (s) => pointwiseResultDType({ input: s.input, args: [] }, 'promote'),
    errorInputs: (ctx) => {
      const make = maker(ctx);
      return [
        raises(
          sample(make([2, 3, 4]), [make([2])]),
          'E_SHAPE_MISMATCH',
          /Found parameter numbers = 2 and channel size = 3/,
        ),
        raises(
          sample(make([2, 3]), [make([3, 1])]),
          'E_INVALID_ARGUMENT',
          /Expected `weight` to be a scalar or 1D tensor, but got ndim = 2/,
        ),
        raises(sample(make([3]), [make([3])]), 'E_SHAPE_MISMATCH', /channel size = 1/),
        raises(
          sample(f32(ctx)([2, 3]), [f32(ctx)([3]).double()]),
          'E_DTYPE_UNSUPPORTED',
          /Found dtype Double but expected Float/,
        ),
      ];
    },
  }),
  opInfo({
    name: 'nn.functional.softsign',
    op: 'softsign',
    // Not 'unary': the reference sees the input in its own dtype, where Python's abs + 1 runs.
    family: 'activation',
    dtypes: [...REAL, 'complex64', 'complex128'],
    sampleInputs: unarySamples(),
    // PyTorch 1.13's complex division squares the divisor |z| + 1, so it gives NaN past 1e154 (1e19 in complex64),
    // as the runtime's does; the reference does not: generated values stay below that.
    arbitrary: unaryArbitrary({ min: -1e15, max: 1e15 }),
    // input / (input.abs() + 1) as Python computes it: in an integer dtype, abs + 1 wraps (int8: 127 + 1 = -128).
    ref: (s) =>
      elementwise(
        [s.input],
        (x) => x / castValue(Math.abs(x) + 1, s.input.dtype),
        s.input.dtype,
        (re, im) => {
          const d = Math.hypot(re, im) + 1;
          return [re / d, im / d];
        },
      ),
    resultDType: (s) => pointwiseResultDType({ input: s.input, args: [] }, 'intToFloat'),
    errorInputs: () => [raises(sample(tensor([true])), 'E_DTYPE_UNSUPPORTED', /not implemented for 'Bool'/)],
    flags: { promotesIntToFloat: true },
  }),
  opInfo({
    name: 'nn.functional.tanhshrink',
    op: 'tanhshrink',
    family: 'unary',
    dtypes: REAL,
    sampleInputs: unarySamples(),
    arbitrary: unaryArbitrary(),
    // input - input.tanh(), two ops as Python computes them: tanh(x) is rounded to the dtype before the subtraction.
    ref: (s) => {
      const dtype = s.input.dtype;
      // An integer input's tanh is float32 (the default dtype).
      const tanhDType = DTYPE_INFO[dtype].kind === 'float' ? dtype : 'float32';
      const tanh = (x: number) => castValue(Math.tanh(x), tanhDType);
      return elementwise([s.input], (x) => x - tanh(x), dtype);
    },
    resultDType: (s) => pointwiseResultDType({ input: s.input, args: [] }, 'intToFloat'),
    flags: { promotesIntToFloat: true },
  }),
  opInfo({
    name: 'nn.functional.softmin',
    op: 'softmin',
    family: 'reduction',
    dtypes: SOFTMAX_DTYPES,
    sampleInputs: softminSamples,
    ref: softminRef,
    resultDType: (s) => (s.kwargs.dtype as DType | undefined) ?? (s.input as Tensor).dtype,
    errorInputs: () => [
      raises(sample(tensor([[1, 2]]), [0]), 'E_DTYPE_UNSUPPORTED', /not implemented for 'Long'/),
    ],
  }),
];
