/**
 * Sample generators for view, copy and factory ops: each op lists its cases as data (input shape, arguments,
 * optional kwargs) and these turn them into SampleInputs / ErrorInputs of the context's dtype and device.
 */
import {
  DTYPE_GROUPS,
  DTYPE_INFO,
  type DType,
  type ErrorCode,
  float,
  type Scalar,
  type Tensor,
} from '../../src/runtime/index.ts';
import { type OpInfoSpec, opInfo } from '../info.ts';
import { type Maker, maker } from '../make.ts';
import type {
  ErrorInput,
  FactoryInput,
  OpInfo,
  RefFn,
  RefSample,
  SampleContext,
  SampleInput,
  SkipRule,
} from '../types.ts';
import { sample } from './unary.ts';

/** Arguments given directly, or built from the maker (tensor arguments: expand_as's other, copy_'s src). */
export type CaseArgs = readonly unknown[] | ((make: Maker, ctx: SampleContext, input: Tensor) => unknown[]);

export interface ViewCase {
  readonly shape: readonly number[];
  readonly args?: CaseArgs;
  readonly kwargs?: Readonly<Record<string, unknown>>;
  readonly name?: string;
  /** The Tensor method's own form (SampleInput.method): `x.reshape(2, 3)`, sizes as varargs. */
  readonly method?: boolean;
}

export interface ErrorCase extends ViewCase {
  readonly code: ErrorCode;
  readonly regex: RegExp;
  /** Builds the input from the made tensor (e.g. a transposed or expanded view of it). */
  readonly prep?: (t: Tensor, make: Maker) => Tensor;
}

const fmt = (x: unknown): string =>
  Array.isArray(x) ? `[${x.map(fmt).join(', ')}]` : x === null ? 'None' : String(x);

function describe(shape: readonly number[], args: readonly unknown[], kwargs: object): string {
  const shown = args.map((a) => (typeof a === 'object' && a !== null && 'shape' in a ? 'tensor' : fmt(a)));
  const kw = Object.entries(kwargs).map(([k, v]) => `${k}=${fmt(v)}`);
  return `[${shape.join(', ')}] (${[...shown, ...kw].join(', ')})`;
}

const argsOf = (a: CaseArgs | undefined, make: Maker, ctx: SampleContext, input: Tensor) =>
  typeof a === 'function' ? a(make, ctx, input) : [...(a ?? [])];

/** Samples for an op taking a tensor input: one per case, in order. */
export const viewSamples =
  (cases: readonly ViewCase[]) =>
  (ctx: SampleContext): SampleInput[] => {
    const make = maker(ctx);
    return cases.map((c) => {
      const input = make(c.shape);
      const args = argsOf(c.args, make, ctx, input);
      const kwargs = { ...c.kwargs };
      return sample(input, args, kwargs, {
        name: c.name ?? describe(c.shape, args, kwargs),
        ...(c.method && { method: true }),
      });
    });
  };

export const viewErrors =
  (cases: readonly ErrorCase[]) =>
  (ctx: SampleContext): ErrorInput[] => {
    const make = maker(ctx, 7);
    return cases.map((c) => {
      const t = make(c.shape);
      const args = argsOf(c.args, make, ctx, t);
      const kwargs = { ...c.kwargs };
      const input = c.prep ? c.prep(t, make) : t;
      const name = c.name ?? describe(c.shape, args, kwargs);
      return { sample: sample(input, args, kwargs, { name }), code: c.code, regex: c.regex };
    });
  };

export interface FactoryCase {
  readonly input: FactoryInput;
  readonly args?: readonly unknown[];
  /** More keyword arguments; the context's dtype (and non-cpu device) are passed after them. */
  readonly kwargs?: Readonly<Record<string, unknown>>;
  readonly name?: string;
}

/** The dtype (and a non-cpu device) as kwargs, the way a factory is asked for them. */
export function factoryKwargs(ctx: SampleContext): Record<string, unknown> {
  return ctx.device === 'cpu' ? { dtype: ctx.dtype } : { dtype: ctx.dtype, device: ctx.device };
}

export const factorySamples =
  (cases: readonly FactoryCase[] | ((ctx: SampleContext) => readonly FactoryCase[])) =>
  (ctx: SampleContext): SampleInput[] =>
    (typeof cases === 'function' ? cases(ctx) : cases).map((c) =>
      sample(
        c.input,
        [...(c.args ?? [])],
        { ...c.kwargs, ...factoryKwargs(ctx) },
        {
          name: c.name ?? `${fmt(c.input)} ${fmt(c.args ?? [])}`,
        },
      ),
    );

export const factoryErrors =
  (cases: readonly (FactoryCase & { code: ErrorCode; regex: RegExp })[]) =>
  (ctx: SampleContext): ErrorInput[] =>
    cases.map((c) => ({
      // A case's own keywords (a fixed dtype among them) win over the context's dtype.
      sample: sample(c.input, [...(c.args ?? [])], { dtype: ctx.dtype, ...c.kwargs }, { name: c.name }),
      code: c.code,
      regex: c.regex,
    }));

/**
 * A fill value of the dtype's kind (bool, int, float). Complex dtypes get a real float: references see Scalars
 * as their real part only (toRefSample drops the imaginary part), so a complex fill could not be checked.
 */
export function fillValue(dtype: DType, alt = false): Scalar | boolean | number {
  const kind = DTYPE_INFO[dtype].kind;
  if (kind === 'bool') return !alt;
  if (kind === 'int') return alt ? 7 : dtype === 'uint8' ? 3 : -3;
  return float(alt ? 0.5 : -1.5);
}

/** A 4-D shape (the channels_last layout applies to it). */
export const FOUR: readonly number[] = [2, 3, 2, 2];

/** Shapes every copy-like op runs on: 0-dim, 1-D, 2-D, 3-D, zero-size and a 4-D (channels_last) one. */
export const COPY_SHAPES: readonly (readonly number[])[] = [[], [7], [3, 5], [2, 3, 4], [0, 4], [2, 3, 2, 2]];

/** A case: input shape and positional arguments. */
export const c = (shape: readonly number[], ...args: unknown[]): ViewCase => ({ shape, args });
export const err = (
  code: ErrorCode,
  regex: RegExp,
  shape: readonly number[],
  ...args: unknown[]
): ErrorCase => ({
  shape,
  args,
  code,
  regex,
});
export const dimErr = (shape: readonly number[], ...args: unknown[]): ErrorCase =>
  err('E_DIM_OUT_OF_RANGE', /Dimension out of range/, shape, ...args);

/** Positional argument `i` of a reference sample (or `dflt` when the sample leaves it out). */
export const arg = <T>(s: RefSample, i: number, dflt?: T): T =>
  (s.args[i] === undefined ? dflt : s.args[i]) as T;

/** A size (or dims) given as one list (`x.view([2, 3])`) or as the Tensor method's varargs (`x.view(2, 3)`). */
export const sizeArg = (s: RefSample): number[] =>
  Array.isArray(s.args[0])
    ? (s.args[0] as number[])
    : (s.args.filter((a) => typeof a === 'number') as number[]);

/** Runs a view/copy op declaration through opInfo with the family's defaults (all dtypes, method, isView). */
export function view(
  name: string,
  ref: RefFn,
  cases: readonly ViewCase[],
  errors: readonly ErrorCase[],
  extra: Partial<OpInfoSpec> = {},
): OpInfo {
  return opInfo({
    name,
    family: 'view',
    dtypes: DTYPE_GROUPS.all,
    sampleInputs: viewSamples(cases),
    errorInputs: viewErrors(errors),
    ref,
    resultDType: (s) => (s.input as Tensor).dtype,
    flags: { isView: true },
    ...extra,
  });
}

/** Ops writing to self: the expanded layout gives self stride 0, which PyTorch (and the runtime) reject. */
export const NO_EXPANDED_SELF: SkipRule = {
  kind: 'skip',
  layout: 'expanded',
  reason:
    'the expanded layout makes the written-to self internally overlapping (stride 0); PyTorch raises too',
};
