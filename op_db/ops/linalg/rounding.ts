/**
 * The products' bfloat16 samples that pin where PyTorch 1.13's CPU loops round (the runtime's
 * ops/linalg/product_order.ts): the long-k and cancelling-k sums, a column-major operand, and the "which loop" probes.
 */
import { gen } from '../../families/shape.ts';
import { sample } from '../../families/unary.ts';
import type { MakeOptions } from '../../make.ts';
import { numelOf } from '../../refs/tensor.ts';
import type { SampleContext, SampleInput } from '../../types.ts';

export type Shape = readonly number[];

/** Names the long-k samples (tests/unit/gaps_numerics.test.ts finds one by it). */
export const LONG_K = 'long k';
/** Names the cancelling-k samples. */
const CANCELLING_K = 'cancelling k';

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
 * An op's bfloat16 rounding samples (none for other dtypes but the column-major one, drawn for every dtype):
 * `long` is its long-k operand pair, `o` the range of its random operands.
 */
export function roundingSamples(
  op: string,
  ctx: SampleContext,
  o: MakeOptions,
  long?: readonly [Shape, Shape],
): SampleInput[] {
  const columnMajor = COLUMN_MAJOR[op];
  return [
    ...(long ? longK(ctx, ...long) : []),
    ...(columnMajor ? [columnMajorSample(ctx, ...columnMajor, o)] : []),
    ...loopProbes(ctx, LOOP_PROBES[op] ?? []),
  ];
}
