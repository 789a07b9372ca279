/**
 * OpInfos for the products: mm, bmm, mv, dot, matmul (every matmul dispatch path: dot, mv, mm, folded 3-D,
 * batched with broadcasting). One float64 reference (refs/linalg.ts) serves all of them.
 */
import { DTYPE_GROUPS, type DType, type ErrorCode, type Tensor } from '../../src/runtime/index.ts';
import { claims, errorCase, f32, gen } from '../families/shape.ts';
import { sample } from '../families/unary.ts';
import { opInfo } from '../info.ts';
import type { MakeOptions } from '../make.ts';
import { productRef } from '../refs/linalg.ts';
import { numelOf } from '../refs/tensor.ts';
import type { ErrorInput, OpInfo, SampleContext, SampleInput } from '../types.ts';

/**
 * PyTorch 1.13 CPU: addmm_impl_cpu_ / bmm / addmv_impl_cpu / dot have no bool or half kernels. The meta functions
 * check shapes and dtypes only, so meta takes every dtype.
 */
const LINALG_CPU: readonly DType[] = DTYPE_GROUPS.all.filter((d) => d !== 'bool' && d !== 'float16');

/** Names the long-k samples (deviations.ts matches it). */
export const LONG_K = 'long k';
/** Names the cancelling-k samples (deviations.ts matches it). */
export const CANCELLING_K = 'cancelling k';

/**
 * bfloat16 only, k = 64: a 256 then 63 ones. bfloat16's spacing at 256 is 2, so 256 + 1 is a tie that rounds back
 * to 256: PyTorch 1.13's CPU loops, which round each partial sum to bfloat16, stay at 256 where the sum rounded
 * once is 320 (its float32 path, gemm with a transposed first operand, gives 320). And 2^24, 1, -2^24 then zeros:
 * the exact sum is 1, and both of PyTorch's paths lose the 1 in 2^24 + 1 and give 0. The golden oracle holds the
 * runtime to those values; exact math (the reference oracle) differs by design.
 */
const PINNED =
  "PyTorch 1.13's CPU bfloat16 products round each partial sum (or sum in float32): 256 plus 63 ones stays 256, " +
  '2^24 + 1 - 2^24 gives 0, where exact math gives 320 and 1';

function longK(ctx: SampleContext, a: Shape, b: Shape): SampleInput[] {
  if (ctx.dtype !== 'bfloat16') return [];
  const { make } = gen(ctx);
  const k = a[a.length - 1];
  const lhs = make.values(new Array(numelOf(a)).fill(1), a);
  const column = Array.from({ length: k }, (_, p) => (p === 0 ? 256 : 1));
  const cols = b[b.length - 1];
  const columnOf = (c: readonly number[]) =>
    make.values(
      Array.from({ length: numelOf(b) }, (_, i) => c[Math.floor(i / cols) % k]),
      b,
    );
  const cancelling = Array.from({ length: k }, (_, p) => [2 ** 24, 1, -(2 ** 24)][p] ?? 0);
  const shapes = `[${a.join(', ')}] @ [${b.join(', ')}]`;
  return [
    sample(lhs, [columnOf(column)], {}, { name: `${LONG_K} ${shapes}`, roundingPinned: PINNED }),
    sample(lhs, [columnOf(cancelling)], {}, { name: `${CANCELLING_K} ${shapes}`, roundingPinned: PINNED }),
  ];
}

type Shape = readonly number[];

/**
 * b stored column-major (the transpose of a contiguous tensor): PyTorch 1.13's addmm_impl_cpu_ then passes it to
 * gemm as a transposed first operand, whose bfloat16 loop sums in float32 (product_order.ts), where the other
 * layouts step in bfloat16.
 */
function columnMajorSample(ctx: SampleContext, a: Shape, b: Shape, o: MakeOptions): SampleInput {
  const { make } = gen(ctx);
  const mat2 = make(swapLast(b), o).transpose(-2, -1);
  return sample(make(a, o), [mat2], {}, { name: `[${a.join(', ')}] @ [${b.join(', ')}] (column-major)` });
}

const swapLast = (s: Shape): Shape => [...s.slice(0, -2), s[s.length - 1], s[s.length - 2]];

/** A probe of which bfloat16 loop PyTorch takes: operand shapes, and which are stored column-major. */
interface LoopProbe {
  readonly a: Shape;
  readonly b: Shape;
  readonly aCol?: boolean;
  readonly bCol?: boolean;
}

const LOOP =
  "PyTorch 1.13's bfloat16-step loops keep 256 + 1 at 256, its float32 loop gives 256 + (k - 1): exact math " +
  'differs from the first';

/**
 * bfloat16 only: ones times a b whose first row along k is 256 and the rest ones. PyTorch's bfloat16-step loops
 * give 256 (each + 1 is a tie that rounds back), its float32 loop 256 + (k - 1) rounded once, so each probe's
 * recorded golden says which loop PyTorch 1.13 took for those shapes and strides, and product_order.ts must agree.
 */
function loopProbes(ctx: SampleContext, probes: readonly LoopProbe[]): SampleInput[] {
  if (ctx.dtype !== 'bfloat16') return [];
  const { make } = gen(ctx);
  const row = (kk: number) => (kk === 0 ? 256 : 1);
  const stored = (shape: Shape, col: boolean | undefined, at: (i: number, mem: Shape) => number) => {
    const mem = col && shape.length >= 2 ? swapLast(shape) : shape;
    const t = make.values(
      Array.from({ length: numelOf(shape) }, (_, i) => at(i, mem)),
      mem,
    );
    return mem === shape ? t : t.transpose(-2, -1);
  };
  return probes.map(({ a, b, aCol, bCol }) => {
    const k = a[a.length - 1];
    // Memory order: a row-major b has k along its second-to-last dim, a column-major one along its last.
    const rhs = stored(b, bCol, (i, mem) =>
      b.length === 1 ? row(i) : bCol ? row(i % k) : row(Math.floor(i / mem[mem.length - 1]) % k),
    );
    const desc = [aCol ? 'a column-major' : '', bCol ? 'b column-major' : ''].filter(Boolean).join(', ');
    return sample(
      stored(a, aCol, () => 1),
      [rhs],
      {},
      {
        name: `which loop: [${a.join(', ')}] @ [${b.join(', ')}]${desc ? ` (${desc})` : ''}`,
        roundingPinned: LOOP,
      },
    );
  });
}

/** The column-major sample per op: bmm's has 400 multiply-adds per matrix, the least that takes gemm's loops. */
const COLUMN_MAJOR: Readonly<Record<string, readonly [Shape, Shape]>> = {
  mm: [
    [4, 8],
    [8, 6],
  ],
  bmm: [
    [2, 5, 10],
    [2, 10, 8],
  ],
  matmul: [
    [2, 3, 4],
    [4, 5],
  ],
};

/**
 * The loop probes per op: every operand layout addmm_impl_cpu_ tells apart (row- and column-major, size-1 dims),
 * bmm on both sides of its 400 multiply-adds, and each of matmul's paths (1-D operands, folds either way, batches
 * that reshape as views or copies).
 */
const LOOP_PROBES: Readonly<Record<string, readonly LoopProbe[]>> = {
  mm: [
    { a: [2, 3], b: [3, 4] },
    { a: [2, 3], b: [3, 4], bCol: true },
    { a: [2, 3], b: [3, 4], aCol: true },
    { a: [2, 3], b: [3, 4], aCol: true, bCol: true },
    { a: [1, 3], b: [3, 4], bCol: true },
    { a: [2, 3], b: [3, 1], bCol: true },
    { a: [1, 3], b: [3, 1], aCol: true },
  ],
  bmm: [
    { a: [2, 2, 3], b: [2, 3, 4], bCol: true },
    { a: [2, 5, 10], b: [2, 10, 8] },
    { a: [2, 5, 10], b: [2, 10, 8], bCol: true },
    { a: [2, 5, 10], b: [2, 10, 8], aCol: true },
    { a: [2, 5, 10], b: [2, 10, 8], aCol: true, bCol: true },
  ],
  mv: [
    { a: [4, 3], b: [3] },
    { a: [4, 3], b: [3], aCol: true },
    { a: [20, 20], b: [20] },
    { a: [20, 20], b: [20], aCol: true },
  ],
  dot: [{ a: [3], b: [3] }],
  matmul: [
    { a: [3], b: [3, 4] },
    { a: [3], b: [3, 4], bCol: true },
    { a: [2, 3], b: [3, 4], bCol: true },
    { a: [2, 2, 3], b: [3, 4], bCol: true },
    { a: [2, 2, 3], b: [3, 4], aCol: true },
    { a: [4, 3], b: [2, 3, 5] },
    { a: [4, 3], b: [2, 3, 5], bCol: true },
    { a: [3], b: [2, 3, 5] },
    { a: [2, 5, 10], b: [10] },
    { a: [20, 20], b: [20], aCol: true },
    { a: [2, 5, 10], b: [2, 10, 8], bCol: true },
    { a: [2, 5, 10], b: [2, 10, 8], aCol: true },
    { a: [2, 1, 5, 10], b: [3, 10, 8], bCol: true },
    { a: [1, 5, 10], b: [2, 10, 8], bCol: true },
  ],
};

/**
 * Pairs of operand shapes. `degenerate` pairs (zero-size output or k = 0) return before PyTorch's dtype
 * dispatch, so they also run on bool / float16; they are generated only for the claimed dtypes.
 */
function productSamples(
  pairs: readonly (readonly [Shape, Shape])[],
  degenerate: readonly (readonly [Shape, Shape])[],
  long?: readonly [Shape, Shape],
  columnMajor?: readonly [Shape, Shape],
  probes: readonly LoopProbe[] = [],
) {
  return (ctx: SampleContext): SampleInput[] => {
    const { make } = gen(ctx);
    const o: MakeOptions = { low: ctx.dtype === 'uint8' ? 0 : -3, high: 3 };
    const all = claims(ctx, LINALG_CPU) ? [...pairs, ...degenerate] : pairs;
    return [
      ...all.map(([a, b]) =>
        sample(make(a, o), [make(b, o)], {}, { name: `[${a.join(', ')}] @ [${b.join(', ')}]` }),
      ),
      ...(long ? longK(ctx, ...long) : []),
      ...(columnMajor ? [columnMajorSample(ctx, ...columnMajor, o)] : []),
      ...loopProbes(ctx, probes),
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
    sampleInputs: productSamples(pairs, degenerate, long, COLUMN_MAJOR[name], LOOP_PROBES[name]),
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
