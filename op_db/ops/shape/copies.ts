/** OpInfos for copies: contiguous, clone, to, copy_, resize_. Part of VIEW_OPINFOS (views.ts). */
import type { DType } from '../../../src/runtime/index.ts';
import {
  arg,
  COPY_SHAPES,
  c,
  type ErrorCase,
  err,
  FOUR,
  NO_EXPANDED_SELF,
  sizeArg,
  type ViewCase,
  view,
  viewSamples,
} from '../../families/views.ts';
import { maker } from '../../make.ts';
import type { RefTensor } from '../../refs/tensor.ts';
import * as R from '../../refs/views.ts';
import type { OpInfo, SampleContext, SampleInput } from '../../types.ts';

const sameValues = (x: RefTensor) => R.reshapeRef(x, x.shape);
const shapes = COPY_SHAPES.map((shape): ViewCase => ({ shape }));
const formats = (...fs: string[]) => fs.map((f): ViewCase => ({ shape: FOUR, kwargs: { memory_format: f } }));
const otherDType = (d: DType): DType => (d === 'float64' ? 'float32' : 'float64');
/** The dtype a `to` sample asks for: positional (to.dtype) or by keyword (to.device). */
const toDType = (s: { args: readonly unknown[]; kwargs: Readonly<Record<string, unknown>> }): DType =>
  (s.args[0] ?? s.kwargs.dtype) as DType;
const toCases = (ctx: SampleContext): ViewCase[] => [
  c([3, 5], otherDType(ctx.dtype)),
  c([2, 3, 4], 'int32'),
  c([], 'bool'),
  c([0, 4], 'complex128'),
  c(FOUR, 'bfloat16'),
  c([7], ctx.dtype),
  { shape: [3, 5], args: [ctx.dtype], kwargs: { copy: true } },
  // to.device by keyword: the samples' device (each oracle's run names its own device instead of cpu).
  {
    shape: [3, 5],
    kwargs: {
      device: 'cpu',
      dtype: otherDType(ctx.dtype),
      non_blocking: false,
      copy: true,
      memory_format: 'preserve_format',
    },
    name: 'device keyword',
  },
  // memory_format is keyword-only in PyTorch's Python signature (positional, it is a TypeError in 1.13).
  {
    shape: [3, 5],
    args: [otherDType(ctx.dtype), false, true],
    kwargs: { memory_format: 'contiguous_format' },
    name: 'every argument',
  },
  // Tensor.to(device=None, dtype=None, ...) as the stub spells it (no memory_format), and non_blocking= by name
  // on to(dtype) (a cpu copy is never asynchronous: no effect).
  {
    shape: [3, 5],
    kwargs: { device: 'cpu', dtype: otherDType(ctx.dtype) },
    name: 'device and dtype keywords',
  },
  {
    shape: [3, 5],
    kwargs: { device: 'cpu', dtype: ctx.dtype, non_blocking: false, copy: true },
    name: 'device, dtype, non_blocking, copy keywords',
  },
  { shape: [3, 5], args: [otherDType(ctx.dtype)], kwargs: { non_blocking: true }, name: 'non_blocking=True' },
];
/**
 * float64 -> integer casts at x86's edges (PyTorch 1.13 on x86 is the spec): -2147483649.0 is the first value
 * below int32's range (INT32_MIN), -2147483648.5 the last inside it; 1e10 + 5 and -2147483649.0 as uint8 keep the
 * low byte of a 64-bit conversion (5, 255); infinities and NaN give INT32_MIN (0 as int8).
 */
const X86_CAST_EDGES = [-2147483649, 2147483648, -2147483648.5, 2147483647.75, 1e10 + 5, -3.7, Infinity, NaN];
const x86Casts = (ctx: SampleContext): SampleInput[] =>
  ctx.dtype !== 'float64'
    ? []
    : (['int32', 'uint8', 'int8'] as const).map((d) => ({
        input: maker(ctx).values(X86_CAST_EDGES),
        args: [d],
        kwargs: {},
        name: `float64 -> ${d} at the int32 range's edges`,
      }));
const copySrc = (shape: readonly number[], src: readonly number[]): ViewCase => ({
  shape,
  args: (m) => [m(src)],
});
const copy = { flags: { isView: false } };

/** channels_last is a 4-D layout: a 3-D tensor asked for it is refused. */
const channelsLast3d: ErrorCase = {
  ...err('E_INVALID_ARGUMENT', /required rank 4 tensor to use channels_last format/, [2, 3, 4]),
  kwargs: { memory_format: 'channels_last' },
};

export const COPY_OPINFOS: readonly OpInfo[] = [
  view('contiguous', (s) => sameValues(s.input), [...shapes, ...formats('channels_last')], [channelsLast3d], {
    ...copy,
    // Even the contiguous layout copies for the memory_format=channels_last sample.
  }),
  view(
    'clone',
    (s) => sameValues(s.input),
    [...shapes, ...formats('contiguous_format', 'channels_last', 'preserve_format')],
    [channelsLast3d],
    copy,
  ),
  {
    // Every instance has a dtype-changing sample, which copies.
    ...view(
      'to',
      (s) => R.convertRef(s.input, toDType(s)),
      [],
      [
        // A meta tensor has no values to copy to the sample's device (PyTorch's NotImplementedError).
        {
          ...err('E_NOT_IMPLEMENTED', /Cannot copy out of meta tensor; no data!/, [2, 3]),
          kwargs: { device: 'cpu' },
          prep: (t) => t.to('meta'),
          name: 'meta input to the device',
        },
      ],
      copy,
    ),
    sampleInputs: (ctx) => [...viewSamples(toCases(ctx))(ctx), ...x86Casts(ctx)],
    resultDType: toDType,
  },
  view(
    'copy_',
    (s) => R.expandRef(R.convertRef(arg<RefTensor>(s, 0), s.input.dtype), s.input.shape),
    [
      copySrc([3, 4], [3, 4]),
      copySrc([3, 4], [4]),
      copySrc([2, 3], []),
      copySrc([0, 4], [4]),
      copySrc([], []),
    ]
      .concat([copySrc(FOUR, FOUR)])
      .concat([
        {
          shape: [3, 4],
          args: (_m, ctx) => [maker({ ...ctx, dtype: 'int64' }, 3)([3, 4])],
          name: 'src int64',
        },
        { shape: [3, 4], args: (m) => [m([3, 4]), false], name: 'non_blocking=False' },
      ]),
    [
      // PyTorch (TensorIterator): "The size of tensor a (4) must match the size of tensor b (3) at non-singleton
      // dimension 1"; the runtime words it as an expand error (reported), so only the common part is matched.
      { ...err('E_SHAPE_MISMATCH', /at non-singleton dimension 1/, [3, 4]), args: (m) => [m([3])] },
      {
        ...err('E_NOT_IMPLEMENTED', /Cannot copy out of meta tensor; no data!/, [2, 3]),
        args: (m) => [m([2, 3]).to('meta')],
        name: 'src on meta',
      },
      {
        ...err(
          'E_INTERNAL_OVERLAP',
          /more than one element of the written-to tensor refers to a single memory location/,
          [1],
        ),
        args: (m) => [m([3])],
        prep: (t) => t.expand([3]),
        name: 'self expanded (stride 0)',
      },
      {
        ...err(
          'E_INTERNAL_OVERLAP',
          /some elements of the input tensor and the written-to tensor refer to a single/,
          [5],
        ),
        args: (_m, _ctx, base) => [base.narrow(0, 1, 4)],
        prep: (t) => t.narrow(0, 0, 4),
        name: 'src partially overlaps self',
      },
      {
        // The same memory at other strides, 2 x 2: a partial overlap however the dims' sizes are tested (a
        // size-2 dim is where `< 2` and `<= 2` differ; size-1 dims' strides do not matter).
        ...err(
          'E_INTERNAL_OVERLAP',
          /some elements of the input tensor and the written-to tensor refer to a single/,
          [2, 2],
        ),
        args: (_m, _ctx, base) => [base.t()],
        name: 'src the transpose of self (2 x 2)',
      },
    ],
    { flags: { isView: false, mutates: true }, skips: [NO_EXPANDED_SELF] },
  ),
  view(
    'resize_',
    (s) => R.reshapeRef({ ...s.input, re: new Float64Array(0) }, sizeArg(s)),
    [c([2, 3], [3, 2]), c([2, 3], [10]), c([2, 3], [0]), c([2, 3], []), c([], [2, 2]), c([0, 4], [3])].concat(
      [
        c([2, 3], [2, 3]),
        { shape: [2, 3], args: [[3, 2]], kwargs: { memory_format: 'contiguous_format' } },
        // Tensor.resize_(*size): varargs (a method only), with memory_format= too.
        { shape: [2, 3], args: [4, 2], kwargs: { memory_format: 'contiguous_format' } },
      ],
    ),
    [err('E_INVALID_ARGUMENT', /Trying to create tensor with negative dimension/, [2, 3], [-1])],
    // PyTorch 1.13's resize_ leaves the version counter as it was (it writes no values).
    { flags: { isView: false, mutates: true, keepsVersion: true, nondeterministicValues: true } },
  ),
];
