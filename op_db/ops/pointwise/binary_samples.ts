/**
 * What the binary OpInfos (binary.ts) add to their family's generators: extra samples and error inputs for values
 * a generated sample hits only by chance (ties, zero divisors, tiled and tied strides, a Tensor alpha), the
 * keyword-argument sample sets, sample domains, and the small float64 helpers their references share.
 */
import { DTYPE_INFO, type DType, tensor } from '../../../src/runtime/index.ts';
import { type BinaryOptions, binarySamples } from '../../families/binary.ts';
import { sample } from '../../families/unary.ts';
import { maker } from '../../make.ts';
import { isRefTensor } from '../../refs/shape.ts';
import type { ErrorInput, OpInfo, RefSample, SampleContext, SampleInput } from '../../types.ts';

/** alpha as a number: a Scalar, a number, or a 0-dim tensor bound to the Scalar parameter (a RefTensor here). */
export const alpha = (s: RefSample) => {
  const a = s.kwargs.alpha;
  if (a === undefined) return 1;
  return isRefTensor(a) ? a.re[0] : Number(a);
};
/**
 * sub with alpha a 0-dim float32 tensor (PyTorch binds it to the Scalar): the derivative negates a tensor alpha
 * by another path than a number's. alpha is float32, so gradcheck leaves it alone as PyTorch's Scalar is (no
 * gradient). float64 samples only (where gradients are checked): the golden oracle moves every sample tensor to
 * the device, and a webgpu tensor cannot be read as a Scalar without a blocking readback (a typed error says so).
 */
export const tensorAlphaSamples = (ctx: SampleContext): SampleInput[] => {
  if (ctx.dtype !== 'float64') return [];
  const make = maker(ctx);
  const a = tensor([1.5], { dtype: 'float32' }).reshape([]);
  return [
    sample(
      make([2, 3]),
      [make([2, 3])],
      { alpha: a },
      {
        name: 'alpha a 0-dim float32 tensor',
      },
    ),
  ];
};
export const nonZeroRhs = { rhs: { excludeZero: true } };
/**
 * remainder/fmod jump where self/other crosses an integer: gradient samples keep self/other in (1.27, 1.92),
 * away from the jumps but not below 1, where floor / trunc(self/other) would be 0 and other's gradient
 * (-grad * floor(self/other)) 0 whatever its sign.
 */
export const AWAY_FROM_JUMPS = { gradLhs: { low: 3.3, high: 4.4 }, gradRhs: { low: 2.3, high: 2.6 } };
export const nanAware = (f: (a: number, b: number) => number) => (a: number, b: number) =>
  Number.isNaN(a) || Number.isNaN(b) ? Number.NaN : f(a, b);
export const pyRemainder = (a: number, b: number) => {
  const r = a % b;
  return r !== 0 && r < 0 !== b < 0 ? r + b : r;
};
export const cmp = (f: (a: number, b: number) => boolean) => (a: number, b: number) => (f(a, b) ? 1 : 0);
export const truthy = (x: number) => x !== 0;

/** An OpInfo with extra samples appended (values a generated sample would hit only by chance). */
export function withSamples(
  info: OpInfo,
  extra: (ctx: SampleContext) => SampleInput[],
  errors?: (ctx: SampleContext) => ErrorInput[],
): OpInfo {
  return {
    ...info,
    sampleInputs: (ctx) => [...info.sampleInputs(ctx), ...extra(ctx)],
    errorInputs: errors ? (ctx) => [...info.errorInputs(ctx), ...errors(ctx)] : info.errorInputs,
  };
}

/**
 * The cpu iterator walks two dims in 64-element square tiles when operands disagree on the fastest dim and both
 * dims span two tiles (a + b.t() at 128 x 128): the one sample big enough to take that path. float32 only, small
 * integers (exact, and the golden file compresses them); the in-place variant catches a tile that writes a
 * column twice.
 */
export const tiledSamples = (ctx: SampleContext): SampleInput[] => {
  if (ctx.dtype !== 'float32' || ctx.requiresGrad) return [];
  const n = 128;
  const ints = (k: number) => Array.from({ length: n * n }, (_, i) => ((i * k) % 13) - 6);
  const make = maker(ctx);
  return [
    sample(
      make.values(ints(5), [n, n]),
      [make.values(ints(3), [n, n]).t()],
      {},
      { name: 'tiled walk (other transposed, 128 x 128)' },
    ),
  ];
};

/**
 * Operands whose strides tie (TensorIterator's reorder_dimensions): an overlapping first operand whose two dims
 * have equal strides and sizes, which must not decide the order (the contiguous second one does), and a 3-d pair
 * where a tie between dims 1 and 0 must not stop the insertion sort before dim 0 passes dim 2 (the output is then
 * dim 0 fastest, strides (1, 2, 4)). The golden oracle compares the output's strides with PyTorch's. Not for
 * gradients: gradcheck refuses overlapping inputs.
 */
export const tiedStrideSamples = (ctx: SampleContext): SampleInput[] => {
  if (ctx.requiresGrad) return [];
  const make = maker(ctx);
  const base = () => make([20]);
  return [
    sample(
      base().as_strided([2, 2], [1, 1]),
      [make([2, 2])],
      {},
      { name: 'tied strides: overlapping first operand' },
    ),
    sample(
      base().as_strided([2, 1, 3], [1, 1, 2]),
      [base().as_strided([2, 2, 3], [3, 3, 1])],
      {},
      { name: 'tied strides: a tie mid-way through the order' },
    ),
  ];
};

/**
 * add's own errors. out= the transpose of the other operand, 2 x 2: the same memory with other strides is a
 * partial overlap (PyTorch's assert_no_partial_overlap); dims of size 2 are where a `< 2` size test told apart
 * from `<= 2`. An operand on meta (not a 0-dim cpu tensor): TensorIterator's device check.
 */
export const addErrors = (ctx: SampleContext): ErrorInput[] => {
  const make = maker(ctx);
  const x = make([2, 2]);
  return [
    {
      sample: sample(make([2, 3]), [make([2, 3]).to('meta')], {}, { name: 'other on meta' }),
      code: 'E_DEVICE_MISMATCH',
      regex: /Expected all tensors to be on the same device/,
    },
    {
      sample: sample(make([2, 2]), [x.t()], { out: x }, { name: 'out= the transpose of other' }),
      code: 'E_INTERNAL_OVERLAP',
      regex: /some elements of the input tensor and the written-to tensor refer to a single memory location/,
    },
  ];
};

/**
 * An integer divisor narrowed from a longer tensor whose next element is 0: the zero-divisor check must stop at
 * the line's end (a `<=` bound reads the 0 and raises).
 */
export const narrowedDivisor = (ctx: SampleContext): SampleInput[] => {
  if (DTYPE_INFO[ctx.dtype].kind !== 'int') return [];
  const make = maker(ctx);
  return [
    sample(
      make.values([7, 5]),
      [make.values([3, 2, 0]).narrow(0, 0, 2)],
      {},
      { name: 'divisor narrowed, 0 after it' },
    ),
  ];
};

/**
 * A Python int divisor of a uint8 tensor computes in uint8, where 256 is 0: PyTorch raises ZeroDivisionError (the
 * check reads the divisor's low bits).
 */
export const wrappedZeroDivisor = (ctx: SampleContext): ErrorInput[] => [
  {
    sample: sample(
      maker({ ...ctx, dtype: 'uint8' }).values([5, 7]),
      [256],
      {},
      { name: 'Python int divisor 256 on uint8 (0 in the compute dtype)' },
    ),
    code: 'E_ZERO_DIVISION',
    regex: /integer division by zero/,
    valueDependent: 'webgpu, like CUDA, checks no integer divisor (its kernels cannot raise)',
  },
];

/**
 * maximum / minimum on ties, with gradients: the gradient splits evenly between equal operands (what a central
 * difference measures there too), so a tie is where a wrong split or sign shows.
 */
export const tieSamples = (ctx: SampleContext): SampleInput[] => {
  if (DTYPE_INFO[ctx.dtype].kind !== 'float') return [];
  const make = maker(ctx);
  return [
    sample(
      make.values([1, 2, -3, 4]),
      [make.values([1, 5, -3, 0])],
      {},
      {
        name: 'ties',
        firstOrderOnly: 'the gradient jumps from half to all of it on either side of a tie',
      },
    ),
  ];
};

/**
 * float64 floor division where (a - fmod(a, b)) / b lands below or above the integer (-5 // 0.2 is -25, with
 * (a - mod) / b = -25.000000000000004) or exactly halfway (c10's div_floor_floating rounds only above 0.5).
 */
export const floorDivSamples = (ctx: SampleContext): SampleInput[] =>
  ctx.dtype === 'float64' && !ctx.requiresGrad
    ? [
        sample(
          tensor([-5, -5, -4.8, -4018752086352627.5], { dtype: 'float64' }),
          [tensor([0.2, -1.4, -0.7, 0.9124473271018474], { dtype: 'float64' })],
          { rounding_mode: 'floor' },
          { name: 'floor division rounding (fmod quotient off the integer, and halfway)' },
        ),
      ]
    : [];

/** Extra sample sets with keyword arguments, appended to an OpInfo's samples where the dtype allows them. */
export function withKwargSamples(
  info: OpInfo,
  variants: readonly {
    kwargs: Record<string, unknown>;
    opts?: BinaryOptions;
    when?: (d: DType) => boolean;
  }[],
): OpInfo {
  return {
    ...info,
    sampleInputs: (ctx) => [
      ...info.sampleInputs(ctx),
      ...variants
        .filter((v) => !v.when || v.when(ctx.dtype))
        .flatMap((v) =>
          binarySamples({ noSpecials: true, noScalar: true, ...v.opts, kwargs: v.kwargs })(ctx).slice(0, 3),
        ),
    ],
  };
}
