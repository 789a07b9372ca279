/**
 * Helpers for the onnxruntime op rows: PyTorch's type promotion made explicit (ONNX ops take operands of one
 * type, so a row Casts them to the dtype PyTorch computes in), ONNX attribute spellings, and row builders.
 */
import { type DType, resultType } from '../../runtime/index.ts';
import { defaults, dims, num } from '../rows.ts';
import { NotExpressible, type OpRow, type TargetArg } from '../target.ts';
import { ints, isOrtT, type Meta, node, type OrtT, rankOf, scalar } from './graph.ts';
import { ELEM } from './onnx_proto.ts';

export type Row = OpRow<unknown, OrtT>;
export type Args = Readonly<Record<string, TargetArg<OrtT>>>;

export const isFloat = (d: DType) =>
  d === 'float16' || d === 'bfloat16' || d === 'float32' || d === 'float64';
export const isIntegral = (d: DType) => !isFloat(d) && d !== 'bool' && !d.startsWith('complex');

export function t(x: TargetArg<OrtT>, what = 'argument'): OrtT {
  if (isOrtT(x)) return x;
  throw new NotExpressible(`${what} is not a tensor`);
}

/** PyTorch's result dtype of tensors and Python numbers (an integral number counts as an int). */
export function promote(xs: readonly (TargetArg<OrtT> | undefined)[]): DType {
  return resultType(
    xs
      .filter((x) => x !== null && x !== undefined)
      .map((x) => {
        if (isOrtT(x)) return { kind: 'tensor' as const, dtype: x.dtype ?? 'float32', dim: rankOf(x) };
        if (typeof x === 'boolean') return { kind: 'scalar' as const, scalarKind: 'bool' as const };
        if (typeof x === 'number')
          return { kind: 'scalar' as const, scalarKind: Number.isInteger(x) ? 'int' : 'float' } as const;
        throw new NotExpressible('an operand that is neither a tensor nor a number');
      }),
  );
}

/** A Cast to `d` (none when it is `d` already). */
export function cast(x: OrtT, d: DType): OrtT {
  if (x.dtype === d) return x;
  if (!(d in ELEM)) throw new NotExpressible(`a cast to ${d}`);
  return node(
    'Cast',
    [x],
    { to: ELEM[d as keyof typeof ELEM] },
    { dtype: d, rank: x.kind === 'leaf' ? x.shape.length : x.rank },
  );
}

/** A tensor or Python number as an operand of dtype `d`. */
export function operand(x: TargetArg<OrtT>, d: DType): OrtT {
  if (typeof x === 'number' || typeof x === 'boolean') return scalar(Number(x), d);
  return cast(t(x), d);
}

/** A dim counted from the end made non-negative; one out of range is left as it is, for the target to refuse. */
export const axis = (d: TargetArg<OrtT>, rank: number): number => {
  const v = num(d, 'dim');
  const r = Math.max(rank, 1);
  return v < 0 && v >= -r ? v + r : v;
};

/** A unary ONNX op; `float`: integral and bool inputs are computed in float32 (PyTorch's int-to-float ops). */
export const unary = (
  op: string,
  o: { float?: boolean; floatOnly?: boolean; attrs?: Record<string, number | string> } = {},
): Row => ({
  as: op,
  call: (_rt, a) => {
    let x = t(a.self ?? a.input);
    const d = x.dtype as DType;
    if (o.floatOnly && !isFloat(d)) throw new NotExpressible(`ONNX ${op} takes float tensors only (${d})`);
    if (o.float && !isFloat(d)) x = cast(x, 'float32');
    return node(op, [x], o.attrs ?? {}, { dtype: x.dtype, rank: rankOf(x) });
  },
});

/**
 * A binary ONNX op on PyTorch's promoted dtype; `result`: 'bool' for comparisons, 'float' for true division.
 * `extra` are the arguments that must hold their defaults.
 */
export const binary = (
  op: string,
  o: {
    result?: 'bool' | 'float';
    names?: [string, string];
    extra?: Record<string, unknown>;
    not?: boolean;
  } = {},
): Row => ({
  as: o.not ? `Not(${op})` : op,
  call: (_rt, a) => {
    defaults(a, o.extra ?? {});
    const [n0, n1] = o.names ?? ['self', 'other'];
    let d = promote([a[n0], a[n1]]);
    if (o.result === 'float' && !isFloat(d)) d = 'float32';
    const r = node(
      op,
      [operand(a[n0], d), operand(a[n1], d)],
      {},
      { dtype: o.result === 'bool' ? 'bool' : d },
    );
    return o.not ? node('Not', [r], {}, { dtype: 'bool' }) : r;
  },
});

/** A logical op: operands cast to bool. */
export const logical = (op: string, arity: 1 | 2): Row => ({
  as: op,
  call: (_rt, a) =>
    node(
      op,
      (arity === 1 ? [a.self] : [a.self, a.other]).map((x) => operand(x, 'bool')),
      {},
      { dtype: 'bool' },
    ),
});

/** A reduction with axes as its second input (opset 18) and keepdims; all dims when `dim` is null or []. */
export function reduce(op: string, x: OrtT, dim: TargetArg<OrtT>, keepdim: boolean, meta: Meta = {}): OrtT {
  const ds = dims(dim);
  const rank = rankOf(x);
  const axes = ds ? ints(ds.map((v) => axis(v, rank))) : null;
  // A 0-dim tensor reduces over dim 0/-1 in PyTorch; ONNX has no axis there: reduce it as a 1-element vector.
  if (rank === 0) {
    const v = node('Reshape', [x, ints([1])], {}, { dtype: x.dtype, rank: 1 });
    return node(op, [v, ints([0])], { keepdims: 0 }, meta);
  }
  return node(op, axes ? [x, axes] : [x], { keepdims: keepdim ? 1 : 0 }, meta);
}

/** PyTorch's accumulate dtype for sum/prod/cumsum: integral and bool inputs in int64, `dtype=` first. */
export function accumulate(x: OrtT, dtype: TargetArg<OrtT>): OrtT {
  if (dtype !== null && dtype !== undefined) return cast(x, dtype as DType);
  return isIntegral(x.dtype as DType) || x.dtype === 'bool' ? cast(x, 'int64') : x;
}

export const unmapped = (why: string): Row => ({ unmapped: why });

/** A row for one ONNX activation op with attributes computed from PyTorch's arguments. */
export const activation = (
  op: string,
  attrs: (a: Args) => Record<string, number | string | { float: number }>,
): Row => ({
  as: op,
  call: (_rt, a) => {
    const x = t(a.self ?? a.input);
    if (!isFloat(x.dtype as DType)) throw new NotExpressible(`ONNX ${op} takes float tensors only`);
    return node(op, [x], attrs(a), { dtype: x.dtype, rank: rankOf(x) });
  },
});

export const f = (v: TargetArg<OrtT>, what: string) => ({ float: num(v, what) });
