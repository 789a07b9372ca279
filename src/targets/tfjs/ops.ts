/**
 * TensorFlow.js's op rows: one per op_db name, calling tfjs-core's public API (the same rows serve its cpu and
 * wasm backends). PyTorch's arguments arrive bound by name (PyTorch's defaults filled in); an argument tfjs has no
 * counterpart for is NotExpressible, and an op it has no counterpart for is unmapped, with the reason.
 */
import type * as TF from '@tensorflow/tfjs-core';
import { defaults, dims, num, swapPerm } from '../rows.ts';
import { KnownBug, NotExpressible, type OpRow } from '../target.ts';
import { wasmKernelBug } from './wasm_bugs.ts';

type R = typeof TF;
type T = TF.Tensor;
type Row = OpRow<R, T>;

const t = (x: unknown): T => x as T;
const operand = (x: unknown): T | number => (typeof x === 'number' ? x : t(x));

/** `tf.<fn>(self)`. */
const unary = (fn: keyof R): Row => ({
  as: `tf.${String(fn)}`,
  call: (tf, a) => {
    wasmKernelBug(tf, String(fn), [a.self]);
    return (tf[fn] as (x: T) => T)(t(a.self));
  },
});

/** `tf.<fn>(self, other)`: other may be a Python number. */
const binary = (fn: keyof R, extra: Readonly<Record<string, unknown>> = {}): Row => ({
  as: `tf.${String(fn)}`,
  call: (tf, a) => {
    defaults(a, extra);
    wasmKernelBug(tf, String(fn), [a.self, a.other]);
    return (tf[fn] as (x: T | number, y: T | number) => T)(operand(a.self), operand(a.other));
  },
});

/** A reduction over `dim` (all dims when null) with keepdim; `dtype=` is not expressible. */
const reduction = (fn: 'sum' | 'mean' | 'prod' | 'max' | 'min' | 'all' | 'any' | 'logSumExp'): Row => ({
  as: `tf.${fn}`,
  call: (tf, a) => {
    defaults(a, { dtype: null });
    return tf[fn](t(a.self), dims(a.dim), a.keepdim === true);
  },
});

const unmapped = (why: string): Row => ({ unmapped: why });

export const TFJS_OPS: Readonly<Record<string, Row>> = {
  abs: unary('abs'),
  neg: unary('neg'),
  sign: unary('sign'),
  reciprocal: unary('reciprocal'),
  square: unary('square'),
  exp: unary('exp'),
  expm1: unary('expm1'),
  log: unary('log'),
  log1p: unary('log1p'),
  sqrt: unary('sqrt'),
  rsqrt: unary('rsqrt'),
  sin: unary('sin'),
  cos: unary('cos'),
  tan: unary('tan'),
  asin: unary('asin'),
  acos: unary('acos'),
  atan: unary('atan'),
  sinh: unary('sinh'),
  cosh: unary('cosh'),
  tanh: unary('tanh'),
  floor: unary('floor'),
  ceil: unary('ceil'),
  round: {
    as: 'tf.round',
    call: (tf, a) => {
      defaults(a, { decimals: 0 });
      return tf.round(t(a.self));
    },
  },
  sigmoid: unary('sigmoid'),
  erf: unary('erf'),
  isnan: unary('isNaN'),
  isinf: unary('isInf'),
  isfinite: unary('isFinite'),
  logical_not: unary('logicalNot'),
  'nn.functional.relu': unary('relu'),
  'nn.functional.relu6': unary('relu6'),
  'nn.functional.selu': unary('selu'),
  'nn.functional.logsigmoid': unary('logSigmoid'),
  'nn.functional.elu': {
    as: 'tf.elu',
    call: (tf, a) => {
      defaults(a, { alpha: 1, scale: 1, input_scale: 1 });
      return tf.elu(t(a.self));
    },
  },
  'nn.functional.softplus': {
    as: 'tf.softplus',
    call: (tf, a) => {
      defaults(a, { beta: 1, threshold: 20 });
      return tf.softplus(t(a.self));
    },
  },
  'nn.functional.leaky_relu': {
    as: 'tf.leakyRelu',
    call: (tf, a) => tf.leakyRelu(t(a.self), num(a.negative_slope, 'negative_slope')),
  },
  add: {
    as: 'tf.add (tf.mul for alpha)',
    call: (tf, a) => {
      const alpha = num(a.alpha, 'alpha');
      const other = operand(a.other);
      return tf.add(t(a.self), alpha === 1 ? other : tf.mul(other, alpha));
    },
  },
  sub: {
    as: 'tf.sub (tf.mul for alpha)',
    call: (tf, a) => {
      const alpha = num(a.alpha, 'alpha');
      const other = operand(a.other);
      return tf.sub(t(a.self), alpha === 1 ? other : tf.mul(other, alpha));
    },
  },
  mul: binary('mul'),
  div: {
    as: 'tf.div / tf.floorDiv',
    call: (tf, a) => {
      if (a.rounding_mode === 'floor') return tf.floorDiv(operand(a.self), operand(a.other));
      defaults(a, { rounding_mode: null });
      return tf.div(operand(a.self), operand(a.other));
    },
  },
  remainder: binary('mod'),
  maximum: binary('maximum'),
  minimum: binary('minimum'),
  pow: {
    as: 'tf.pow',
    call: (tf, a) => tf.pow(operand(a.self), operand(a.exponent)),
  },
  atan2: binary('atan2'),
  eq: binary('equal'),
  ne: binary('notEqual'),
  lt: binary('less'),
  le: binary('lessEqual'),
  gt: binary('greater'),
  ge: binary('greaterEqual'),
  logical_and: binary('logicalAnd'),
  logical_or: binary('logicalOr'),
  logical_xor: binary('logicalXor'),
  sum: reduction('sum'),
  mean: reduction('mean'),
  prod: reduction('prod'),
  amax: reduction('max'),
  amin: reduction('min'),
  all: reduction('all'),
  any: reduction('any'),
  logsumexp: reduction('logSumExp'),
  argmax: {
    as: 'tf.argMax',
    call: (tf, a) => {
      const x = t(a.self);
      if (a.dim === null || a.dim === undefined) {
        defaults(a, { keepdim: false });
        return tf.argMax(tf.reshape(x, [-1]));
      }
      const r = tf.argMax(x, num(a.dim, 'dim'));
      return a.keepdim === true ? tf.expandDims(r, num(a.dim, 'dim')) : r;
    },
  },
  argmin: {
    as: 'tf.argMin',
    call: (tf, a) => {
      const x = t(a.self);
      if (a.dim === null || a.dim === undefined) {
        defaults(a, { keepdim: false });
        return tf.argMin(tf.reshape(x, [-1]));
      }
      const r = tf.argMin(x, num(a.dim, 'dim'));
      return a.keepdim === true ? tf.expandDims(r, num(a.dim, 'dim')) : r;
    },
  },
  reshape: { as: 'tf.reshape', call: (tf, a) => tf.reshape(t(a.self), a.shape as number[]) },
  view: { as: 'tf.reshape', call: (tf, a) => tf.reshape(t(a.self), a.size as number[]) },
  permute: {
    as: 'tf.transpose',
    call: (tf, a) => {
      const x = t(a.self);
      // PyTorch counts negative dims from the end; tfjs's perm takes them from 0.
      return tf.transpose(
        x,
        (a.dims as number[]).map((d) => (d < 0 ? d + x.rank : d)),
      );
    },
  },
  transpose: {
    as: 'tf.transpose',
    call: (tf, a) => {
      const x = t(a.self);
      if (x.rank === 0) return tf.clone(x);
      return tf.transpose(x, swapPerm(x.rank, num(a.dim0, 'dim0'), num(a.dim1, 'dim1')));
    },
  },
  t: {
    as: 'tf.transpose',
    call: (tf, a) => (t(a.self).rank < 2 ? tf.clone(t(a.self)) : tf.transpose(t(a.self))),
  },
  squeeze: {
    as: 'tf.squeeze',
    call: (tf, a) => tf.squeeze(t(a.self), dims(a.dim)),
  },
  unsqueeze: { as: 'tf.expandDims', call: (tf, a) => tf.expandDims(t(a.self), num(a.dim, 'dim')) },
  cat: { as: 'tf.concat', call: (tf, a) => tf.concat(a.tensors as T[], num(a.dim, 'dim')) },
  stack: { as: 'tf.stack', call: (tf, a) => tf.stack(a.tensors as T[], num(a.dim, 'dim')) },
  flip: { as: 'tf.reverse', call: (tf, a) => tf.reverse(t(a.self), a.dims as number[]) },
  where: {
    as: 'tf.where',
    call: (tf, a) => {
      const [x, y] = [a.self, a.other].map((v) => (typeof v === 'number' ? tf.scalar(v) : t(v)));
      return tf.where(t(a.condition), x, y);
    },
  },
  clamp: {
    as: 'tf.clipByValue',
    call: (tf, a) => tf.clipByValue(t(a.self), num(a.min, 'min'), num(a.max, 'max')),
  },
  softmax: {
    as: 'tf.softmax',
    call: (tf, a) => {
      defaults(a, { dtype: null });
      return tf.softmax(t(a.self), num(a.dim, 'dim'));
    },
  },
  log_softmax: {
    as: 'tf.logSoftmax',
    call: (tf, a) => {
      defaults(a, { dtype: null });
      return tf.logSoftmax(t(a.self), num(a.dim, 'dim'));
    },
  },
  cumsum: {
    as: 'tf.cumsum',
    call: (tf, a) => {
      defaults(a, { dtype: null });
      if (t(a.self).rank === 0 && tf.getBackend() === 'wasm')
        throw new KnownBug(
          'tf.cumsum of a rank-0 tensor never returns on the wasm backend (tools/targets/tfjs-wasm/bug_1_cumsum_scalar_hangs.mjs)',
        );
      return tf.cumsum(t(a.self), num(a.dim, 'dim'));
    },
  },
  mm: { as: 'tf.matMul', call: (tf, a) => tf.matMul(t(a.self), t(a.mat2)) },
  bmm: { as: 'tf.matMul', call: (tf, a) => tf.matMul(t(a.self), t(a.mat2)) },
  matmul: {
    as: 'tf.matMul / tf.dot',
    call: (tf, a) => {
      const [x, y] = [t(a.self), t(a.other)];
      // PyTorch's matmul takes 1-d operands (a vector product); tf.matMul takes rank >= 2, tf.dot ranks 1 and 2.
      return x.rank <= 2 && y.rank <= 2 ? tf.dot(x, y) : tf.matMul(x, y);
    },
  },
  dot: { as: 'tf.dot', call: (tf, a) => tf.dot(t(a.self), t(a.tensor)) },
  index_select: {
    as: 'tf.gather',
    // PyTorch's index_select takes a 0-dim index as one index (the dim keeps its size 1).
    call: (tf, a) => tf.gather(t(a.self), tf.reshape(t(a.index), [-1]), num(a.dim, 'dim')),
  },
  topk: {
    as: 'tf.topk',
    call: (tf, a) => {
      const x = t(a.self);
      const dim = num(a.dim, 'dim');
      if (dim !== -1 && dim !== x.rank - 1) throw new NotExpressible('topk over a dim other than the last');
      defaults(a, { largest: true, sorted: true });
      const r = tf.topk(x, num(a.k, 'k'));
      return [r.values, r.indices];
    },
  },
  exp2: unmapped('tfjs has no exp2 (tf.pow(2, x) is a composite, not a counterpart)'),
  log2: unmapped('tfjs has no log2'),
  log10: unmapped('tfjs has no log10'),
  trunc: unmapped('tfjs has no trunc'),
  fmod: unmapped("tfjs has only tf.mod, Python's (floored) remainder"),
  gather: unmapped("tfjs's gather is PyTorch's index_select; it has no take_along_dim"),
};
