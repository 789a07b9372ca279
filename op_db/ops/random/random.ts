/**
 * OpInfos for the randomized ops: dropout, dropout2d, dropout3d, feature_alpha_dropout, rrelu, and aten's uniform_
 * (the draw all of them are built on).
 * They are `randomized`: every oracle call reseeds the default generator (RANDOM_SEED) first, and the references
 * replay the same stream (op_db/refs/random.ts), so values are checked exactly like any op's. Samples cover the
 * identities (p = 0, training=False), p = 1, and training with 0 < p < 1; distribution checks (mean, variance,
 * same seed same bits) are in tests/unit/random.test.ts.
 */
import {
  DTYPE_GROUPS,
  DTYPE_INFO,
  type DType,
  Generator,
  type Tensor,
  tensor,
} from '../../../src/runtime/index.ts';
import { sample } from '../../families/unary.ts';
import { NO_EXPANDED_SELF } from '../../families/views.ts';
import { opInfo } from '../../info.ts';
import { maker } from '../../make.ts';
import { dropoutRef, rreluRef, uniformRef } from '../../refs/random.ts';
import { type RefTensor, refTensor } from '../../refs/tensor.ts';
import {
  type ErrorInput,
  type OpInfo,
  RANDOM_SEED,
  type RefSample,
  type SampleContext,
  type SampleInput,
} from '../../types.ts';

const FLOATS = DTYPE_GROUPS.floating;
const isFloat = (d: DType) => DTYPE_INFO[d].kind === 'float';
/** p = 1: input * 0, as aten multiplies (NaN and inf give NaN). */
const timesZero = (x: RefTensor) =>
  refTensor(
    x.shape,
    x.dtype,
    x.re.map((v) => v * 0),
  );

interface DropoutSpec {
  readonly name: 'dropout' | 'dropout2d' | 'dropout3d' | 'feature_alpha_dropout';
  /** Input shapes with the dims the variant expects (channels at dim 1 for the feature variants). */
  readonly shapes: readonly (readonly number[])[];
  readonly feature: boolean;
  readonly alpha: boolean;
  readonly trainingDefault: boolean;
}

function dropoutSamples(spec: DropoutSpec) {
  return (ctx: SampleContext): SampleInput[] => {
    const make = maker(ctx);
    const [a, b] = spec.shapes;
    const train = spec.trainingDefault ? {} : { training: true };
    // On a dtype it does not claim, only what raises there: training with 0 < p < 1 (the identities work on
    // every dtype, as in PyTorch).
    const random = [
      sample(make(a), [], { ...train }, { name: `${a} p=0.5`, draws: true }),
      sample(make(b), [0.2], { ...train }, { name: `${b} p=0.2`, draws: true }),
      // inplace=True writes the input (tests/unit/random.test.ts); a sample here must leave it unchanged.
      sample(
        make(a),
        [],
        { p: 0.75, ...train, inplace: false },
        { name: `${a} p=0.75 inplace=False`, draws: true },
      ),
    ];
    if (!isFloat(ctx.dtype)) return random.slice(0, 1);
    return [
      ...random,
      sample(make(a), [0], { ...train }, { name: 'p=0 (the input itself)' }),
      sample(make(b), [0.5, false], {}, { name: 'training=False (the input itself)' }),
      ...(ctx.requiresGrad ? [] : [sample(make(a), [1], { ...train }, { name: 'p=1 (input * 0)' })]),
      sample(make([0, ...a.slice(1)]), [0.5], { ...train }, { name: 'zero-size' }),
      // F.feature_alpha_dropout goes straight to aten, where 2 dims (batch, channel) is the fewest it takes
      // (F.dropout2d / dropout3d add a batch dim first).
      ...(spec.name === 'feature_alpha_dropout'
        ? [
            sample(
              make([3, 4]),
              [0.5],
              { ...train },
              { name: '2-d: one mask value per (batch, channel)', draws: true },
            ),
          ]
        : []),
    ];
  };
}

function dropoutRefOf(spec: DropoutSpec) {
  return (s: RefSample): RefTensor => {
    const p = Number(s.args[0] ?? s.kwargs.p ?? 0.5);
    const training = Boolean(s.args[1] ?? s.kwargs.training ?? spec.trainingDefault);
    if (p === 0 || !training || s.input.re.length === 0) return s.input;
    if (p === 1) return timesZero(s.input);
    return dropoutRef(s.input, p, RANDOM_SEED, spec);
  };
}

const pErrors =
  (name: string, feature: boolean) =>
  (ctx: SampleContext): ErrorInput[] => {
    const make = maker(ctx);
    return [
      {
        sample: sample(make([2, 3]), [1.5]),
        code: 'E_INVALID_ARGUMENT',
        regex: /dropout probability has to be between 0 and 1, but got 1.5/,
      },
      {
        sample: sample(make([2, 3]), [-0.1]),
        code: 'E_INVALID_ARGUMENT',
        regex: /dropout probability has to be between 0 and 1, but got -0.1/,
      },
      ...(feature && name === 'feature_alpha_dropout'
        ? [
            {
              sample: sample(make([4]), [0.5, true]),
              code: 'E_INVALID_ARGUMENT' as const,
              regex: /Feature dropout requires at least 2 dimensions in the input/,
            },
          ]
        : []),
      // The Bernoulli mask is a float: an integral input cannot take it (bernoulli_'s result type check).
      {
        sample: sample(make(name === 'dropout3d' ? [2, 2, 2, 2, 2] : [2, 2, 2, 2]).to('int32'), [0.5, true]),
        code: 'E_DTYPE_UNSUPPORTED',
        regex: /result type Float can't be cast to the desired output type Int/,
      },
    ];
  };

function dropout(spec: DropoutSpec): OpInfo {
  return opInfo({
    name: `nn.functional.${spec.name}`,
    op: `_functional_${spec.name}`,
    family: 'random',
    dtypes: FLOATS,
    sampleInputs: dropoutSamples(spec),
    ref: dropoutRefOf(spec),
    resultDType: (s) => (s.input as Tensor).dtype,
    errorInputs: pErrors(spec.name, spec.feature),
    // Alpha dropout adds b (about ±2) to x * mask * a, each rounded to the dtype: near zero the sum keeps the
    // absolute error of the terms (half an ulp of 2), not a relative one.
    tolerances: spec.alpha
      ? { bfloat16: { rtol: 1.6e-2, atol: 1e-2 }, float16: { rtol: 1e-3, atol: 2e-3 } }
      : {},
    flags: { randomized: true },
  });
}

function rreluSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  const train = [
    sample(make([3, 4]), [0.1, 0.3, true], {}, { name: 'training, lower 0.1 upper 0.3', draws: true }),
    sample(make([2, 3, 2]), [], { training: true }, { name: 'training, default bounds', draws: true }),
  ];
  if (!isFloat(ctx.dtype)) return train.slice(0, 1);
  return [
    ...train,
    sample(make([7]), [], {}, { name: 'eval: slope (lower + upper) / 2' }),
    sample(make([2, 3]), [], { lower: 0.2, upper: 0.2, training: true }, { name: 'lower == upper' }),
    sample(make([]), [0.05, 0.5, true], {}, { name: '0-dim', draws: true }),
    sample(make([0, 3]), [], { training: true }, { name: 'zero-size' }),
    // generator= is aten's (Python's F.rrelu has none): replayed through torch.ops.aten.rrelu.
    sample(
      make([3, 3]),
      [0.1, 0.4, true],
      { generator: new Generator(7) },
      { name: 'generator=', aten: true, draws: true },
    ),
  ];
}

function rreluRefFn(s: RefSample): RefTensor {
  const lower = Number(s.args[0] ?? s.kwargs.lower ?? 0.125);
  const upper = Number(s.args[1] ?? s.kwargs.upper ?? 1 / 3);
  const training = Boolean(s.args[2] ?? s.kwargs.training ?? false);
  const x = s.input;
  if (!training) {
    const slope = (lower + upper) / 2;
    return refTensor(
      x.shape,
      x.dtype,
      x.re.map((v) => (v >= 0 || Number.isNaN(v) ? v : v * slope)),
    );
  }
  const g = s.kwargs.generator;
  return rreluRef(x, lower, upper, g instanceof Generator ? g.initialSeed() : RANDOM_SEED);
}

/**
 * uniform_ in place: a bounded range, the default [0, 1), an empty range (from == to: every draw gives `from`), an
 * explicit generator, zero-size. Its own in-place op: the reference oracle checks it bumps self's version.
 */
function uniformSamples(ctx: SampleContext): SampleInput[] {
  const make = maker(ctx);
  return [
    sample(make([3, 4]), [-2, 3], {}, { name: '[-2, 3)' }),
    sample(make([5]), [], {}, { name: 'default [0, 1)' }),
    sample(make([2, 3]), [1.5, 1.5], {}, { name: 'from == to' }),
    sample(make([4, 2]), [0, 8], { generator: new Generator(11) }, { name: 'generator=' }),
    sample(make([0, 3]), [0, 1], {}, { name: 'zero-size' }),
  ].map((s) => ({ ...s, aten: true, draws: true }));
}

function uniformRefFn(s: RefSample): RefTensor {
  const from = Number(s.args[0] ?? s.kwargs.from ?? 0);
  const to = Number(s.args[1] ?? s.kwargs.to ?? 1);
  const g = s.kwargs.generator;
  return uniformRef(s.input, from, to, g instanceof Generator ? g.initialSeed() : RANDOM_SEED);
}

export const RANDOM_OPINFOS: readonly OpInfo[] = [
  opInfo({
    name: 'uniform_',
    family: 'random',
    dtypes: FLOATS,
    sampleInputs: uniformSamples,
    ref: uniformRefFn,
    resultDType: (s) => (s.input as Tensor).dtype,
    errorInputs: (ctx) => [
      {
        sample: sample(maker(ctx)([3]), [2, 1]),
        code: 'E_INVALID_ARGUMENT',
        regex: /uniform_ expects to return a \[from, to\) range, but found from=2 > to=1/,
      },
      {
        sample: sample(maker(ctx)([3]).to('int32'), [0, 1]),
        code: 'E_DTYPE_UNSUPPORTED',
        regex: /"check_uniform_bounds" not implemented for 'Int'/,
      },
    ],
    flags: { randomized: true, mutates: true },
    untestedVariants: {
      method:
        'the generator is reseeded once per oracle call: the method call would continue the stream the function call left',
    },
    skips: [NO_EXPANDED_SELF],
  }),
  dropout({
    name: 'dropout',
    shapes: [
      [4, 5],
      [3, 4, 2],
    ],
    feature: false,
    alpha: false,
    trainingDefault: true,
  }),
  dropout({
    name: 'dropout2d',
    shapes: [
      [2, 3, 2, 2],
      [2, 4, 3],
    ],
    feature: true,
    alpha: false,
    trainingDefault: true,
  }),
  dropout({
    name: 'dropout3d',
    shapes: [
      [2, 2, 1, 2, 2],
      [2, 3, 2, 2],
    ],
    feature: true,
    alpha: false,
    trainingDefault: true,
  }),
  dropout({
    name: 'feature_alpha_dropout',
    shapes: [
      [2, 3, 2, 2],
      [3, 4, 2],
    ],
    feature: true,
    alpha: true,
    trainingDefault: false,
  }),
  opInfo({
    name: 'nn.functional.rrelu',
    op: 'rrelu',
    family: 'random',
    dtypes: FLOATS,
    sampleInputs: rreluSamples,
    ref: rreluRefFn,
    resultDType: (s) => (s.input as Tensor).dtype,
    errorInputs: () => [
      {
        sample: sample(tensor([1, -1], { dtype: 'float32' }), [0.5, 0.2, true]),
        code: 'E_INVALID_ARGUMENT',
        regex: /Lower bound should be less than or equal to the upper bound/,
      },
    ],
    flags: { randomized: true },
  }),
];
