/**
 * OpInfos for the products: mm, bmm, mv, dot, matmul (every matmul dispatch path: dot, mv, mm, folded 3-D,
 * batched with broadcasting). One float64 reference (refs/linalg.ts) serves all of them.
 */
import { DTYPE_GROUPS, type DType, type ErrorCode, type Tensor } from '../../../src/runtime/index.ts';
import { claims, errorCase, f32, gen } from '../../families/shape.ts';
import { sample } from '../../families/unary.ts';
import { opInfo } from '../../info.ts';
import type { MakeOptions } from '../../make.ts';
import { productRef } from '../../refs/linalg.ts';
import type { ErrorInput, OpInfo, SampleContext, SampleInput } from '../../types.ts';
import { roundingSamples, type Shape } from './rounding.ts';

/**
 * PyTorch 1.13 CPU: addmm_impl_cpu_ / bmm / addmv_impl_cpu / dot have no bool or half kernels. The meta functions
 * check shapes and dtypes only, so meta takes every dtype.
 */
const LINALG_CPU: readonly DType[] = DTYPE_GROUPS.all.filter((d) => d !== 'bool' && d !== 'float16');

/**
 * Pairs of operand shapes. `degenerate` pairs (zero-size output or k = 0) return before PyTorch's dtype
 * dispatch, so they also run on bool / float16; they are generated only for the claimed dtypes.
 */
function productSamples(
  name: string,
  pairs: readonly (readonly [Shape, Shape])[],
  degenerate: readonly (readonly [Shape, Shape])[],
  long?: readonly [Shape, Shape],
) {
  return (ctx: SampleContext): SampleInput[] => {
    const { make } = gen(ctx);
    const o: MakeOptions = { low: ctx.dtype === 'uint8' ? 0 : -3, high: 3 };
    const all = claims(ctx, LINALG_CPU) ? [...pairs, ...degenerate] : pairs;
    return [
      ...all.map(([a, b]) =>
        sample(make(a, o), [make(b, o)], {}, { name: `[${a.join(', ')}] @ [${b.join(', ')}]` }),
      ),
      ...roundingSamples(name, ctx, o, long),
      ...unclaimedDegenerate(ctx, degenerate),
    ];
  };
}

/**
 * The degenerate pairs on bool and float16 operands, in the float32 cpu instances (a claimed dtype, so every
 * oracle expects them to run): PyTorch returns before its dtype dispatch, so they must not raise.
 */
function unclaimedDegenerate(
  ctx: SampleContext,
  degenerate: readonly (readonly [Shape, Shape])[],
): SampleInput[] {
  if (ctx.dtype !== 'float32' || ctx.device !== 'cpu' || ctx.requiresGrad) return [];
  const { make } = gen(ctx);
  return (['float16', 'bool'] as const).flatMap((dt) =>
    degenerate.map(([a, b]) =>
      sample(
        make(a).to(dt),
        [make(b).to(dt)],
        {},
        {
          name: `[${a.join(', ')}] @ [${b.join(', ')}] ${dt} (degenerate: before the dtype dispatch)`,
        },
      ),
    ),
  );
}

type Err = readonly [Shape, Shape, ErrorCode, RegExp, ('float64' | 'bool' | 'float16')?];

/** Error inputs: float32 operands, the second one cast when a dtype is given (mixed dtypes, bool, half). */
function productErrors(cases: readonly Err[]) {
  return (ctx: SampleContext): ErrorInput[] => {
    const f = f32(ctx);
    return cases.map(([a, b, code, regex, dtype]) => {
      const x = f(a);
      const y = f(b);
      const both = dtype === 'bool' || dtype === 'float16';
      return errorCase(both ? x.to(dtype) : x, [dtype ? y.to(dtype) : y], {}, code, regex);
    });
  };
}

/**
 * The reference is exact math; the runtime's bfloat16 products round where PyTorch 1.13's CPU loops do (each
 * product and partial sum, product_order.ts): k - 1 roundings of up to half an ulp of a partial sum. atol per op,
 * measured on the full tier's samples (largest need: bmm 0.061, mm and matmul 0.035, mv 0.0031, dot 0.00081).
 */
const BF16_STEPS_ATOL: Readonly<Record<string, number>> = {
  mm: 0.05,
  bmm: 0.08,
  mv: 0.016,
  dot: 4e-3,
  matmul: 0.05,
};

const SHAPE = 'E_SHAPE_MISMATCH';
const DTYPE = 'E_DTYPE_UNSUPPORTED';

function product(
  name: string,
  pairs: readonly (readonly [Shape, Shape])[],
  degenerate: readonly (readonly [Shape, Shape])[],
  errors: readonly Err[],
  long?: readonly [Shape, Shape],
): OpInfo {
  return opInfo({
    name,
    family: 'linalg',
    dtypes: LINALG_CPU,
    dtypesIf: { meta: DTYPE_GROUPS.all },
    sampleInputs: productSamples(name, pairs, degenerate, long),
    errorInputs: productErrors(errors),
    ref: productRef,
    resultDType: (s) => (s.input as Tensor).dtype,
    tolerances: { bfloat16: { rtol: 1.6e-2, atol: BF16_STEPS_ATOL[name] } },
    goldenExact: ['bfloat16'],
  });
}

const doubleOut = (ctx: SampleContext) => ({ out: f32(ctx)([0]).double() });

export const LINALG_OPINFOS: readonly OpInfo[] = [
  product(
    'mm',
    [
      [
        [3, 4],
        [4, 5],
      ],
      [
        [1, 3],
        [3, 1],
      ],
      [
        [5, 1],
        [1, 6],
      ],
      [
        [4, 8],
        [8, 2],
      ],
    ],
    [
      [
        [4, 0],
        [0, 3],
      ],
      [
        [0, 3],
        [3, 2],
      ],
      [
        [2, 3],
        [3, 0],
      ],
    ],
    [
      [[2, 3], [4, 5], SHAPE, /mat1 and mat2 shapes cannot be multiplied \(2x3 and 4x5\)/],
      [[2, 3], [3, 2], DTYPE, /expected scalar type Float but found Double/, 'float64'],
      [[2, 3], [3], SHAPE, /mat2 must be a matrix/],
      [[3], [3, 2], SHAPE, /self must be a matrix/],
      [[2, 3], [3, 2], DTYPE, /"addmm_impl_cpu_" not implemented for 'Bool'/, 'bool'],
      [[2, 3], [3, 2], DTYPE, /"addmm_impl_cpu_" not implemented for 'Half'/, 'float16'],
    ],
    [
      [2, 64],
      [64, 3],
    ],
  ),
  product(
    'bmm',
    [
      [
        [2, 3, 4],
        [2, 4, 5],
      ],
      [
        [1, 2, 3],
        [1, 3, 2],
      ],
      [
        [3, 1, 4],
        [3, 4, 1],
      ],
    ],
    [
      [
        [0, 2, 3],
        [0, 3, 4],
      ],
      [
        [3, 2, 0],
        [3, 0, 2],
      ],
    ],
    [
      [
        [2, 3, 4],
        [3, 4, 5],
        SHAPE,
        /Expected size for first two dimensions of batch2 tensor to be: \[2, 4\] but got: \[3, 4\]\./,
      ],
      [[2, 3], [2, 3, 4], SHAPE, /batch1 must be a 3D tensor/],
      [[2, 3, 4], [4, 5], SHAPE, /batch2 must be a 3D tensor/],
      [[2, 3, 4], [2, 4, 5], DTYPE, /expected scalar type Float but found Double/, 'float64'],
      [[2, 3, 4], [2, 4, 5], DTYPE, /"bmm" not implemented for 'Half'/, 'float16'],
    ],
    [
      [1, 2, 64],
      [1, 64, 3],
    ],
  ),
  product(
    'mv',
    [
      [[3, 4], [4]],
      [[1, 1], [1]],
      [[5, 7], [7]],
    ],
    [
      [[0, 3], [3]],
      [[3, 0], [0]],
    ],
    [
      [[3, 4], [5], SHAPE, /size mismatch, got 3, 3x4,5/],
      [[3, 4], [3, 4], SHAPE, /vector \+ matrix @ vector expected, got 1, 2, 2/],
      [[3, 4], [4], DTYPE, /expected scalar type Float but found Double/, 'float64'],
      [[3, 4], [4], DTYPE, /"addmv_impl_cpu" not implemented for 'Bool'/, 'bool'],
    ],
  ),
  product(
    'dot',
    [
      [[5], [5]],
      [[1], [1]],
      [[8], [8]],
      // dot dispatches on dtype even for empty vectors, so this one is not degenerate.
      [[0], [0]],
    ],
    [],
    [
      [[2, 2], [2], SHAPE, /1D tensors expected, but got 2D and 1D tensors/],
      [
        [2],
        [3],
        SHAPE,
        /inconsistent tensor size, expected tensor \[2\] and src \[3\] to have the same number of elements, but got 2 and 3 elements respectively/,
      ],
      [
        [2],
        [2],
        DTYPE,
        /dot : expected both vectors to have same dtype, but found Float and Double/,
        'float64',
      ],
      [[2], [2], DTYPE, /"dot" not implemented for 'Bool'/, 'bool'],
      [[2], [2], DTYPE, /"dot" not implemented for 'Half'/, 'float16'],
    ],
  ),
  product(
    'matmul',
    [
      [[4], [4]],
      [[3, 4], [4]],
      [[4], [4, 3]],
      [
        [3, 4],
        [4, 5],
      ],
      [
        [2, 3, 4],
        [4, 5],
      ],
      [[2, 3, 4], [4]],
      [[4], [2, 4, 3]],
      [
        [3, 4],
        [2, 4, 5],
      ],
      [
        [2, 3, 4],
        [2, 4, 5],
      ],
      [
        [2, 1, 3, 4],
        [3, 4, 2],
      ],
    ],
    [
      [
        [0, 3],
        [3, 2],
      ],
      [
        [2, 3, 0],
        [0, 4],
      ],
      [[0, 2, 3], [3]],
    ],
    [
      [[], [2, 3], SHAPE, /both arguments to matmul need to be at least 1D, but they are 0D and 2D/],
      [[3], [2, 3], SHAPE, /mat1 and mat2 shapes cannot be multiplied \(1x3 and 2x3\)/],
      [[2, 3], [2], SHAPE, /size mismatch, got 2, 2x3,2/],
      [[2, 6, 5], [4, 3], SHAPE, /mat1 and mat2 shapes cannot be multiplied \(12x5 and 4x3\)/],
      [
        [2, 3, 4],
        [3, 4, 5],
        SHAPE,
        /The size of tensor a \(2\) must match the size of tensor b \(3\) at non-singleton dimension 0/,
      ],
      [[2, 3], [3, 2], DTYPE, /expected scalar type Float but found Double/, 'float64'],
      [[4], [4], DTYPE, /"dot" not implemented for 'Half'/, 'float16'],
    ],
    [
      [2, 64],
      [64, 3],
    ],
  ),
].map((info) => withOutErrors(info));

/** out= of another dtype: mm / bmm / mv / matmul check it exactly, dot with its own message. */
function withOutErrors(info: OpInfo): OpInfo {
  const [a, b]: [Shape, Shape] =
    info.name === 'dot'
      ? [[2], [2]]
      : info.name === 'bmm'
        ? [
            [1, 2, 2],
            [1, 2, 2],
          ]
        : info.name === 'mv'
          ? [[2, 2], [2]]
          : [
              [2, 2],
              [2, 2],
            ];
  const regex =
    info.name === 'dot'
      ? /result dtype Double does not match input dtype Float/
      : /Expected out tensor to have dtype float, but got double instead/;
  return {
    ...info,
    errorInputs: (ctx) => {
      const f = f32(ctx);
      return [...info.errorInputs(ctx), errorCase(f(a), [f(b)], doubleOut(ctx), 'E_RESULT_TYPE', regex)];
    },
  };
}
