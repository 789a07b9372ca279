/**
 * OpInfos for factories (empty, zeros, ones, full, arange, linspace, eye, *_like), then the fills (fill.ts).
 * A factory sample's `input` is its size list (or the scalar of arange/linspace/eye); the dtype comes from the
 * context as kwargs.dtype, and the metadata oracle asks for device='meta' itself.
 */
import { DTYPE_GROUPS, DTYPE_INFO, type DType, type Tensor } from '../../../src/runtime/index.ts';
import {
  COPY_SHAPES,
  type FactoryCase,
  factoryErrors,
  factorySamples,
  fillValue,
  viewSamples,
} from '../../families/views.ts';
import { type OpInfoSpec, opInfo } from '../../info.ts';
import { maker } from '../../make.ts';
import { fullRef, sequenceRef } from '../../refs/views.ts';
import type { ErrorInput, FactoryInput, OpInfo, RefSample, SampleContext, SampleInput } from '../../types.ts';
import { FILL_OPINFOS } from './fill.ts';

const ALL = DTYPE_GROUPS.all;
/**
 * Every keyword a factory takes, spelled out (`device` is the context's: the cpu one unless it says otherwise);
 * requires_grad is the Python argument parser's, not aten's.
 */
const EXPLICIT = { layout: 'strided', device: 'cpu', pin_memory: false, requires_grad: false };
const explicit = (c: FactoryCase): FactoryCase => ({
  ...c,
  kwargs: EXPLICIT,
  name: 'layout, device, pin_memory, requires_grad',
});
/**
 * The case with device= and requires_grad=False only: no layout= or pin_memory=, so the call binds the stubs'
 * first signature (arange(start, end, step, *, out, dtype, device, requires_grad)), as Python's parser picks it.
 */
const deviceAndGrad = (c: FactoryCase): FactoryCase => ({
  ...c,
  kwargs: { ...c.kwargs, device: 'cpu', requires_grad: false },
  name: `${c.name ?? JSON.stringify([c.input, ...(c.args ?? [])])} device, requires_grad`,
});
const differentiable = (d: DType) => kind(d) === 'float' || kind(d) === 'complex';

/** The cases, and the last one again with requires_grad=True where the dtype can require gradients. */
const withGrad =
  (cases: readonly FactoryCase[] | ((ctx: SampleContext) => readonly FactoryCase[])) =>
  (ctx: SampleContext): FactoryCase[] => {
    const all = [...(typeof cases === 'function' ? cases(ctx) : cases)];
    const last = all[all.length - 1];
    if (!differentiable(ctx.dtype) || !last) return all;
    return [...all, { ...last, kwargs: { ...last.kwargs, requires_grad: true }, name: 'requires_grad=True' }];
  };

/**
 * What the Python argument parser refuses on any factory: requires_grad on an integral dtype, pinned memory (a
 * CPU-only PyTorch has none), and (`sparse`) a sparse layout where PyTorch 1.13 has no sparse kernel either.
 */
const optionErrors = (input: FactoryInput, args: unknown[] = [], sparse = true): FactoryError[] => [
  {
    input,
    args,
    kwargs: { dtype: 'int64', requires_grad: true },
    name: 'requires_grad=True on int64',
    code: 'E_AUTOGRAD',
    regex: /Only Tensors of floating point and complex dtype can require gradients/,
  },
  {
    input,
    args,
    kwargs: { pin_memory: true },
    code: 'E_NOT_IMPLEMENTED',
    regex: /Pinned memory requires CUDA/,
  },
  {
    input,
    args,
    kwargs: { requires_grad: 1 },
    code: 'E_INVALID_ARGUMENT',
    regex: /requires_grad must be a bool/,
  },
  { input, args, kwargs: { layout: 'jagged' }, code: 'E_INVALID_ARGUMENT', regex: /unknown layout 'jagged'/ },
  ...(sparse
    ? [
        {
          input,
          args,
          kwargs: { layout: 'sparse_coo' },
          code: 'E_NOT_IMPLEMENTED' as const,
          regex: /only torch\.strided tensors are implemented/,
        },
      ]
    : []),
];
type FactoryError = FactoryCase & { code: ErrorInput['code']; regex: RegExp };
const SHAPES: readonly FactoryCase[] = [[2, 3], [], [0, 4], [7], [2, 3, 2, 2]]
  .map((input): FactoryCase => ({ input }))
  .concat([explicit({ input: [2, 3] })]);
const NEGATIVE = {
  input: [2, -1],
  code: 'E_INVALID_ARGUMENT',
  regex: /Trying to create tensor with negative dimension -1/,
} as const;
const kwDType = (s: SampleInput | RefSample) => s.kwargs.dtype as DType;
const likeDType = (s: SampleInput) => (s.kwargs.dtype as DType | undefined) ?? (s.input as Tensor).dtype;
/** A factory's size: one list (`zeros([2, 3])`) or varargs (`zeros(2, 3)`: the input and the args). */
const sizeOf = (s: RefSample) =>
  Array.isArray(s.input) ? (s.input as unknown as number[]) : ([s.input, ...s.args] as number[]);
const num = (v: unknown) => Number(v);
const kind = (d: DType) => DTYPE_INFO[d].kind;

function factory(name: string, spec: Omit<OpInfoSpec, 'name' | 'family'>): OpInfo {
  return opInfo({ name, family: 'factory', resultDType: kwDType, ...spec });
}

/** A constant-valued factory: `name(size)` and `name_like(t)` fill with `value` (null: uninitialised). */
function constant(name: string, value: number | null): OpInfo[] {
  const nondeterministicValues = value === null;
  const v = value ?? 0;
  return [
    factory(name, {
      dtypes: ALL,
      sampleInputs: factorySamples(
        withGrad([
          ...SHAPES,
          // torch.zeros(*size): the sizes as varargs, also with every keyword the signature takes.
          { input: 2, args: [3, 2], name: '*size' },
          explicit({ input: 2, args: [3, 2] }),
          ...(name === 'empty'
            ? [
                { input: [2, 3], kwargs: { memory_format: 'contiguous_format' } },
                {
                  input: 2,
                  args: [3],
                  kwargs: { memory_format: 'contiguous_format' },
                  name: '*size, memory_format',
                },
              ]
            : []),
        ]),
      ),
      // PyTorch 1.13 makes sparse empty and zeros tensors (the runtime refuses them: see its own tests).
      errorInputs: factoryErrors([NEGATIVE, ...optionErrors([2, 3], [], name === 'ones')]),
      ref: (s) => fullRef(sizeOf(s), v, kwDType(s)),
      flags: { nondeterministicValues },
    }),
    like(`${name}_like`, () => [], v, nondeterministicValues),
  ];
}

function like(
  name: string,
  args: (ctx: SampleContext) => unknown[],
  value: number | null,
  nondeterministicValues = false,
): OpInfo {
  const cases = (ctx: SampleContext) => [
    ...COPY_SHAPES.map((shape) => ({ shape, args: args(ctx) })),
    { shape: [3, 5], args: args(ctx), kwargs: { dtype: 'float64' } },
    {
      shape: [3, 5],
      args: args(ctx),
      // device=None: the input's device, so the sample is the same on every device.
      kwargs: {
        layout: 'strided',
        device: null,
        pin_memory: false,
        memory_format: 'contiguous_format',
        requires_grad: false,
      },
    },
    ...(differentiable(ctx.dtype)
      ? [{ shape: [3, 5], args: args(ctx), kwargs: { requires_grad: true } }]
      : []),
  ];
  // What the Python argument parser refuses on any factory (optionErrors), on a tensor of the context's kind.
  const errors = (ctx: SampleContext): ErrorInput[] => {
    const on = (dtype: DType, kwargs: Record<string, unknown>, name: string) => ({
      input: maker({ ...ctx, dtype })([2, 3]),
      args: args({ ...ctx, dtype }),
      kwargs,
      name,
    });
    return [
      {
        sample: on('int64', { requires_grad: true }, 'requires_grad=True on int64'),
        code: 'E_AUTOGRAD',
        regex: /Only Tensors of floating point and complex dtype can require gradients/,
      },
      {
        sample: on(ctx.dtype, { pin_memory: true }, 'pin_memory=True'),
        code: 'E_NOT_IMPLEMENTED',
        regex: /Pinned memory requires CUDA/,
      },
    ];
  };
  return opInfo({
    name,
    family: 'factory',
    dtypes: ALL,
    sampleInputs: (ctx) => viewSamples(cases(ctx))(ctx),
    errorInputs: errors,
    ref: (s) => fullRef(s.input.shape, value ?? num(s.args[0]), s.input.dtype),
    resultDType: likeDType,
    flags: { nondeterministicValues },
  });
}

const withErrors =
  (base: (ctx: SampleContext) => ErrorInput[], extra: () => ErrorInput[]) =>
  (ctx: SampleContext): ErrorInput[] => [...base(ctx), ...extra()];

/** A factory error input whose dtype is its own (not the context's). */
const explicitDType = (
  input: number,
  args: unknown[],
  dtype: DType,
  code: ErrorInput['code'],
  regex: RegExp,
): ErrorInput => ({
  sample: { input: input as never, args, kwargs: { dtype }, name: `${dtype}: ${regex.source.slice(0, 40)}` },
  code,
  regex,
});

/**
 * arange's checks that depend on the dtype: int64 computes its size in exact integers (its own step and sign
 * checks), bool and complex have no kernel, and a float range must be finite (PyTorch prints inf as `inf`).
 */
const arangeErrors = (): ErrorInput[] => [
  explicitDType(0, [5, 0], 'int64', 'E_INVALID_ARGUMENT', /step must be nonzero/),
  explicitDType(
    5,
    [0, 1],
    'int64',
    'E_INVALID_ARGUMENT',
    /upper bound and larger bound inconsistent with step sign/,
  ),
  explicitDType(5, [], 'bool', 'E_DTYPE_UNSUPPORTED', /"arange_cpu" not implemented for 'Bool'/),
  explicitDType(
    0,
    [Number.POSITIVE_INFINITY],
    'float32',
    'E_INVALID_ARGUMENT',
    /unsupported range: 0 -> inf/,
  ),
];

/**
 * torch.arange: start + i * step for i < ceil((end - start) / step). An integral dtype's kernel works in int64:
 * start and step are truncated for the values (the size of a narrower one still comes from the bounds as given).
 */
function arangeRef(s: RefSample) {
  const [start, end, step] = s.args.length
    ? [num(s.input), num(s.args[0]), num(s.args[1] ?? 1)]
    : [0, num(s.input), 1];
  const int = kind(kwDType(s)) === 'int';
  const [s0, st] = int ? [Math.trunc(start), Math.trunc(step)] : [start, step];
  // int64 sizes itself from the truncated bounds too (its accumulate type is itself).
  const n = kwDType(s) === 'int64' ? Math.ceil((Math.trunc(end) - s0) / st) : Math.ceil((end - start) / step);
  return sequenceRef(Math.max(n, 0), (i) => s0 + i * st, kwDType(s));
}

/** Scalar::to<T>() for an integral T: toward zero, then wrapped to the dtype's width. */
function toIntegral(v: number, d: DType): number {
  const bits = DTYPE_INFO[d].itemsize * 8;
  if (bits >= 53) return Math.trunc(v);
  const m = 2 ** bits;
  const w = (((Math.trunc(v) % m) + m) % m) as number;
  return d === 'uint8' || w < m / 2 ? w : w - m;
}

/**
 * torch.linspace: the first half steps up from start, the second half down from end (at::linspace). An integral
 * dtype converts start and end to itself first and steps in double.
 */
function linspaceRef(s: RefSample) {
  const d = kwDType(s);
  const own = (v: number) => (kind(d) === 'int' ? toIntegral(v, d) : v);
  const [start, end, steps] = [own(num(s.input)), own(num(s.args[0])), num(s.args[1])];
  const step = steps > 1 ? (end - start) / (steps - 1) : 0;
  const half = Math.floor(steps / 2);
  return sequenceRef(steps, (i) => (i < half ? start + step * i : end - step * (steps - i - 1)), kwDType(s));
}

const rangeCases = (ctx: SampleContext): FactoryCase[] => [
  { input: 5 },
  { input: 0 },
  { input: 2, args: [11, 3] },
  { input: 10, args: [0, -3] },
  { input: 4, args: [4] },
  ...(kind(ctx.dtype) === 'float' ? [{ input: -1.5, args: [2.5, 0.5] }] : []),
  // An integral dtype truncates start, end and step first (-3, 7, 2.5 runs -3, -1, 1, 3), its size from the bounds.
  ...(kind(ctx.dtype) === 'int'
    ? [
        { input: ctx.dtype === 'uint8' ? 0.5 : -3, args: [7, 2.5] },
        { input: 0.5, args: [9.7, 1.3] },
      ]
    : []),
  explicit({ input: 4 }),
  explicit({ input: 1, args: [7, 2] }),
  deviceAndGrad({ input: 4 }),
  deviceAndGrad({ input: 0, args: [5] }),
  deviceAndGrad({ input: 1, args: [7, 2] }),
  // arange(start, end, *, layout=, pin_memory=, ...): the stubs' own (start, end) signature with layout (the
  // one above has none).
  explicit({ input: 0, args: [5] }),
];
const linspaceCases = (ctx: SampleContext): FactoryCase[] => [
  { input: 0, args: [10, 4] },
  { input: 2, args: [20, 7] },
  { input: 5, args: [5, 1] },
  { input: 0, args: [1, 0] },
  { input: 10, args: [0, 6] },
  ...(ctx.dtype !== 'uint8' && ctx.dtype !== 'bool' ? [{ input: -3, args: [7, 9] }] : []),
  ...(kind(ctx.dtype) === 'float' ? [{ input: -1.5, args: [2.25, 4] }] : []),
  // An integral dtype converts start and end to itself first (0.5 -> 0), then steps in double.
  ...(kind(ctx.dtype) === 'int' ? [{ input: 0.5, args: [9.7, 5] }] : []),
  ...(ctx.dtype === 'int64' ? [{ input: 3, args: [20, 13], name: 'int64 vector blocks' }] : []),
  explicit({ input: 0, args: [10, 3] }),
  deviceAndGrad({ input: 0, args: [10, 3] }),
];

export const FACTORY_OPINFOS: readonly OpInfo[] = [
  ...constant('empty', null),
  ...constant('zeros', 0),
  ...constant('ones', 1),
  factory('full', {
    dtypes: ALL,
    sampleInputs: factorySamples(
      withGrad((ctx) =>
        [...SHAPES, deviceAndGrad({ input: [2, 3], kwargs: { layout: 'strided' } })].map((c) => ({
          ...c,
          args: [fillValue(ctx.dtype)],
        })),
      ),
    ),
    errorInputs: factoryErrors([{ ...NEGATIVE, args: [1] }, ...optionErrors([2, 3], [1])]),
    ref: (s) => fullRef(sizeOf(s), num(s.args[0]), kwDType(s)),
  }),
  like('full_like', (ctx) => [fillValue(ctx.dtype, true)], null),
  factory('arange', {
    dtypes: DTYPE_GROUPS.realNumeric,
    sampleInputs: factorySamples(withGrad(rangeCases)),
    errorInputs: withErrors(
      factoryErrors([
        ...optionErrors(4),
        { input: 0, args: [5, 0], code: 'E_INVALID_ARGUMENT', regex: /step must be nonzero/ },
        // An integral dtype truncates the step first: 0.3 is 0.
        {
          input: 1,
          args: [2, 0.3],
          kwargs: { dtype: 'int32' },
          name: 'int32 step 0.3',
          code: 'E_INVALID_ARGUMENT',
          regex: /step must be nonzero/,
        },
        {
          input: 5,
          args: [0, 1],
          code: 'E_INVALID_ARGUMENT',
          regex: /upper bound and larger bound inconsistent with step sign/,
        },
      ]),
      arangeErrors,
    ),
    ref: arangeRef,
  }),
  factory('linspace', {
    dtypes: DTYPE_GROUPS.allButBool,
    sampleInputs: factorySamples(withGrad(linspaceCases)),
    errorInputs: withErrors(
      factoryErrors([
        ...optionErrors(0, [10, 3]),
        {
          input: 0,
          args: [1, -1],
          code: 'E_INVALID_ARGUMENT',
          regex: /number of steps must be non-negative/,
        },
      ]),
      () => [
        // PyTorch 1.13 has no bool linspace kernel (for steps >= 2; the runtime refuses bool for any steps).
        explicitDType(0, [1, 5], 'bool', 'E_DTYPE_UNSUPPORTED', /"linspace_cpu" not implemented for 'Bool'/),
      ],
    ),
    ref: linspaceRef,
  }),
  factory('eye', {
    dtypes: ALL,
    sampleInputs: factorySamples(
      withGrad([
        { input: 3 },
        { input: 2, args: [4] },
        { input: 0 },
        { input: 4, args: [1] },
        explicit({ input: 2 }),
        explicit({ input: 2, args: [3] }),
      ]),
    ),
    errorInputs: factoryErrors([
      ...optionErrors(2, [3]),
      { input: -1, code: 'E_INVALID_ARGUMENT', regex: /n must be greater or equal to 0, got -1/ },
      { input: 2, args: [-1], code: 'E_INVALID_ARGUMENT', regex: /m must be greater or equal to 0, got -1/ },
    ]),
    ref: (s) => {
      const [n, m] = [num(s.input), num(s.args[0] ?? s.input)];
      return {
        ...fullRef([n, m], 0, kwDType(s)),
        re: Float64Array.from({ length: n * m }, (_, i) => (i % m === Math.floor(i / m) ? 1 : 0)),
      };
    },
  }),
  ...FILL_OPINFOS,
];
