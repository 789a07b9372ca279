/** OpInfos for binary pointwise ops: one line each (name, reference, claimed dtypes, sample options). */
import {
  DTYPE_GROUPS,
  DTYPE_INFO,
  type DType,
  float,
  takesNumbersAsTensors,
  tensor,
} from '../../../src/runtime/index.ts';
import { binaryArbitrary } from '../../families/arbitraries.ts';
import { type BinaryOptions, binaryErrors, binarySamples } from '../../families/binary.ts';
import { sample } from '../../families/unary.ts';
import { opInfo } from '../../info.ts';
import { maker } from '../../make.ts';
import { binaryRef } from '../../refs/pointwise.ts';
import { type PromotionRule, pointwiseResultDType } from '../../refs/promotion.ts';
import { isRefTensor } from '../../refs/shape.ts';
import { intPowWrap } from '../../refs/special.ts';
import type { ErrorInput, OpInfo, RefSample, SampleContext, SampleInput } from '../../types.ts';
import { alphaErrors, negativeIntExponent } from './binary_errors.ts';

const ALL = DTYPE_GROUPS.all;
const NO_COMPLEX = DTYPE_GROUPS.allButComplex;
const NO_BOOL = DTYPE_GROUPS.allButBool;
const REAL_NUMERIC = DTYPE_GROUPS.realNumeric;
const FLOATS = DTYPE_GROUPS.floating;
const INT_BOOL = DTYPE_GROUPS.integralAndBool;

type CRef = (ar: number, ai: number, br: number, bi: number, s: RefSample) => [number, number];

interface BinarySpec {
  readonly dtypes: readonly DType[];
  readonly complexRef?: CRef;
  readonly samples?: BinaryOptions;
  readonly intToFloat?: boolean;
  readonly name?: string;
  readonly rule?: PromotionRule;
  readonly exact?: boolean;
  /** Kwargs under which an integer zero divisor raises (one error input each). */
  readonly zeroDivisor?: readonly Readonly<Record<string, unknown>>[];
}

function binary(op: string, ref: (a: number, b: number, s: RefSample) => number, spec: BinarySpec): OpInfo {
  const lhs = spec.samples?.lhs;
  const rhs = spec.samples?.rhs;
  const bounds = (o?: { low?: number; high?: number; excludeZero?: boolean }) => ({
    min: o?.low,
    max: o?.high,
    excludeZero: o?.excludeZero,
  });
  return opInfo({
    name: spec.name ?? op,
    op,
    family: 'binary',
    dtypes: spec.dtypes,
    // A Python number for `other` binds only where PyTorch takes one (a Scalar overload, or add/sub/mul/div):
    // elsewhere (atan2, maximum, logical_and) it is an argument-parsing error, checked as one.
    sampleInputs: binarySamples({
      ...spec.samples,
      noScalar: spec.samples?.noScalar || !takesNumbersAsTensors(op),
    }),
    errorInputs: binaryErrors(spec.zeroDivisor, !takesNumbersAsTensors(op)),
    arbitrary: binaryArbitrary(bounds(lhs), bounds(rhs), spec.samples?.kwargs),
    ref: binaryRef(ref, spec.complexRef),
    resultDType: (s) => pointwiseResultDType(s, spec.rule ?? (spec.intToFloat ? 'intToFloat' : 'promote')),
    flags: { promotesIntToFloat: spec.intToFloat ?? false, exactRounding: spec.exact ?? false },
  });
}

/** alpha as a number: a Scalar, a number, or a 0-dim tensor bound to the Scalar parameter (a RefTensor here). */
const alpha = (s: RefSample) => {
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
const tensorAlphaSamples = (ctx: SampleContext): SampleInput[] => {
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
const nonZeroRhs = { rhs: { excludeZero: true } };
/**
 * remainder/fmod jump where self/other crosses an integer: gradient samples keep self/other in (1.27, 1.92),
 * away from the jumps but not below 1, where floor / trunc(self/other) would be 0 and other's gradient
 * (-grad * floor(self/other)) 0 whatever its sign.
 */
const AWAY_FROM_JUMPS = { gradLhs: { low: 3.3, high: 4.4 }, gradRhs: { low: 2.3, high: 2.6 } };
const nanAware = (f: (a: number, b: number) => number) => (a: number, b: number) =>
  Number.isNaN(a) || Number.isNaN(b) ? Number.NaN : f(a, b);
const pyRemainder = (a: number, b: number) => {
  const r = a % b;
  return r !== 0 && r < 0 !== b < 0 ? r + b : r;
};
const cmp = (f: (a: number, b: number) => boolean) => (a: number, b: number) => (f(a, b) ? 1 : 0);
const truthy = (x: number) => x !== 0;

/** An OpInfo with extra samples appended (values a generated sample would hit only by chance). */
function withSamples(
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
const tiledSamples = (ctx: SampleContext): SampleInput[] => {
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
const tiedStrideSamples = (ctx: SampleContext): SampleInput[] => {
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
const addErrors = (ctx: SampleContext): ErrorInput[] => {
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
const narrowedDivisor = (ctx: SampleContext): SampleInput[] => {
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
const wrappedZeroDivisor = (ctx: SampleContext): ErrorInput[] => [
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
const tieSamples = (ctx: SampleContext): SampleInput[] => {
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
const floorDivSamples = (ctx: SampleContext): SampleInput[] =>
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
function withKwargSamples(
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
/** div keeps integer dtypes when it rounds (trunc/floor) and promotes them to float otherwise. */
const withDivRule = (info: OpInfo): OpInfo => ({
  ...info,
  resultDType: (s) => pointwiseResultDType(s, s.kwargs.rounding_mode ? 'promote' : 'intToFloat'),
});
/** Rounding modes exist for real non-bool dtypes (PyTorch: "div_floor_cpu" not implemented for 'Bool'). */
const roundable = (d: DType) => DTYPE_INFO[d].kind === 'int' || DTYPE_INFO[d].kind === 'float';
const intAlpha = (d: DType) => DTYPE_INFO[d].kind === 'int';
const floatAlpha = (d: DType) => DTYPE_INFO[d].kind === 'float' || DTYPE_INFO[d].kind === 'complex';

/** C's pow (what PyTorch computes): 1 ** y and x ** 0 are 1 even for NaN, (-1) ** ±inf is 1; JS's ** says NaN. */
function cPow(a: number, b: number): number {
  if (b === 0 || a === 1) return 1;
  if (a === -1 && (b === Number.POSITIVE_INFINITY || b === Number.NEGATIVE_INFINITY)) return 1;
  return a ** b;
}

export const BINARY_OPINFOS: readonly OpInfo[] = [
  withSamples(
    withKwargSamples(
      binary('add', (a, b, s) => a + alpha(s) * b, {
        dtypes: ALL,
        samples: { beyondFloat64: true, mixedScalar: true, subnormals: true },
        exact: true,
        // alpha * other is a complex product (alpha + 0i), as in c10::complex: 0 * inf gives NaN like PyTorch.
        complexRef: (ar, ai, br, bi, s) => [ar + (alpha(s) * br - 0 * bi), ai + (alpha(s) * bi + 0 * br)],
      }),
      [
        { kwargs: { alpha: 2 }, when: intAlpha },
        { kwargs: { alpha: float(0.5) }, when: floatAlpha },
      ],
    ),
    (ctx) => [...tiledSamples(ctx), ...tiedStrideSamples(ctx)],
    (ctx) => [...addErrors(ctx), ...alphaErrors(ctx)],
  ),
  withSamples(
    withKwargSamples(
      binary('sub', (a, b, s) => a - alpha(s) * b, {
        dtypes: NO_BOOL,
        samples: { beyondFloat64: true, mixedScalar: true, subnormals: true },
        exact: true,
        complexRef: (ar, ai, br, bi, s) => [ar - (alpha(s) * br - 0 * bi), ai - (alpha(s) * bi + 0 * br)],
      }),
      [
        { kwargs: { alpha: -3 }, when: intAlpha },
        { kwargs: { alpha: float(1.5) }, when: floatAlpha },
      ],
    ),
    tensorAlphaSamples,
  ),
  binary('mul', (a, b) => a * b, {
    dtypes: ALL,
    samples: { beyondFloat64: true, mixedScalar: true, subnormals: true },
    exact: true,
    complexRef: (ar, ai, br, bi) => [ar * br - ai * bi, ar * bi + ai * br],
  }),
  withDivRule(
    withSamples(
      withKwargSamples(
        binary(
          'div',
          (a, b, s) => {
            const q = a / b;
            if (s.kwargs.rounding_mode === 'trunc') return Math.trunc(q);
            if (s.kwargs.rounding_mode === 'floor') return b === 0 ? q : Math.floor(q);
            return q;
          },
          {
            dtypes: ALL,
            intToFloat: true,
            exact: true,
            samples: { mixedScalar: true },
            zeroDivisor: [{ rounding_mode: 'trunc' }, { rounding_mode: 'floor' }],
            complexRef: (ar, ai, br, bi) => {
              const d = br * br + bi * bi;
              return [(ar * br + ai * bi) / d, (ai * br - ar * bi) / d];
            },
          },
        ),
        [
          { kwargs: { rounding_mode: 'trunc' }, opts: { rhs: { excludeZero: true } }, when: roundable },
          { kwargs: { rounding_mode: 'floor' }, opts: { rhs: { excludeZero: true } }, when: roundable },
        ],
      ),
      floorDivSamples,
    ),
  ),
  withSamples(
    binary('remainder', pyRemainder, {
      dtypes: REAL_NUMERIC,
      samples: { ...nonZeroRhs, ...AWAY_FROM_JUMPS },
      zeroDivisor: [{}],
    }),
    narrowedDivisor,
    wrappedZeroDivisor,
  ),
  binary('fmod', (a, b) => a % b, {
    dtypes: REAL_NUMERIC,
    exact: true,
    zeroDivisor: [{}],
    samples: { ...nonZeroRhs, ...AWAY_FROM_JUMPS },
  }),
  withSamples(
    binary(
      'pow',
      (a, b, s) => (DTYPE_INFO[s.input.dtype].kind === 'int' && b >= 0 ? intPowWrap(a, b) : cPow(a, b)),
      {
        dtypes: NO_BOOL,
        samples: {
          rhs: { low: 0, high: 4 },
          lhs: { low: -4, high: 4 },
          gradLhs: { low: 0.5, high: 3 },
          gradRhs: { low: -2, high: 2 },
        },
        complexRef: (ar, ai, br, bi) => {
          if (ar === 0 && ai === 0) return br === 0 && bi === 0 ? [1, 0] : [0, 0];
          const lr = Math.log(Math.hypot(ar, ai));
          const th = Math.atan2(ai, ar);
          const mag = Math.exp(br * lr - bi * th);
          return [mag * Math.cos(bi * lr + br * th), mag * Math.sin(bi * lr + br * th)];
        },
      },
    ),
    () => [],
    negativeIntExponent,
  ),
  withSamples(binary('maximum', nanAware(Math.max), { dtypes: NO_COMPLEX, exact: true }), tieSamples),
  withSamples(binary('minimum', nanAware(Math.min), { dtypes: NO_COMPLEX, exact: true }), tieSamples),
  binary('atan2', Math.atan2, { dtypes: NO_COMPLEX, intToFloat: true }),
  binary('hypot', (a, b) => Math.hypot(a, b), { dtypes: FLOATS }),
  binary('copysign', (a, b) => (b < 0 || Object.is(b, -0) ? -Math.abs(a) : Math.abs(a)), {
    dtypes: NO_COMPLEX,
    intToFloat: true,
    exact: true,
  }),
  binary(
    'eq',
    cmp((a, b) => a === b),
    { dtypes: ALL, rule: 'bool', complexRef: (ar, ai, br, bi) => [ar === br && ai === bi ? 1 : 0, 0] },
  ),
  binary(
    'ne',
    cmp((a, b) => a !== b),
    { dtypes: ALL, rule: 'bool', complexRef: (ar, ai, br, bi) => [ar !== br || ai !== bi ? 1 : 0, 0] },
  ),
  binary(
    'lt',
    cmp((a, b) => a < b),
    { dtypes: NO_COMPLEX, rule: 'bool' },
  ),
  binary(
    'le',
    cmp((a, b) => a <= b),
    { dtypes: NO_COMPLEX, rule: 'bool' },
  ),
  binary(
    'gt',
    cmp((a, b) => a > b),
    { dtypes: NO_COMPLEX, rule: 'bool' },
  ),
  binary(
    'ge',
    cmp((a, b) => a >= b),
    { dtypes: NO_COMPLEX, rule: 'bool' },
  ),
  binary(
    'logical_and',
    cmp((a, b) => truthy(a) && truthy(b)),
    {
      dtypes: ALL,
      rule: 'bool',
      complexRef: (ar, ai, br, bi) => [(truthy(ar) || truthy(ai)) && (truthy(br) || truthy(bi)) ? 1 : 0, 0],
    },
  ),
  binary(
    'logical_or',
    cmp((a, b) => truthy(a) || truthy(b)),
    {
      dtypes: ALL,
      rule: 'bool',
      complexRef: (ar, ai, br, bi) => [truthy(ar) || truthy(ai) || truthy(br) || truthy(bi) ? 1 : 0, 0],
    },
  ),
  binary(
    'logical_xor',
    cmp((a, b) => truthy(a) !== truthy(b)),
    {
      dtypes: ALL,
      rule: 'bool',
      complexRef: (ar, ai, br, bi) => [(truthy(ar) || truthy(ai)) !== (truthy(br) || truthy(bi)) ? 1 : 0, 0],
    },
  ),
  binary('bitwise_and', (a, b) => a & b, { dtypes: INT_BOOL }),
  binary('bitwise_or', (a, b) => a | b, { dtypes: INT_BOOL }),
  binary('bitwise_xor', (a, b) => a ^ b, { dtypes: INT_BOOL }),
];
