/**
 * OpInfos for torch.nn.functional's pointwise activations: the unary family's samples (shapes, special values),
 * plus a few samples per non-default argument set and aten-only arguments
 * (elu's scale / input_scale, which Python's F.elu does not take) called as the aten op.
 */
import {
  DTYPE_GROUPS,
  DTYPE_INFO,
  type DType,
  float,
  opVariants,
  tensor,
} from '../../../../src/runtime/index.ts';
import { unaryArbitrary } from '../../../families/arbitraries.ts';
import { sample, unaryErrors, unarySamples } from '../../../families/unary.ts';
import { opInfo } from '../../../info.ts';
import { maker } from '../../../make.ts';
import { ACTIVATION_REFS, type Kw } from '../../../refs/activations.ts';
import { elementwise } from '../../../refs/pointwise.ts';
import { pointwiseResultDType } from '../../../refs/promotion.ts';
import type { ErrorInput, OpInfo, SampleContext, SampleInput } from '../../../types.ts';
import { RECTIFIER_OPINFOS } from './rectifiers.ts';

const FLOATS = DTYPE_GROUPS.floating;
const SIGNED_INTS: readonly DType[] = ['int8', 'int16', 'int32', 'int64'];
const INTS: readonly DType[] = ['uint8', ...SIGNED_INTS];

interface ActivationSpec {
  /** The aten op (its row in the runtime); the OpInfo is `nn.functional.<name ?? op>`. */
  readonly op: string;
  readonly name?: string;
  readonly dtypes: readonly DType[];
  /** Argument sets beyond the defaults, each applied to a few samples (per dtype kind when a function). */
  readonly kwargs?: readonly Kw[] | ((ctx: SampleContext) => readonly Kw[]);
  /** Arguments of the default samples, when a dtype cannot take the defaults (hardtanh on uint8). */
  readonly baseKwargs?: (ctx: SampleContext) => Kw;
  /** Positional Scalar arguments every call passes (threshold's threshold and value), by name. */
  readonly positional?: Kw;
  /** Samples that call the aten op itself: arguments Python's nn.functional spelling does not take. */
  readonly atenKwargs?: readonly Kw[];
  readonly errors?: (ctx: SampleContext) => ErrorInput[];
  /** The reference oracle's tolerance overrides (where the kernel rounds as PyTorch's does, not once). */
  readonly tolerances?: OpInfo['tolerances'];
  /** The dtypes the golden oracle compares bit for bit (OpInfo.goldenExact). */
  readonly goldenExact?: OpInfo['goldenExact'];
}

/**
 * Two samples per kwargs set, plus -0 and +0 on floating dtypes (not for gradients: a kink sits at 0): which
 * zero comes out is PyTorch's (leaky_relu with a negative slope turns -0 into +0 and +0 into -0).
 */
const few = (ctx: SampleContext, kw: Kw, positional: unknown[], extra: Partial<SampleInput> = {}) => [
  ...unarySamples({ noSpecials: true, low: -4, high: 4 })(ctx)
    .slice(1, 3)
    .map((s) => ({
      ...s,
      args: positional,
      kwargs: { ...kw },
      ...extra,
      name: `${s.name} ${JSON.stringify(kw)}`,
    })),
  ...(DTYPE_INFO[ctx.dtype].kind === 'float' && !ctx.requiresGrad
    ? [
        sample(
          maker(ctx).values([-0, 0], [2]),
          positional,
          { ...kw },
          { ...extra, name: `signed zeros ${JSON.stringify(kw)}` },
        ),
      ]
    : []),
];

function activation(spec: ActivationSpec): OpInfo {
  const positional = Object.values(spec.positional ?? {});
  const kwargSets = (ctx: SampleContext) =>
    typeof spec.kwargs === 'function' ? spec.kwargs(ctx) : (spec.kwargs ?? []);
  const ref = ACTIVATION_REFS[spec.op];
  return opInfo({
    name: `nn.functional.${spec.name ?? spec.op}`,
    op: spec.op,
    family: 'unary',
    dtypes: spec.dtypes,
    sampleInputs: (ctx) => {
      const kwargs = { ...spec.baseKwargs?.(ctx) };
      const base = unarySamples()(ctx).map((s) => ({ ...s, args: positional, kwargs }));
      const more = kwargSets(ctx).flatMap((kw) => few(ctx, kw, positional));
      const aten = (spec.atenKwargs ?? []).flatMap((kw) => few(ctx, kw, positional, { aten: true }));
      return [...base, ...more, ...aten];
    },
    errorInputs: (ctx) => [
      ...unaryErrors(opVariants(spec.op).out && DTYPE_INFO[ctx.dtype].kind === 'float')(ctx),
      ...(spec.errors?.(ctx) ?? []),
    ],
    arbitrary: (ctx) => unaryArbitrary({}, { ...spec.positional, ...spec.baseKwargs?.(ctx) })(ctx),
    ref: (s) => {
      const kw = { ...spec.positional, ...s.kwargs };
      return elementwise([s.input], (x) => ref(x, kw), s.input.dtype);
    },
    // The Scalar arguments never take part in promotion: the result has the input's dtype.
    resultDType: (s) => pointwiseResultDType({ input: s.input, args: [] }, 'promote'),
    tolerances: spec.tolerances ?? {},
    goldenExact: spec.goldenExact ?? [],
  });
}

const raises = (
  input: SampleInput['input'],
  kwargs: Kw,
  code: ErrorInput['code'],
  regex: RegExp,
  name: string,
  args: unknown[] = [],
): ErrorInput => ({ sample: sample(input, args, { ...kwargs }, { name }), code, regex });

/** Integer dtypes take integer limits (a float limit truncates, as the Scalar's conversion to int does). */
const intOr = (ctx: SampleContext, ints: readonly Kw[], floats: readonly Kw[]) =>
  DTYPE_INFO[ctx.dtype].kind === 'int' ? ints : floats;

export const ACTIVATION_OPINFOS: readonly OpInfo[] = [
  ...RECTIFIER_OPINFOS,
  activation({
    op: 'elu',
    dtypes: FLOATS,
    kwargs: [{ alpha: 0.5 }],
    atenKwargs: [{ alpha: 2, scale: 1.5, input_scale: 0.5 }],
  }),
  activation({
    op: 'celu',
    dtypes: FLOATS,
    kwargs: [{ alpha: 2 }],
    errors: (ctx) => [
      raises(
        tensor([1, -1], { dtype: ctx.dtype }),
        { alpha: 0 },
        'E_ZERO_DIVISION',
        /alpha cannot be 0 for CELU/,
        'alpha 0',
      ),
    ],
  }),
  activation({ op: 'selu', dtypes: FLOATS }),
  activation({
    op: 'gelu',
    dtypes: FLOATS,
    // bfloat16 rounds every step as PyTorch 1.13's CPU kernel does (1 + erf(x / sqrt 2) is 0 below about -2.5):
    // 0 where exact math gives -1.5e-3, -5.4e-3 for -7.9e-3 (measured on the full tier's samples).
    tolerances: { bfloat16: { rtol: 1.6e-2, atol: 5e-3 } },
    goldenExact: ['bfloat16'],
    kwargs: [{ approximate: 'tanh' }, { approximate: 'none' }],
    errors: (ctx) => [
      raises(
        tensor([1, -1], { dtype: ctx.dtype }),
        { approximate: 'bad' },
        'E_INVALID_ARGUMENT',
        /approximate argument must be either none or tanh/,
        "approximate 'bad'",
      ),
    ],
  }),
  activation({ op: 'hardshrink', dtypes: FLOATS, kwargs: [{ lambd: 1.5 }, { lambd: -0.5 }] }),
  activation({
    op: 'softshrink',
    dtypes: FLOATS,
    kwargs: [{ lambd: 1.5 }, { lambd: 0 }],
    errors: (ctx) => [
      raises(
        tensor([1, -1], { dtype: ctx.dtype }),
        { lambd: -1 },
        'E_INVALID_ARGUMENT',
        /lambda must be greater or equal to 0, but found to be -1/,
        'negative lambd',
      ),
    ],
  }),
  activation({ op: 'hardsigmoid', dtypes: FLOATS }),
  activation({ op: 'hardswish', dtypes: FLOATS }),
  activation({
    op: 'hardtanh',
    dtypes: [...INTS, ...FLOATS],
    baseKwargs: (ctx) => (ctx.dtype === 'uint8' ? { min_val: 0, max_val: 3 } : {}),
    kwargs: (ctx) =>
      intOr(
        ctx,
        [{ min_val: 0, max_val: 3 }],
        [
          { min_val: -0.5, max_val: 2.5 },
          { min_val: 2, max_val: 1 },
        ],
      ),
    errors: (ctx) => [
      ...(ctx.dtype !== 'uint8'
        ? []
        : [
            raises(
              tensor([1, 2], { dtype: 'uint8' }),
              {},
              'E_INVALID_ARGUMENT',
              /cannot do hardtanh on an unsigned type with negative limits/,
              'uint8 with the default limits',
            ),
          ]),
      raises(tensor([true]), {}, 'E_DTYPE_UNSUPPORTED', /Bool inputs not supported for hardtanh/, 'bool'),
    ],
  }),
  activation({ op: 'relu6', dtypes: [...INTS, ...FLOATS] }),
  activation({
    op: 'leaky_relu',
    dtypes: FLOATS,
    kwargs: [{ negative_slope: 0.2 }, { negative_slope: -1.5 }],
  }),
  activation({ op: 'log_sigmoid', name: 'logsigmoid', dtypes: FLOATS }),
  activation({ op: 'mish', dtypes: FLOATS }),
  activation({
    op: 'threshold',
    dtypes: [...INTS, ...FLOATS],
    positional: { threshold: 0.5, value: 9 },
    kwargs: [],
    // An int64 tensor converts its Scalar arguments to int64_t, which has no value for inf.
    errors: () => [
      {
        ...raises(
          tensor([1, 2], { dtype: 'int64' }),
          {},
          'E_INVALID_ARGUMENT',
          /value cannot be converted to type int64_t without overflow/,
          'int64 input, threshold inf',
          [float(Number.POSITIVE_INFINITY), 0],
        ),
        valueDependent: 'cpu only: webgpu stores int64 but computes none, and refuses the dtype first',
      },
    ],
  }),
];
