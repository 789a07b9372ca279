/**
 * OpInfos for the fills, fill_ and zero_: write a value into self (every layout but an expanded self), at the edges
 * of the dtype's range and one past them, and fill_'s 0-dim value tensor (fill_.Tensor).
 */
import {
  complex,
  DTYPE_GROUPS,
  DTYPE_INFO,
  type DType,
  float,
  type Tensor,
} from '../../../src/runtime/index.ts';
import { exact } from '../../families/shape.ts';
import { COPY_SHAPES, fillValue, NO_EXPANDED_SELF, viewSamples } from '../../families/views.ts';
import { opInfo } from '../../info.ts';
import { maker } from '../../make.ts';
import type { RefTensor } from '../../refs/tensor.ts';
import { fullRef } from '../../refs/views.ts';
import type { ErrorInput, OpInfo, RefSample, SampleContext, SampleInput } from '../../types.ts';

const ALL = DTYPE_GROUPS.all;

/** fill_/zero_: write `value` into self. */
function fill(
  name: string,
  values: (ctx: SampleContext) => unknown[][],
  value: (s: RefSample) => number,
): OpInfo {
  return opInfo({
    name,
    family: 'factory',
    dtypes: ALL,
    sampleInputs: (ctx) =>
      viewSamples(values(ctx).flatMap((args) => COPY_SHAPES.map((shape) => ({ shape, args }))))(ctx),
    ref: (s) => fullRef(s.input.shape, value(s), s.input.dtype),
    resultDType: (s) => (s.input as Tensor).dtype,
    flags: { mutates: true },
    skips: [NO_EXPANDED_SELF],
  });
}

/** The largest finite value of each float dtype a fill converts to (c10's checked conversion allows it). */
const FLOAT_EDGE: Partial<Record<DType, number>> = {
  float16: 65504,
  bfloat16: 3.3895313892515355e38,
  float32: 3.4028234663852886e38,
};

/**
 * fill_ at the edges of the dtype's range, which c10's checked conversion accepts: the int dtype's min and max (as
 * int and as float Scalars), uint8's -255 (a negative int wraps: 1), the largest finite float.
 */
const fillEdges = (ctx: SampleContext): SampleInput[] => {
  const d = ctx.dtype;
  const make = maker(ctx);
  const at = (v: unknown, name: string): SampleInput => ({ input: make([3]), args: [v], kwargs: {}, name });
  if (FLOAT_EDGE[d] !== undefined) return [at(float(FLOAT_EDGE[d]!), 'largest finite value')];
  if (DTYPE_INFO[d].kind !== 'int' || d === 'int64') return [];
  const bits = DTYPE_INFO[d].itemsize * 8;
  const [lo, hi] = d === 'uint8' ? [0, 255] : [-(2 ** (bits - 1)), 2 ** (bits - 1) - 1];
  return [
    at(hi, 'int max'),
    at(lo, 'int min'),
    at(float(hi), 'int max as a float'),
    at(float(lo), 'int min as a float'),
    ...(d === 'uint8' ? [at(-255, 'uint8 -255 wraps to 1')] : []),
  ];
};

/** fill_ one past the dtype's range: "value cannot be converted to type ... without overflow" (webgpu dtypes). */
const fillOverflows = (ctx: SampleContext): ErrorInput[] =>
  (
    [
      ['int32', 2147483648, /type int without/],
      ['int32', float(2147483647.5), /type int without/],
      ['uint8', -256, /type uint8_t without/],
      ['uint8', 256, /type uint8_t without/],
      ['float32', float(3.5e38), /type float without/],
      ['float32', complex(1, 2), /type float without/],
    ] as const
  ).map(([dtype, v, type]) => ({
    sample: {
      input: maker({ ...ctx, dtype })([2]),
      args: [v],
      kwargs: {},
      name: `${dtype} fill_ past its range`,
    },
    code: 'E_INVALID_ARGUMENT',
    regex: new RegExp(`value cannot be converted to ${type.source} overflow`),
  }));

/** fill_'s value tensor must be 0-dim (fill_.Tensor), and what fill_.Scalar refuses. */
const fillErrors = (ctx: SampleContext): ErrorInput[] => [
  ...fillOverflows(ctx),
  {
    sample: {
      input: maker(ctx)([2, 3]),
      args: [maker(ctx, 5)([1])],
      kwargs: {},
      name: 'a 1-element 1-d value tensor',
    },
    code: 'E_INVALID_ARGUMENT',
    regex: /fill_ only supports 0-dimension value tensor but got tensor with 1 dimensions/,
  },
];

export const FILL_OPINFOS: readonly OpInfo[] = [
  (() => {
    const base = fill(
      'fill_',
      (ctx) => [[fillValue(ctx.dtype)], [1]],
      // A 0-dim tensor value (fill_(self, value: Tensor)) is read as its one element.
      (s) =>
        typeof s.args[0] === 'object' && s.args[0] !== null
          ? (s.args[0] as RefTensor).re[0]
          : Number(s.args[0]),
    );
    const tensorValue = viewSamples([
      { shape: [3, 4], args: (_m, ctx) => [exact(ctx, [1], [], ctx.dtype)], name: 'value as a 0-dim tensor' },
    ]);
    return {
      ...base,
      sampleInputs: (ctx: SampleContext) => [
        ...base.sampleInputs(ctx),
        ...tensorValue(ctx),
        ...fillEdges(ctx),
      ],
      errorInputs: fillErrors,
    };
  })(),
  fill(
    'zero_',
    () => [[]],
    () => 0,
  ),
];
