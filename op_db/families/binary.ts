/**
 * Sample generators for binary pointwise ops: same shape, broadcast rhs / both, Python scalar rhs, 0-dim rhs,
 * zero-size, 4-D (channels_last), 0-dim both, and a special-values cross product for floats.
 */
import { DTYPE_INFO, type DType, float, tensor } from '../../src/runtime/index.ts';
import { type MakeOptions, maker, SPECIAL_FLOATS } from '../make.ts';
import type { SampleContext, SampleInput } from '../types.ts';
import { sample } from './unary.ts';

export interface BinaryOptions {
  readonly lhs?: MakeOptions;
  readonly rhs?: MakeOptions;
  readonly kwargs?: Readonly<Record<string, unknown>>;
  /** No Python-scalar rhs sample (ops whose schema takes Tensor only, e.g. bitwise on floats). */
  readonly noScalar?: boolean;
  readonly noSpecials?: boolean;
  /** Value ranges for gradient samples (ctx.requiresGrad), where the op is smooth (pow: positive bases). */
  readonly gradLhs?: MakeOptions;
  readonly gradRhs?: MakeOptions;
  /**
   * An int64 sample beyond 2^53 (webgpu does not compute int64), for ops whose float64 reference still agrees
   * with the exact result on these pairs (add, sub, mul): a kernel that went through float64 rounds.
   */
  readonly beyondFloat64?: boolean;
  /** A Python scalar of another kind than the tensor (int tensor + float), where result_type crosses kinds. */
  readonly mixedScalar?: boolean;
  /** float16 operands and results below 2^-14 (subnormals), whose rounding takes a path of its own. */
  readonly subnormals?: boolean;
}

/** float16 subnormal operand pairs (the smallest is 2^-24 ~ 6e-8): sums, differences, products round there. */
const SUBNORMALS: readonly (readonly number[])[] = [
  [3.05e-5, 1.2e-6, -4.1e-7, 2.4e-7, 5.0e-5, 6.1e-5],
  [2.9e-5, 3.3e-7, 1.5e-7, -6.0e-8, 1.7e-5, 0.25],
];

const P53 = 2n ** 53n;
const P62 = 2n ** 62n;
/**
 * Each pair's exact add, sub and mul rounds to float64 the way float64 arithmetic on the rounded inputs does (so
 * the float64 reference agrees), while float64 arithmetic converted back differs from the exact int64 result.
 */
const BEYOND_FLOAT64: readonly [readonly bigint[], readonly bigint[]] = [
  [P53 + 1n, -P62 - 3n, P62 + 3n],
  [0n, 1n, -1n],
];

/**
 * A Python scalar of another kind than the dtype: float for ints (int32 + 2.5 is float32, the default dtype, not
 * float64), int for bool (-> int64), int for floats and complex (the tensor's dtype stays).
 */
function crossKindScalar(dtype: DType): unknown {
  const kind = DTYPE_INFO[dtype].kind;
  return kind === 'int' ? float(2.5) : 3;
}

/** A Python scalar of the dtype's kind (int for ints, float for floats, bool for bool). */
function pythonScalar(dtype: DType): unknown {
  const kind = DTYPE_INFO[dtype].kind;
  if (kind === 'bool') return true;
  if (kind === 'int') return 3;
  return float(2.5);
}

export const binarySamples =
  (o: BinaryOptions = {}) =>
  (ctx: SampleContext): SampleInput[] => {
    const make = maker(ctx);
    const kw = o.kwargs ?? {};
    const [lhs, rhs] = ctx.requiresGrad ? [o.gradLhs ?? o.lhs, o.gradRhs ?? o.rhs] : [o.lhs, o.rhs];
    const pair = (a: readonly number[], b: readonly number[], name: string, broadcastsInput = false) =>
      sample(make(a, lhs), [make(b, rhs)], { ...kw }, { name, broadcastsInput });
    const out = [
      pair([3, 4], [3, 4], 'same shape'),
      pair([3, 4], [4], 'broadcast rhs'),
      pair([2, 1, 4], [3, 1], 'broadcast both', true),
      pair([3, 4], [], '0-dim rhs'),
      pair([0, 4], [4], 'zero-size'),
      pair([2, 3, 2, 2], [2, 3, 2, 2], '4-D'),
      pair([], [], '0-dim both'),
    ];
    if (!o.noScalar && !(o.rhs?.excludeZero && DTYPE_INFO[ctx.dtype].kind === 'bool')) {
      out.push(
        sample(make([3, 4], lhs), [pythonScalar(ctx.dtype)], { ...kw }, { name: 'python scalar rhs' }),
      );
    }
    if (o.mixedScalar) {
      const scalar = crossKindScalar(ctx.dtype);
      out.push(sample(make([3, 4], lhs), [scalar], { ...kw }, { name: 'python scalar rhs of another kind' }));
    }
    if (o.beyondFloat64 && ctx.dtype === 'int64') {
      const [a, b] = BEYOND_FLOAT64.map((v) => tensor(v as bigint[], { dtype: 'int64' }));
      out.push(sample(a, [b], { ...kw }, { name: 'int64 beyond 2^53' }));
    }
    if (o.subnormals && ctx.dtype === 'float16') {
      const [a, b] = SUBNORMALS.map((v) => tensor([...v], { dtype: 'float16' }));
      out.push(sample(a, [b], { ...kw }, { name: 'float16 subnormals' }));
    }
    if (!o.noSpecials && !ctx.requiresGrad && DTYPE_INFO[ctx.dtype].kind === 'float') {
      const n = SPECIAL_FLOATS.length;
      const a = SPECIAL_FLOATS.flatMap((x) => new Array(n).fill(x));
      const b = Array.from({ length: n * n }, (_, i) => SPECIAL_FLOATS[i % n]);
      out.push(sample(make.values(a), [make.values(b)], { ...kw }, { name: 'special values' }));
    }
    return out;
  };

/**
 * Integer division by a zero divisor (remainder, fmod, div with a rounding mode), one sample per kwargs: the
 * zero sits in the middle, after an element a kernel that checks as it goes would already have written, so
 * the errors oracle sees a half-updated in-place self or out= tensor. Fixed int32 (float division by zero
 * does not raise); value-dependent, so cpu only.
 */
export const zeroDivisorErrors = (kwargsList: readonly Readonly<Record<string, unknown>>[]) =>
  kwargsList.map((kwargs): import('../types.ts').ErrorInput => ({
    sample: sample(
      tensor([5, 6, 7], { dtype: 'int32' }),
      [tensor([2, 0, 3], { dtype: 'int32' })],
      { ...kwargs },
      { name: 'integer zero divisor' },
    ),
    code: 'E_ZERO_DIVISION',
    regex: /integer division by zero/,
    valueDependent: 'a zero divisor is a tensor value, which only the device reads',
  }));

/**
 * Shapes that do not broadcast; an in-place self that would need broadcasting; with `zeroDivisor`, integer
 * division by zero under each of those kwargs; with `refusesNumbers`, a Python number for `other` (a TypeError
 * in PyTorch for ops without a Scalar overload).
 */
export const binaryErrors =
  (zeroDivisor: readonly Readonly<Record<string, unknown>>[] = [], refusesNumbers = false) =>
  (ctx: SampleContext): import('../types.ts').ErrorInput[] => {
    const make = maker(ctx);
    const errs: import('../types.ts').ErrorInput[] = [
      {
        sample: sample(make([3, 4]), [make([5])]),
        code: 'E_SHAPE_MISMATCH',
        regex:
          /The size of tensor a \(4\) must match the size of tensor b \(5\) at non-singleton dimension 1/,
      },
      {
        sample: sample(make([2, 3]), [make([3, 2])]),
        code: 'E_SHAPE_MISMATCH',
        regex: /must match the size of tensor b/,
      },
      ...zeroDivisorErrors(zeroDivisor),
    ];
    if (refusesNumbers)
      errs.push({
        sample: sample(make([3, 4]), [pythonScalar(ctx.dtype)], {}, { name: 'python scalar rhs' }),
        code: 'E_NO_OVERLOAD',
        regex: /argument 'other': expected Tensor, got (int|float|bool)/,
      });
    return errs;
  };
