/** onnxruntime rows: pointwise math, comparisons, logical and bitwise ops, activations. */
import type { DType } from '../../runtime/index.ts';
import { defaults, num } from '../rows.ts';
import { NotExpressible } from '../target.ts';
import {
  type Args,
  activation,
  binary,
  cast,
  f,
  isFloat,
  logical,
  operand,
  promote,
  type Row,
  t,
  unary,
  unmapped,
} from './build.ts';
import { konst, node, rankOf, shapeOf } from './graph.ts';

const NO_OP = (what: string) => unmapped(`ONNX has no ${what} operator`);

/** add/sub: other·alpha (a Mul when alpha is not 1). */
const addSub = (op: 'Add' | 'Sub'): Row => ({
  as: `${op} (Mul for alpha)`,
  call: (_rt, a) => {
    const alpha = num(a.alpha, 'alpha');
    const d = promote([a.self, a.other, alpha === 1 ? undefined : alpha]);
    let other = operand(a.other, d);
    if (alpha !== 1) other = node('Mul', [other, operand(alpha, d)], {}, { dtype: d });
    return node(op, [operand(a.self, d), other], {}, { dtype: d });
  },
});

export const POINTWISE: Readonly<Record<string, Row>> = {
  abs: unary('Abs'),
  neg: unary('Neg'),
  sign: unary('Sign'),
  reciprocal: unary('Reciprocal', { float: true }),
  square: {
    as: 'Mul(x, x)',
    call: (_rt, a) => {
      const x = t(a.self);
      const d = x.dtype === 'bool' ? 'int64' : (x.dtype as DType);
      return node('Mul', [cast(x, d), cast(x, d)], {}, { dtype: d });
    },
  },
  exp: unary('Exp', { float: true }),
  log: unary('Log', { float: true }),
  sqrt: unary('Sqrt', { float: true }),
  sin: unary('Sin', { float: true }),
  cos: unary('Cos', { float: true }),
  tan: unary('Tan', { float: true }),
  asin: unary('Asin', { float: true }),
  acos: unary('Acos', { float: true }),
  atan: unary('Atan', { float: true }),
  sinh: unary('Sinh', { float: true }),
  cosh: unary('Cosh', { float: true }),
  tanh: unary('Tanh', { float: true }),
  sigmoid: unary('Sigmoid', { float: true }),
  erf: unary('Erf', { float: true }),
  floor: unary('Floor', { floatOnly: true }),
  ceil: unary('Ceil', { floatOnly: true }),
  round: {
    as: 'Round',
    call: (_rt, a) => {
      defaults(a, { decimals: 0 });
      const x = t(a.self);
      if (!isFloat(x.dtype as DType)) throw new NotExpressible('ONNX Round takes float tensors only');
      return node('Round', [x], {}, { dtype: x.dtype, rank: rankOf(x) });
    },
  },
  isnan: unary('IsNaN', { floatOnly: true }),
  isinf: unary('IsInf', { floatOnly: true }),
  isfinite: {
    as: 'Not(Or(IsNaN, IsInf))',
    call: (_rt, a) => {
      const x = t(a.self);
      if (!isFloat(x.dtype as DType)) throw new NotExpressible('ONNX IsNaN/IsInf take float tensors only');
      const bad = node('Or', [node('IsNaN', [x]), node('IsInf', [x])]);
      return node('Not', [bad], {}, { dtype: 'bool' });
    },
  },
  add: addSub('Add'),
  sub: addSub('Sub'),
  mul: binary('Mul'),
  div: {
    as: 'Div (Floor for floor division)',
    call: (_rt, a) => {
      const mode = a.rounding_mode ?? null;
      let d = promote([a.self, a.other]);
      if (mode === null && !isFloat(d)) d = 'float32';
      if (mode === 'trunc' && isFloat(d))
        throw new NotExpressible("ONNX has no Trunc: float division with rounding_mode='trunc'");
      if (mode === 'floor' && !isFloat(d))
        throw new NotExpressible(
          "ONNX integer Div truncates: no integer division with rounding_mode='floor'",
        );
      const q = node('Div', [operand(a.self, d), operand(a.other, d)], {}, { dtype: d });
      return mode === 'floor' ? node('Floor', [q], {}, { dtype: d }) : q;
    },
  },
  remainder: {
    as: 'Mod(fmod=0)',
    call: (_rt, a) => {
      const d = promote([a.self, a.other]);
      if (isFloat(d))
        throw new NotExpressible('ONNX Mod with fmod=0 (Python-style) is defined for integers only');
      return node('Mod', [operand(a.self, d), operand(a.other, d)], { fmod: 0 }, { dtype: d });
    },
  },
  fmod: {
    as: 'Mod(fmod=1)',
    call: (_rt, a) => {
      const d = promote([a.self, a.other]);
      return node('Mod', [operand(a.self, d), operand(a.other, d)], { fmod: 1 }, { dtype: d });
    },
  },
  maximum: binary('Max'),
  minimum: binary('Min'),
  pow: binary('Pow', { names: ['self', 'exponent'] }),
  eq: binary('Equal', { result: 'bool' }),
  ne: binary('Equal', { result: 'bool', not: true }),
  lt: binary('Less', { result: 'bool' }),
  le: binary('LessOrEqual', { result: 'bool' }),
  gt: binary('Greater', { result: 'bool' }),
  ge: binary('GreaterOrEqual', { result: 'bool' }),
  logical_not: logical('Not', 1),
  logical_and: logical('And', 2),
  logical_or: logical('Or', 2),
  logical_xor: logical('Xor', 2),
  bitwise_not: {
    as: 'BitwiseNot (Not for bool)',
    call: (_rt, a) => {
      const x = t(a.self);
      return node(x.dtype === 'bool' ? 'Not' : 'BitwiseNot', [x], {}, { dtype: x.dtype });
    },
  },
  bitwise_and: bitwise('BitwiseAnd', 'And'),
  bitwise_or: bitwise('BitwiseOr', 'Or'),
  bitwise_xor: bitwise('BitwiseXor', 'Xor'),
  where: {
    as: 'Where',
    call: (_rt, a) => {
      const d = promote([a.self, a.other]);
      return node(
        'Where',
        [operand(a.condition, 'bool'), operand(a.self, d), operand(a.other, d)],
        {},
        { dtype: d },
      );
    },
  },
  clamp: {
    as: 'Clip',
    call: (_rt, a) => {
      const d = promote([a.self, a.min, a.max]);
      const bound = (v: unknown) => (v === null || v === undefined ? null : operand(v as number, d));
      return node('Clip', [cast(t(a.self), d), bound(a.min), bound(a.max)], {}, { dtype: d });
    },
  },
  'clamp.Tensor': {
    as: 'Min(Max(x, min), max)',
    call: (_rt, a) => {
      const d = promote([a.self, a.min, a.max]);
      let x = cast(t(a.self), d);
      if (a.min !== null && a.min !== undefined) x = node('Max', [x, operand(a.min, d)], {}, { dtype: d });
      if (a.max !== null && a.max !== undefined) x = node('Min', [x, operand(a.max, d)], {}, { dtype: d });
      return x;
    },
  },
  'nn.functional.relu': unary('Relu'),
  'nn.functional.relu6': clip(() => [0, 6]),
  'nn.functional.hardtanh': clip((a) => [num(a.min_val, 'min_val'), num(a.max_val, 'max_val')]),
  'nn.functional.selu': activation('Selu', () => ({})),
  'nn.functional.celu': activation('Celu', (a) => ({ alpha: f(a.alpha, 'alpha') })),
  'nn.functional.elu': activation('Elu', (a) => {
    defaults(a, { scale: 1, input_scale: 1 });
    return { alpha: f(a.alpha, 'alpha') };
  }),
  'nn.functional.leaky_relu': activation('LeakyRelu', (a) => ({
    alpha: f(a.negative_slope, 'negative_slope'),
  })),
  'nn.functional.softplus': activation('Softplus', (a) => {
    defaults(a, { beta: 1, threshold: 20 });
    return {};
  }),
  'nn.functional.softsign': activation('Softsign', () => ({})),
  'nn.functional.mish': activation('Mish', () => ({})),
  'nn.functional.hardswish': activation('HardSwish', () => ({})),
  'nn.functional.hardsigmoid': activation('HardSigmoid', () => ({
    alpha: { float: 1 / 6 },
    beta: { float: 0.5 },
  })),
  'nn.functional.gelu': activation('Gelu', (a) => ({
    approximate: a.approximate === 'tanh' ? 'tanh' : 'none',
  })),
  'nn.functional.hardshrink': activation('Shrink', (a) => ({
    lambd: f(a.lambd, 'lambd'),
    bias: { float: 0 },
  })),
  'nn.functional.softshrink': activation('Shrink', (a) => ({
    lambd: f(a.lambd, 'lambd'),
    bias: f(a.lambd, 'lambd'),
  })),
  'nn.functional.threshold': activation('ThresholdedRelu', (a) => {
    if (num(a.value, 'value') !== 0)
      throw new NotExpressible('threshold with value other than 0 (ThresholdedRelu gives 0)');
    return { alpha: f(a.threshold, 'threshold') };
  }),
  'nn.functional.prelu': {
    as: 'PRelu',
    call: (_rt, a) => {
      const x = t(a.self);
      const w = t(a.weight);
      // PyTorch's weight applies along dim 1; ONNX broadcasts the slope from the right: reshape it to [C, 1, ...].
      const shape = rankOf(x) >= 2 ? [shapeOf(w)[0] ?? 1, ...Array(rankOf(x) - 2).fill(1)] : [...shapeOf(w)];
      const slope = node('Reshape', [w, konst(shape, 'int64')], {}, { dtype: w.dtype });
      return node('PRelu', [x, slope], {}, { dtype: x.dtype });
    },
  },
  'nn.functional.softmin': {
    as: 'Softmax(Neg(x))',
    call: (_rt, a) => {
      defaults(a, { dtype: null });
      const x = t(a.input);
      if (rankOf(x) === 0)
        throw new NotExpressible('softmin of a 0-dim tensor (ONNX Softmax needs rank >= 1)');
      return node('Softmax', [node('Neg', [x])], { axis: num(a.dim, 'dim') }, { dtype: x.dtype });
    },
  },
  exp2: NO_OP('Exp2'),
  expm1: NO_OP('Expm1'),
  log2: NO_OP('Log2'),
  log10: NO_OP('Log10'),
  log1p: NO_OP('Log1p'),
  rsqrt: NO_OP('Rsqrt (Reciprocal(Sqrt) rounds twice)'),
  deg2rad: NO_OP('Deg2Rad'),
  atan2: NO_OP('Atan2'),
  hypot: NO_OP('Hypot'),
  copysign: NO_OP('CopySign'),
  trunc: NO_OP('Trunc'),
  frac: NO_OP('Frac'),
  'nn.functional.silu': NO_OP('SiLU/Swish (Swish is opset 24, beyond onnxruntime-web 1.31 on wasm)'),
  'nn.functional.logsigmoid': NO_OP('LogSigmoid'),
  'nn.functional.tanhshrink': NO_OP('Tanhshrink'),
  'nn.functional.glu': NO_OP('GLU'),
  'nn.functional.rrelu': unmapped('random: RReLU draws its slopes (ONNX has no RReLU)'),
};

function bitwise(op: string, boolOp: string): Row {
  return {
    as: `${op} (${boolOp} for bool)`,
    call: (_rt, a) => {
      const d = promote([a.self, a.other]);
      if (isFloat(d)) throw new NotExpressible(`bitwise ops on ${d}`);
      return node(d === 'bool' ? boolOp : op, [operand(a.self, d), operand(a.other, d)], {}, { dtype: d });
    },
  };
}

/** Clip with PyTorch's bounds as its min/max inputs (opset 11+). */
function clip(bounds: (a: Args) => [number, number]): Row {
  return {
    as: 'Clip',
    call: (_rt, a) => {
      const x = t(a.self);
      if (!isFloat(x.dtype as DType)) throw new NotExpressible('a float activation on a non-float tensor');
      const [lo, hi] = bounds(a);
      return node(
        'Clip',
        [x, operand(lo, x.dtype as DType), operand(hi, x.dtype as DType)],
        {},
        { dtype: x.dtype },
      );
    },
  };
}
