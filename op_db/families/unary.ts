/** Sample generators for unary pointwise ops: shapes incl. 0-dim, zero-size and 4-D, plus special floats. */
import { DTYPE_INFO } from '../../src/runtime/index.ts';
import { type MakeOptions, maker, SPECIAL_FLOATS } from '../make.ts';
import type { SampleContext, SampleInput } from '../types.ts';

export const UNARY_SHAPES: readonly (readonly number[])[] = [
  [],
  [7],
  [3, 5],
  [2, 3, 4],
  [0, 4],
  [2, 3, 2, 2],
];

export interface UnaryOptions extends MakeOptions {
  /** Extra kwargs for every sample. */
  readonly kwargs?: Readonly<Record<string, unknown>>;
  /** Skip the special-values sample (ops whose reference is ill-defined there). */
  readonly noSpecials?: boolean;
  /** Value range for gradient samples (ctx.requiresGrad): the op's smooth domain, e.g. log on [0.5, 9]. */
  readonly gradDomain?: MakeOptions;
}

export function sample(
  input: SampleInput['input'],
  args: unknown[] = [],
  kwargs: Record<string, unknown> = {},
  extra: Partial<SampleInput> = {},
): SampleInput {
  return { input, args, kwargs, ...extra };
}

export const unarySamples =
  (o: UnaryOptions = {}) =>
  (ctx: SampleContext): SampleInput[] => {
    const make = maker(ctx);
    const kw = o.kwargs ?? {};
    const values = ctx.requiresGrad ? { ...o, ...o.gradDomain } : o;
    const out = UNARY_SHAPES.map((s) =>
      sample(make(s, values), [], { ...kw }, { name: `shape [${s.join(', ')}]` }),
    );
    // Special values (NaN, ±Inf) have no finite derivatives: gradient samples leave them out.
    if (!o.noSpecials && !ctx.requiresGrad && DTYPE_INFO[ctx.dtype].kind === 'float') {
      out.push(sample(make.values(SPECIAL_FLOATS), [], { ...kw }, { name: 'special values' }));
    }
    return out;
  };

/** out= with a dtype the result cannot be cast to (float results into an int64 out), PyTorch's test_out. */
export const unaryErrors =
  (resultIsFloat: boolean) =>
  (ctx: SampleContext): import('../types.ts').ErrorInput[] => {
    const make = maker(ctx);
    if (!resultIsFloat) return [];
    const out = make([3]).to('int64');
    return [
      {
        sample: sample(make([3]), [], { out }, { name: 'out= int64 for a float result' }),
        code: 'E_RESULT_TYPE',
        regex: /can't be cast to the desired output type Long/,
      },
    ];
  };
