/**
 * OpInfos for adaptive average and max pooling in 1, 2 and 3 dims, called as torch.nn.functional calls them
 * (None entries of output_size keep the input's size; return_indices adds the flat indices). References follow
 * the documented windows, [floor(i * in / out), ceil((i + 1) * in / out)) per axis, in float64. Samples named
 * `windows ...` run aten's pooling kernels; `all-ones output` takes aten's mean shortcut, which has float16 and
 * bfloat16 kernels where the pooling kernels have none (op_db/deviations.ts).
 */
import { DTYPE_GROUPS, type Tensor } from '../../../../src/runtime/index.ts';
import { errorCase, exact, f32 } from '../../../families/shape.ts';
import { sample } from '../../../families/unary.ts';
import { opInfo } from '../../../info.ts';
import { maker } from '../../../make.ts';
import { numelOf, type RefTensor, refTensor } from '../../../refs/tensor.ts';
import type { ErrorInput, OpInfo, RefSample, SampleContext, SampleInput } from '../../../types.ts';

type Kind = 'avg' | 'max';
const FLOATS = DTYPE_GROUPS.floating;
type Size = number | readonly (number | null)[];

/** Output sizes with F's defaults: one int for every axis, None for the input's own size. */
function outSizes(x: RefTensor, size: Size, k: number): number[] {
  const spatial = x.shape.slice(x.shape.length - k);
  if (typeof size === 'number') return spatial.map(() => size);
  return size.map((s, a) => s ?? spatial[a]);
}

/** The windows' [start, end) per output position along an axis of `inSize` elements. */
const windows = (inSize: number, outSize: number) =>
  Array.from({ length: outSize }, (_, i) => [
    Math.floor((i * inSize) / outSize),
    Math.ceil(((i + 1) * inSize) / outSize),
  ]);

/** Every output position's window as the list of flat in-plane indices it covers, row-major. */
function windowMembers(spatial: readonly number[], out: readonly number[]): number[][] {
  let cells: number[][] = [[]];
  spatial.forEach((n, a) => {
    const w = windows(n, out[a]);
    cells = cells.flatMap((prefix) => w.map(([s, e]) => [...prefix, s, e]));
  });
  const strides = spatial.map((_, a) => numelOf(spatial.slice(a + 1)));
  return cells.map((ranges) => {
    let flat = [0];
    for (let a = 0; a < spatial.length; a++) {
      const [s, e] = [ranges[2 * a], ranges[2 * a + 1]];
      flat = flat.flatMap((f) => Array.from({ length: e - s }, (_, j) => f + (s + j) * strides[a]));
    }
    return flat;
  });
}

export function adaptiveRef(kind: Kind, k: number) {
  return (s: RefSample): RefTensor | RefTensor[] => {
    const x = s.input;
    const size = (s.args[0] ?? s.kwargs.output_size) as Size;
    const withIndices = Boolean(s.args[1] ?? s.kwargs.return_indices);
    const lead = x.shape.slice(0, x.shape.length - k);
    const spatial = x.shape.slice(lead.length);
    const out = outSizes(x, size, k);
    const members = windowMembers(spatial, out);
    const plane = numelOf(spatial);
    const planes = numelOf(lead);
    const values: number[] = [];
    const indices: number[] = [];
    for (let p = 0; p < planes; p++)
      for (const m of members) {
        const v = m.map((i) => x.re[p * plane + i]);
        if (kind === 'avg') {
          values.push(v.reduce((a, b) => a + b, 0) / v.length);
          continue;
        }
        // The maximum (its first occurrence); a NaN wins, and the last NaN is the one reported.
        let best = 0;
        v.forEach((e, j) => {
          if (e > v[best] || Number.isNaN(e)) best = j;
        });
        values.push(v[best]);
        indices.push(m[best]);
      }
    const shape = [...lead, ...out];
    const result = refTensor(shape, x.dtype, values);
    return kind === 'max' && withIndices ? [result, refTensor(shape, 'int64', indices)] : result;
  };
}

interface Case {
  readonly shape: readonly number[];
  readonly size: Size;
}

const describe = (c: Case) => `[${c.shape.join(', ')}] -> ${JSON.stringify(c.size)}`;

/** Cases per spatial rank: overlapping windows, unbatched with None, more outputs than inputs, an empty batch. */
const CASES: Record<number, readonly Case[]> = {
  1: [
    { shape: [1, 3, 7], size: 3 },
    { shape: [3, 5], size: [4] },
    { shape: [1, 2, 3], size: 5 },
    { shape: [0, 2, 4], size: 2 },
  ],
  2: [
    { shape: [1, 2, 4, 5], size: [3, 2] },
    { shape: [2, 3, 3], size: [null, 2] },
    { shape: [1, 2, 3, 3], size: 4 },
    { shape: [0, 2, 3, 3], size: [2, 2] },
  ],
  3: [
    { shape: [1, 1, 3, 3, 4], size: [2, 2, 3] },
    { shape: [1, 3, 3, 2], size: [null, 2, 1] },
    { shape: [0, 1, 2, 2, 2], size: [2, 1, 2] },
  ],
};

function adaptiveSamples(kind: Kind, k: number) {
  return (ctx: SampleContext): SampleInput[] => {
    const make = maker(ctx);
    const cases = CASES[k].filter(
      (c) => !(k === 1 && kind === 'max' && Array.isArray(c.size) && c.size.includes(null)),
    );
    const pooled = cases.map((c, i) =>
      sample(make(c.shape), [c.size], kind === 'max' && i === 0 ? { return_indices: true } : {}, {
        name: `windows ${describe(c)}`,
      }),
    );
    const spatial = [2, 3, 2].slice(0, k);
    // aten's mean shortcut also takes complex inputs, which the pooling kernels refuse: kept to the claimed dtypes.
    const ones = FLOATS.includes(ctx.dtype)
      ? [sample(make([2, 2, ...spatial]), [1], {}, { name: 'all-ones output (mean)' })]
      : [];
    const nan = Number.NaN;
    const inf = Number.NEGATIVE_INFINITY;
    // A NaN in a window wins (the last one's index), an all -inf window reports its first element.
    const special = sample(
      make.values(
        [1, nan, 3, nan, 2, 5, nan, 0, inf, inf, inf, inf],
        [1, 1, ...[1, 1, 12].slice(3 - k)].slice(0, 2 + k),
      ),
      [[1, 1, 3].slice(3 - k)],
      kind === 'max' ? { return_indices: true } : {},
      { name: 'windows with NaN and -inf' },
    );
    // Gradients (gradgradcheck is quadratic in numel): overlapping windows, unbatched with None, an empty batch.
    if (ctx.requiresGrad) return pooled.filter((_, i) => i !== 2);
    // An output size of 0 is allowed (>= 0) and gives an empty result; aten's avg path checks it itself.
    // PyTorch 1.13's 3d kernel has no bfloat16 and raises even then (the 'windows' deviation's reason).
    const zero = sample(
      make([1, 2, ...[2, 3, 3].slice(3 - k)]),
      [[0, 2, 1].slice(0, k)],
      {},
      {
        name: 'windows of a zero output size (empty result)',
      },
    );
    return kind === 'avg' ? [...pooled, ...ones, zero, special] : [...pooled, special];
  };
}

type ErrorRow = readonly [shape: readonly number[], size: Size, message: string];

const NON_EMPTY = 'Expected input to have non-zero size for non-batch dimensions, but input has sizes';
const dims1d = (op: string) =>
  `Expected 2 to 3 dimensions, but got 1-dimensional tensor for argument #1 'self' (while checking arguments for ${op})`;
const oneInt = (op: string) => `${op}() argument 'output_size' should contain one int (got 2)`;

/** PyTorch 1.13's messages, probed with torch (op_db is data: each row is one call and what it raises). */
const ERRORS: Record<string, readonly ErrorRow[]> = {
  adaptive_avg_pool1d: [
    [[5], 3, dims1d('adaptive_avg_pool1d')],
    [[3, 5], [2, 3], oneInt('adaptive_avg_pool1d')],
    [[2, 3, 0], 2, `adaptive_avg_pool2d(): ${NON_EMPTY} [2, 3, 1, 0] with dimension 3 being empty`],
    [
      [2, 3, 4],
      -1,
      'adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but received {1, -1}',
    ],
  ],
  adaptive_avg_pool2d: [
    [[4, 4], 2, 'adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got [4, 4]'],
    [[2, 3, 4, 4], [1, 2, 3], 'adaptive_avg_pool2d: output_size must be 2'],
    // All ones: without the length check first, the mean shortcut would take it.
    [[2, 3, 4, 4], [1, 1, 1], 'adaptive_avg_pool2d: output_size must be 2'],
    [[4, 4], [null, 2], 'Input dimension should be at least 3'],
    [[2, 3, 0, 4], 2, `adaptive_avg_pool2d(): ${NON_EMPTY} [2, 3, 0, 4] with dimension 2 being empty`],
    [
      [2, 3, 4, 4],
      [-1, 2],
      'adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but received {-1, 2}',
    ],
  ],
  adaptive_avg_pool3d: [
    [[4, 4, 4], 2, 'adaptive_avg_pool3d(): Expected 4D or 5D tensor, but got [4, 4, 4]'],
    [[1, 2, 4, 4, 4], [1, 2], 'adaptive_avg_pool3d: output_size must be 3'],
    [[1, 2, 4, 4, 4], [1, 1], 'adaptive_avg_pool3d: output_size must be 3'],
    [[4, 4, 4], [null, 2, 2], 'Input dimension should be at least 4'],
    [[1, 2, 0, 4, 4], 2, `adaptive_avg_pool3d(): ${NON_EMPTY} [1, 2, 0, 4, 4] with dimension 2 being empty`],
    [
      [1, 2, 4, 4, 4],
      [-1, 1, 1],
      'adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but received {-1, 1,1}',
    ],
  ],
  adaptive_max_pool1d: [
    [[5], 3, dims1d('adaptive_max_pool1d')],
    [[3, 5], [2, 3], oneInt('adaptive_max_pool1d')],
    [[2, 0, 4], 2, `adaptive_max_pool2d(): ${NON_EMPTY} [2, 0, 1, 4] with dimension 1 being empty`],
    [[2, 3, 4], -1, 'Trying to create tensor with negative dimension -1: [2, 3, 1, -1]'],
  ],
  adaptive_max_pool2d: [
    [[4, 4], 2, 'adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: [4, 4]'],
    [[2, 3, 4, 4], [1, 2, 3], 'adaptive_max_pool2d(): internal error: output_size.size() must be 2'],
    [[4, 4], [null, 2], 'Input dimension should be at least 3'],
    [[2, 0, 4, 4], 2, `adaptive_max_pool2d(): ${NON_EMPTY} [2, 0, 4, 4] with dimension 1 being empty`],
    [[2, 3, 4, 4], [-1, 2], 'Trying to create tensor with negative dimension -1: [2, 3, -1, 2]'],
  ],
  adaptive_max_pool3d: [
    [[4, 4, 4], 2, 'adaptive_max_pool3d(): Expected 4D or 5D tensor, but got: [4, 4, 4]'],
    [[1, 2, 4, 4, 4], [1, 2], 'adaptive_max_pool3d(): internal error: output_size.size() must be 3'],
    [[4, 4, 4], [null, 2, 2], 'Input dimension should be at least 4'],
    [[1, 0, 4, 4, 4], 2, `adaptive_max_pool3d(): ${NON_EMPTY} [1, 0, 4, 4, 4] with dimension 1 being empty`],
    [[1, 2, 4, 4, 4], [-1, 1, 1], 'Trying to create tensor with negative dimension -1: [1, 2, -1, 1, 1]'],
  ],
};

const literal = (s: string) => new RegExp(s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));

/** The cpu kernel each op reaches, in the "not implemented" message of an integer input (1d goes through 2d). */
const KERNEL_NAMES: Record<Kind, readonly string[]> = {
  avg: ['adaptive_avg_pool2d', 'adaptive_avg_pool2d', 'adaptive_avg_pool3d_cpu'],
  max: ['adaptive_max_pool2d', 'adaptive_max_pool2d', 'adaptive_max_pool3d_cpu'],
};

function adaptiveErrors(kind: Kind, k: number) {
  return (ctx: SampleContext): ErrorInput[] => {
    const f = f32(ctx);
    // Output 2 from 4: an output of ones would take avg's mean shortcut, whose dtype error is another.
    const shape = [1, 2, ...new Array(k).fill(4)];
    return [
      ...ERRORS[`adaptive_${kind}_pool${k}d`].map(([shape, size, message]) =>
        errorCase(f(shape), [size], {}, 'E_INVALID_ARGUMENT', literal(message)),
      ),
      errorCase(
        exact(ctx, new Array(2 * 4 ** k).fill(1), shape, 'int32'),
        [2],
        {},
        'E_DTYPE_UNSUPPORTED',
        literal(`"${KERNEL_NAMES[kind][k - 1]}" not implemented for 'Int'`),
      ),
    ];
  };
}

function adaptiveInfo(kind: Kind, k: number): OpInfo {
  const functional = !(kind === 'avg' && k === 1);
  return opInfo({
    name: `nn.functional.adaptive_${kind}_pool${k}d`,
    op: functional ? `_functional_adaptive_${kind}_pool${k}d` : `adaptive_${kind}_pool${k}d`,
    family: 'pooling',
    dtypes: FLOATS,
    sampleInputs: adaptiveSamples(kind, k),
    ref: adaptiveRef(kind, k),
    resultDType: (s) => (s.input as Tensor).dtype,
    errorInputs: adaptiveErrors(kind, k),
    flags: { supportsAutograd: true, supportsGradgrad: true },
    // aten's 3d kernel sums and divides in float16 itself (the 2d one in float32): a few float16 ulps off.
    tolerances: kind === 'avg' && k === 3 ? { float16: { rtol: 4e-3, atol: 1e-3 } } : {},
  });
}

/**
 * aten::adaptive_{avg,max}_pool2d themselves, output_size given in full: F's path returns fresh tensors, but the
 * `.out` overloads (max: `out, indices`) write through the given outs' strides and offsets, which the reference
 * oracle's out= checks reach (views in the middle of a larger storage). Batch and channels above 1.
 */
function atenAdaptiveSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const aten = (name: string) => ({ name, aten: true });
  return [
    sample(make([2, 2, 5, 4]), [[3, 2]], {}, aten('batch 2, channels 2, [5, 4] -> [3, 2]')),
    sample(make([2, 3, 5]), [[2, 3]], {}, aten('unbatched, [3, 5] -> [2, 3]')),
  ];
}

function atenAdaptiveInfo(kind: Kind): OpInfo {
  const ref = adaptiveRef(kind, 2);
  return opInfo({
    name: `adaptive_${kind}_pool2d`,
    op: `adaptive_${kind}_pool2d`,
    family: 'pooling',
    dtypes: FLOATS,
    sampleInputs: atenAdaptiveSamples,
    // aten's max op always returns the indices too.
    ref: kind === 'max' ? (s) => ref({ ...s, kwargs: { ...s.kwargs, return_indices: true } }) : ref,
    // adaptive_avg_pool2d.out checks out's dtype itself, with a message of its own.
    ...(kind === 'avg'
      ? {
          errorInputs: (ctx: SampleContext) => [
            errorCase(
              f32(ctx)([1, 2, 4, 4]),
              [[2, 2]],
              { out: exact(ctx, [0], [1], 'float64') },
              'E_RESULT_TYPE',
              /expected dtype float for `output` but got dtype double/,
            ),
          ],
        }
      : {}),
  });
}

export const NN_ADAPTIVE_POOL_OPINFOS: readonly OpInfo[] = [
  ...(['avg', 'max'] as const).flatMap((kind) => [1, 2, 3].map((k) => adaptiveInfo(kind, k))),
  atenAdaptiveInfo('avg'),
  atenAdaptiveInfo('max'),
];
