/**
 * Sample generators for reductions, scans and softmax. One generator, `reductionSamples`, covers every dim
 * form the ops take: the full overload (sum(x)), 0-dim inputs (dim 0 / -1), negative dims, dim lists, an
 * explicit None or [] (reduce everything), keepdim positional and as a keyword, zero-size inputs, size-1
 * dims, a 4-D input (channels_last), dtype=, ties (first index wins) and special floats (NaN, ±inf).
 *
 * On a dtype the op does not claim, only samples that must raise E_DTYPE_UNSUPPORTED are kept (PyTorch never
 * reaches the dtype dispatch for an empty input, a 0-dim scan or a size-1 arg-reduction, and dtype= casts
 * the input first, so those samples legitimately work on any dtype).
 */
import { DTYPE_INFO, type DType, type ErrorCode, type Tensor } from '../../src/runtime/index.ts';
import { type Maker, maker, SPECIAL_FLOATS } from '../make.ts';
import type { ErrorInput, SampleContext, SampleInput } from '../types.ts';
import { sample } from './unary.ts';

export const REDUCTION_SHAPES: readonly (readonly number[])[] = [
  [],
  [7],
  [3, 5],
  [2, 3, 4],
  [0, 4],
  [4, 1, 3],
  [2, 3, 2, 2],
];

/** One call's dims: `dim` undefined = the full overload (op(x)); null = dim=None. */
export interface DimCase {
  readonly dim?: number | readonly number[] | null;
  readonly keepdim?: boolean;
  /** Pass dim/keepdim as keywords instead of positionally. */
  readonly kw?: boolean;
}

export interface ReductionSpec {
  /** The claimed cpu dtypes (see the module comment for the others). */
  readonly dtypes: readonly DType[];
  /** 'list' = int[1] (also given as lists), 'int' = one dim. */
  readonly dims: 'list' | 'int';
  /** The op has a full overload op(x) reducing everything. */
  readonly full?: boolean;
  /** The op takes keepdim (false for scans and softmax). Default true. */
  readonly keepdim?: boolean;
  /** Reducing a zero-size dim is valid (sum: 0); false for max/argmax-like ops. Default true. */
  readonly identity?: boolean;
  /** How reduce-everything is spelled besides op(x): dim=None or dim=[]. */
  readonly allDims?: 'none' | 'empty';
  /** The dtype= for an input dtype (null: no dtype sample). */
  readonly dtypeArg?: (d: DType) => DType | null;
  /** Positional args and kwargs of a dim case (default: [dim, keepdim?] or {dim, keepdim}). */
  readonly call?: (c: DimCase) => [unknown[], Record<string, unknown>];
  /** Op-specific samples (ords, unbiased/correction, ...). */
  readonly extra?: (make: Maker, ctx: SampleContext) => SampleInput[];
  /** Special-value samples for float dtypes. Default true. */
  readonly specials?: boolean;
}

const fmt = (x: unknown): string =>
  Array.isArray(x) ? `[${x.map(fmt).join(', ')}]` : x === null ? 'None' : String(x);

export function describe(t: Tensor, args: readonly unknown[], kwargs: Record<string, unknown>): string {
  const kw = Object.entries(kwargs).map(([k, v]) => `${k}=${fmt(v)}`);
  return `[${t.shape.join(', ')}] (${[...args.map(fmt), ...kw].join(', ')})`;
}

export function defaultCall(c: DimCase): [unknown[], Record<string, unknown>] {
  if (c.dim === undefined) return [[], {}];
  if (c.kw) return [[], c.keepdim === undefined ? { dim: c.dim } : { dim: c.dim, keepdim: c.keepdim }];
  return [c.keepdim === undefined ? [c.dim] : [c.dim, c.keepdim], {}];
}

/** A sample named after its call. */
export function call(
  t: Tensor,
  args: unknown[] = [],
  kwargs: Record<string, unknown> = {},
  note = '',
): SampleInput {
  return sample(t, args, kwargs, { name: `${describe(t, args, kwargs)}${note ? ` ${note}` : ''}` });
}

const reducedSizes = (shape: readonly number[], dim: DimCase['dim']): number[] => {
  if (dim === undefined || dim === null || (Array.isArray(dim) && dim.length === 0)) return [...shape];
  if (shape.length === 0) return [1];
  const list = Array.isArray(dim) ? dim : [dim as number];
  return list.map((d) => shape[d < 0 ? d + shape.length : d]);
};

/** The dim cases for an input shape. */
function dimCases(shape: readonly number[], spec: ReductionSpec): DimCase[] {
  const n = shape.length;
  const keep = spec.keepdim ?? true;
  const k = (v: boolean) => (keep ? v : undefined);
  const cases: DimCase[] = [];
  if (spec.full) cases.push({});
  if (n === 0) {
    cases.push({ dim: spec.dims === 'list' ? [0] : 0 }, { dim: -1, keepdim: k(true), kw: true });
  } else {
    cases.push({ dim: -1 }, { dim: 0, keepdim: k(true), kw: true });
    if (n >= 3) cases.push({ dim: 1, keepdim: k(false) });
    if (spec.dims === 'list' && n >= 2) cases.push({ dim: [0, -1] });
    if (spec.dims === 'list' && n >= 3) cases.push({ dim: [-1, 1], keepdim: k(true), kw: true });
  }
  const identity = spec.identity ?? true;
  return cases.filter((c) => identity || reducedSizes(shape, c.dim).every((s) => s > 0));
}

const isProbe = (s: SampleInput): boolean => {
  const t = s.input as Tensor;
  return t.numel > 0 && t.ndim > 0 && !t.shape.includes(1) && s.kwargs.dtype === undefined;
};

export const reductionSamples =
  (spec: ReductionSpec) =>
  (ctx: SampleContext): SampleInput[] => {
    const make = maker(ctx);
    const build = spec.call ?? defaultCall;
    const kind = DTYPE_INFO[ctx.dtype].kind;
    const out: SampleInput[] = [];
    const add = (t: Tensor, c: DimCase, extraKw: Record<string, unknown> = {}, note = '') => {
      const [args, kwargs] = build(c);
      out.push(call(t, args, { ...kwargs, ...extraKw }, note));
    };
    // Gradient samples stay near 1 so products (prod, cumprod, norms with large p) stay well scaled.
    const values = ctx.requiresGrad ? { low: 0.5, high: 1.5 } : {};
    for (const shape of REDUCTION_SHAPES) {
      const t = make(shape, values);
      for (const c of dimCases(shape, spec)) add(t, c);
    }
    const x = make([3, 5], values);
    if (spec.allDims === 'none') add(x, { dim: null, keepdim: true });
    if (spec.allDims === 'empty') add(x, { dim: [], keepdim: true });
    const dt = spec.dtypeArg?.(ctx.dtype) ?? null;
    if (dt !== null) add(x, { dim: -1 }, { dtype: dt }, 'dtype=');
    if (dt !== null && spec.full) add(x, {}, { dtype: dt }, 'all dims, dtype=');
    // Ties: the first index wins for arg-reductions (also for bool and after int casts). Not for gradient
    // samples: max/amax/sort are not differentiable at ties.
    if (!ctx.requiresGrad) {
      const ties = make.values([1, 3, 3, 0, 3, 1, 3, 3, 0, 0, 2, 2], [3, 4]);
      for (const c of [{ dim: 1 }, { dim: 0, keepdim: true, kw: true }] as DimCase[])
        add(ties, spec.keepdim === false ? { ...c, keepdim: undefined } : c, {}, 'ties');
    }
    if (kind === 'float' && spec.specials !== false && !ctx.requiresGrad) {
      const sp = make.values(SPECIAL_FLOATS, [2, 7]);
      if (spec.full) add(sp, {}, {}, 'specials');
      add(sp, { dim: 1 }, {}, 'specials');
      add(sp, { dim: 0 }, {}, 'specials');
      const N = Number.NaN;
      const I = Number.POSITIVE_INFINITY;
      const nans = make.values([1, N, 3, N, 2, 1, 5, 0, -I, 4, 4, -1], [3, 4]);
      add(nans, { dim: 1 }, {}, 'two NaNs');
      add(nans, { dim: 0 }, {}, 'NaN and -inf');
      add(make.values([-I, -I, -I, 1, 2, I], [2, 3]), { dim: -1 }, {}, 'all -inf / +inf lines');
    }
    out.push(...(spec.extra?.(make, ctx) ?? []));
    // Unclaimed dtypes: ReductionSpec.dtypes says which samples must raise (see the module comment).
    return spec.dtypes.includes(ctx.dtype) ? out : out.filter(isProbe);
  };

/**
 * int64 samples whose sums / products overflow: the result wraps like int64 arithmetic (values are exact in
 * float64, so the reference's bigint arithmetic sees them exactly). Dims as `dims` takes them.
 */
export const int64Overflow =
  (dims: 'list' | 'int' | 'scan') =>
  (make: Maker, ctx: SampleContext): SampleInput[] => {
    if (ctx.dtype !== 'int64') return [];
    const big = make.values([2 ** 62, 2 ** 62, 2 ** 31 + 1, 2 ** 62, 2 ** 33 + 3, -(2 ** 40) - 5], [2, 3]);
    const note = 'int64 wrap-around';
    if (dims === 'scan') return [call(big, [0], {}, note), call(big, [1], {}, note)];
    return [
      call(big, [], {}, note),
      call(big, [dims === 'list' ? [0] : 0], {}, note),
      call(big, [1], {}, note),
    ];
  };

/**
 * A reduction over the outer dim of rows 130 wide (sum(x, [0]) of [3, 130]), floats only: on float32 the cpu takes
 * it through the SIMD column kernel (from 128 columns), every other sample is too narrow for it.
 */
export const outerDimColumns = (make: Maker, ctx: SampleContext): SampleInput[] =>
  DTYPE_INFO[ctx.dtype].kind === 'float' ? [call(make([3, 130]), [[0]], {}, 'outer dim, 130 columns')] : [];

/**
 * Large finite logits for the exp-sum reductions (softmax, log_softmax, logsumexp): exp(1000) overflows even
 * float64, so a kernel that skips the max subtraction gives inf / NaN here (every other sample is small). The values
 * are exact in bfloat16 and float16 too.
 */
export const largeLogits =
  (dims: 'list' | 'int') =>
  (make: Maker, ctx: SampleContext): SampleInput[] => {
    if (DTYPE_INFO[ctx.dtype].kind !== 'float') return [];
    const x = make.values([1000, 996, -1000, 88, 92, 90], [2, 3]);
    const note = 'large finite logits';
    return [call(x, [dims === 'list' ? [1] : 1], {}, note), call(x, [0], {}, note)];
  };

/** Common widening/narrowing dtype= choices: float16/bfloat16 -> float32, float32 <-> float64, complex. */
export function otherFloat(d: DType): DType | null {
  const map: Partial<Record<DType, DType>> = {
    float16: 'float32',
    bfloat16: 'float32',
    float32: 'float64',
    float64: 'float32',
    complex64: 'complex128',
    complex128: 'complex64',
  };
  return map[d] ?? null;
}

/** dtype= for sum/prod/cumsum: floats as otherFloat, bool/int inputs accumulate in float64. */
export const accumulateDTypeArg = (d: DType): DType | null => otherFloat(d) ?? 'float64';

// ---- error inputs ----

export interface ErrorCase {
  readonly shape: readonly number[];
  readonly dtype?: DType;
  readonly args?: readonly unknown[];
  readonly kwargs?: Readonly<Record<string, unknown>>;
  /** Tensor kwargs (out=) built per run. */
  readonly out?: { readonly shape: readonly number[]; readonly dtype: DType };
  readonly code: ErrorCode;
  readonly regex: RegExp;
}

export const reductionErrors =
  (cases: readonly ErrorCase[]) =>
  (ctx: SampleContext): ErrorInput[] =>
    cases.map((c, i) => {
      const make = maker({ ...ctx, dtype: c.dtype ?? 'float32' }, 11 + i);
      const t = make(c.shape);
      const kwargs: Record<string, unknown> = { ...c.kwargs };
      if (c.out) kwargs.out = maker({ ...ctx, dtype: c.out.dtype }, 3)(c.out.shape);
      return { sample: call(t, [...(c.args ?? [])], kwargs), code: c.code, regex: c.regex };
    });

const escapeRegExp = (t: string) => t.replace(/[[\]-]/g, '\\$&');

/** "Dimension out of range" naming the range and the bad dim, in either order (PyTorch puts the range first). */
const dimMessage = (got: number, range: string): RegExp =>
  new RegExp(`^(?=.*Dimension out of range)(?=.*${escapeRegExp(range)})(?=.*got ${got}\\b)`, 's');

/** dim out of range for a 2-D and a 0-dim input (int or list dim). */
export function dimRangeErrors(list: boolean, lead: readonly unknown[] = []): ErrorCase[] {
  const d = (v: number) => (list ? [v] : v);
  return [
    {
      shape: [2, 3],
      args: [...lead, d(2)],
      code: 'E_DIM_OUT_OF_RANGE',
      regex: dimMessage(2, '[-2, 1]'),
    },
    {
      shape: [2, 3],
      args: [...lead, d(-3)],
      code: 'E_DIM_OUT_OF_RANGE',
      regex: dimMessage(-3, '[-2, 1]'),
    },
    {
      shape: [],
      args: [...lead, d(1)],
      code: 'E_DIM_OUT_OF_RANGE',
      regex: dimMessage(1, '[-1, 0]'),
    },
  ];
}

/** The same dim twice in a dim list (after wrapping). */
export const duplicateDims = (lead: readonly unknown[] = []): ErrorCase => ({
  shape: [2, 3],
  args: [...lead, [0, -2]],
  code: 'E_INVALID_ARGUMENT',
  regex: /dim 0 appears multiple times in the list of dims/,
});

/** Reductions without an identity (max, argmax) refuse empty reductions. */
export function emptyReductionErrors(full: boolean, list: boolean): ErrorCase[] {
  const cases: ErrorCase[] = [
    {
      shape: [0, 3],
      args: [list ? [0] : 0],
      code: 'E_INDEX_OUT_OF_RANGE',
      regex: /Expected reduction dim 0 to have non-zero size/,
    },
  ];
  if (full) {
    cases.push({
      shape: [0, 3],
      code: 'E_INDEX_OUT_OF_RANGE',
      regex: /Expected reduction dim to be specified for input.numel\(\) == 0/,
    });
  }
  return cases;
}

/** PyTorch's AT_DISPATCH message for a dtype without a kernel. */
export const notImplemented = (kernel: string, torchName: string): RegExp =>
  new RegExp(`"${kernel}" not implemented for '${torchName}'`);
