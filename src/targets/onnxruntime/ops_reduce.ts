/** onnxruntime rows: reductions, scans, softmax, products, sorting. */
import type { DType } from '../../runtime/index.ts';
import { defaults, num } from '../rows.ts';
import { NotExpressible } from '../target.ts';
import {
  type Args,
  accumulate,
  axis,
  cast,
  isFloat,
  promote,
  type Row,
  reduce,
  t,
  unmapped,
} from './build.ts';
import { ints, node, nodeN, type OrtT, rankOf, shapeOf } from './graph.ts';

/** sum/mean/prod/amax/amin/logsumexp: `dtype=` a Cast before, sum and prod accumulate integers in int64. */
const reduction = (op: string, o: { acc?: boolean; floatOnly?: boolean } = {}): Row => ({
  as: op,
  call: (_rt, a) => {
    let x = t(a.self);
    if (o.acc) x = accumulate(x, a.dtype);
    else if (a.dtype !== undefined && a.dtype !== null) x = cast(x, a.dtype as DType);
    if (o.floatOnly && !isFloat(x.dtype as DType)) throw new NotExpressible(`${op} of a ${x.dtype} tensor`);
    return reduce(op, x, a.dim ?? null, a.keepdim === true, { dtype: x.dtype });
  },
});

/**
 * all/any: ReduceMin/ReduceSum over the values as int32 (ReduceMax of an empty set is the type's minimum, so any
 * sums), read back as bool (uint8 for uint8, as PyTorch).
 */
const allAny = (op: 'ReduceMin' | 'ReduceSum'): Row => ({
  as: `Cast(${op}(Cast(x != 0)))`,
  call: (_rt, a) => {
    const x = t(a.self);
    const r = reduce(op, cast(cast(x, 'bool'), 'int32'), a.dim ?? null, a.keepdim === true, {
      dtype: 'int32',
    });
    return cast(r, x.dtype === 'uint8' ? 'uint8' : 'bool');
  },
});

/** argmax/argmin (select_last_index=0: PyTorch gives the first of tied extremes); dim=None over the flattened. */
const arg = (op: 'ArgMax' | 'ArgMin'): Row => ({
  as: op,
  call: (_rt, a) => {
    let x = t(a.self);
    const keep = a.keepdim === true ? 1 : 0;
    if (a.dim === null || a.dim === undefined) {
      const r = node(op, [node('Reshape', [x, ints([-1])], {}, { dtype: x.dtype, rank: 1 })], {
        axis: 0,
        keepdims: 0,
      });
      return keep ? node('Reshape', [r, ints(shapeOf(x).map(() => 1))], {}, { dtype: 'int64' }) : r;
    }
    if (rankOf(x) === 0) x = node('Reshape', [x, ints([1])], {}, { dtype: x.dtype, rank: 1 });
    const r = node(
      op,
      [x],
      { axis: axis(a.dim, rankOf(x)), keepdims: keep, select_last_index: 0 },
      { dtype: 'int64' },
    );
    return rankOf(t(a.self)) === 0 ? node('Reshape', [r, ints([])], {}, { dtype: 'int64' }) : r;
  },
});

/** max/min: all elements (Reduce*), along a dim (values and indices), or of two tensors (Max/Min). */
const maxMin = (reduceOp: string, argOp: 'ArgMax' | 'ArgMin', pointwise: string): Row => ({
  as: `${reduceOp} / ${reduceOp} + ${argOp} / ${pointwise}`,
  call: (rt, a, overload) => {
    const x = t(a.self);
    if (overload === '') return reduce(reduceOp, x, null, false, { dtype: x.dtype });
    if (overload === 'other') {
      const d = promote([a.self, a.other]);
      return node(pointwise, [cast(x, d), cast(t(a.other), d)], {}, { dtype: d });
    }
    if (overload !== 'dim') throw new NotExpressible(`${reduceOp} overload ${overload}`);
    const values = reduce(reduceOp, x, a.dim, a.keepdim === true, { dtype: x.dtype });
    return [
      values,
      (arg(argOp) as { call: Extract<Row, { call: unknown }>['call'] }).call(rt, a, overload) as OrtT,
    ];
  },
});

/** softmax/log_softmax: `dtype=` a Cast before; a 0-dim input is a 1-element vector for ONNX. */
const softmax = (op: string): Row => ({
  as: op,
  call: (_rt, a) => {
    let x = t(a.self);
    if (a.dtype !== null && a.dtype !== undefined) x = cast(x, a.dtype as DType);
    if (!isFloat(x.dtype as DType)) throw new NotExpressible(`${op} of a ${x.dtype} tensor`);
    if (rankOf(x) === 0)
      return node('Reshape', [node(op, [node('Reshape', [x, ints([1])])], { axis: 0 }), ints([])]);
    return node(op, [x], { axis: axis(a.dim, rankOf(x)) }, { dtype: x.dtype });
  },
});

/** torch.norm / vector_norm / Frobenius for p in {1, 2}: ReduceL1 / ReduceL2. */
const norm = (p: (a: Args) => unknown, dimArg: (a: Args) => unknown): Row => ({
  as: 'ReduceL1 / ReduceL2',
  call: (_rt, a) => {
    defaults(a, { dtype: null });
    const x = t(a.self ?? a.input);
    if (!isFloat(x.dtype as DType)) throw new NotExpressible(`a norm of a ${x.dtype} tensor`);
    const pv = p(a);
    const op = pv === 1 ? 'ReduceL1' : pv === 2 || pv === null || pv === 'fro' ? 'ReduceL2' : null;
    if (!op) throw new NotExpressible(`norm with p=${String(pv)} (ONNX has ReduceL1 and ReduceL2)`);
    return reduce(op, x, (dimArg(a) ?? null) as never, a.keepdim === true, { dtype: x.dtype });
  },
});

const matmul = (b: string): Row => ({
  as: 'MatMul',
  call: (_rt, a) => {
    const d = promote([a.self, a[b]]);
    return node('MatMul', [cast(t(a.self), d), cast(t(a[b]), d)], {}, { dtype: d });
  },
});

export const REDUCE: Readonly<Record<string, Row>> = {
  sum: reduction('ReduceSum', { acc: true }),
  prod: reduction('ReduceProd', { acc: true }),
  mean: reduction('ReduceMean', { floatOnly: true }),
  amax: reduction('ReduceMax'),
  amin: reduction('ReduceMin'),
  logsumexp: reduction('ReduceLogSumExp', { floatOnly: true }),
  all: allAny('ReduceMin'),
  any: allAny('ReduceSum'),
  max: maxMin('ReduceMax', 'ArgMax', 'Max'),
  min: maxMin('ReduceMin', 'ArgMin', 'Min'),
  argmax: arg('ArgMax'),
  argmin: arg('ArgMin'),
  'linalg.vector_norm': norm(
    (a) => a.ord,
    (a) => a.dim,
  ),
  norm: norm(
    (a) => a.p,
    (a) => a.dim,
  ),
  'norm.fro': norm(
    (a) => a.p,
    (a) => a.dim,
  ),
  cumsum: {
    as: 'CumSum',
    call: (_rt, a) => {
      const x = accumulate(t(a.self), a.dtype);
      if (rankOf(x) === 0) return node('Identity', [x], {}, { dtype: x.dtype });
      return node('CumSum', [x, ints([axis(a.dim, rankOf(x))])], {}, { dtype: x.dtype });
    },
  },
  softmax: softmax('Softmax'),
  log_softmax: softmax('LogSoftmax'),
  mm: matmul('mat2'),
  bmm: matmul('mat2'),
  matmul: matmul('other'),
  mv: matmul('vec'),
  dot: matmul('tensor'),
  topk: {
    as: 'TopK',
    call: (_rt, a) => {
      const x = t(a.self);
      const d = axis(a.dim, rankOf(x));
      const attrs = { axis: d, largest: a.largest === false ? 0 : 1, sorted: a.sorted === false ? 0 : 1 };
      return nodeN('TopK', [x, ints([num(a.k, 'k')])], attrs, [{ dtype: x.dtype }, { dtype: 'int64' }]);
    },
  },
  sort: {
    as: 'TopK(k = size of dim)',
    call: (_rt, a, overload) => {
      if (overload !== '') throw new NotExpressible(`sort overload ${overload} (stable=)`);
      const x = t(a.self);
      if (rankOf(x) === 0) throw new NotExpressible('sort of a 0-dim tensor');
      const d = axis(a.dim, rankOf(x));
      const attrs = { axis: d, largest: a.descending === true ? 1 : 0, sorted: 1 };
      return nodeN('TopK', [x, ints([shapeOf(x)[d]])], attrs, [{ dtype: x.dtype }, { dtype: 'int64' }]);
    },
  },
  var: unmapped('ONNX has no variance operator'),
  std: unmapped('ONNX has no standard-deviation operator'),
  cumprod: unmapped('ONNX has no CumProd operator'),
};
