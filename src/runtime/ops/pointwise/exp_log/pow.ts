/** pow: the row (Tensor_Tensor, and the Scalar overloads through wrapped numbers) and its integer kernels. */
import { arg, gradOps } from '../../../autograd/index.ts';
import { DTYPE_INFO, type Tensor, ZeroDivisionError } from '../../../core/index.ts';
import type { PointwiseRow } from '../row.ts';

const { mul, op, sumToSize } = gradOps;
type Grads = [Tensor | null, Tensor | null];

/** Integer pow with a negative exponent: 1 and -1 stay exact, anything else truncates to 0 (like c10 powi). */
export function intPowNum(a: number, b: number): number {
  if (b < 0) {
    if (a === 1) return 1;
    if (a === -1) return b % 2 === 0 ? 1 : -1;
    return 0;
  }
  let r = 1;
  let base = a;
  let e = b;
  while (e > 0) {
    if (e & 1) r = Math.imul(r, base);
    base = Math.imul(base, base);
    e = Math.floor(e / 2);
  }
  return r;
}
export function intPowBig(a: bigint, b: bigint): bigint {
  if (b < 0n) {
    if (a === 1n) return 1n;
    if (a === -1n) return b % 2n === 0n ? 1n : -1n;
    return 0n;
  }
  let r = 1n;
  let base = a;
  let e = b;
  while (e > 0n) {
    if (e & 1n) r = BigInt.asIntN(64, r * base);
    base = BigInt.asIntN(64, base * base);
    e >>= 1n;
  }
  return r;
}

const POW = {
  name: 'pow',
  wgsl: { f32: 'fpow(a, b)', i32: 'ipow(a, b)', nan: 'own' },
  schema: 'pow.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor',
  inplaceOverload: 'Tensor',
  outOverload: 'Tensor_Tensor_out',
  arity: 2,
  promotion: 'default',
  // C pow, as ATen: 1 ** NaN and NaN ** 0 are 1, (-1) ** ±inf is 1 (JS's ** gives NaN for these).
  num: (a: number, b: number) =>
    b === 0 || a === 1 || (a === -1 && (b === Number.POSITIVE_INFINITY || b === Number.NEGATIVE_INFINITY))
      ? 1
      : a ** b,
  int: intPowNum,
  big: intPowBig,
  complex: (ar: number, ai: number, br: number, bi: number) => {
    if (ar === 0 && ai === 0) return br === 0 && bi === 0 ? [1, 0] : [0, 0];
    const logr = Math.log(Math.hypot(ar, ai));
    const th = Math.atan2(ai, ar);
    const mag = Math.exp(br * logr - bi * th);
    const ang = bi * logr + br * th;
    return [mag * Math.cos(ang), mag * Math.sin(ang)];
  },
  kinds: ['int', 'float', 'complex'],
} as const satisfies PointwiseRow;

export const POW_ROW = {
  ...POW,
  select: (args): PointwiseRow => {
    // pow.Tensor_Scalar refuses a negative Python int exponent for an integral base; tensor exponents don't.
    const self = args.self as Tensor;
    const e = args.exponent as Tensor;
    const exp =
      e.isWrappedNumber && e.dtype === 'int64' ? (e.storage.data as BigInt64Array)[e.storageOffset] : 0n;
    if (exp < 0n && (self.dtype === 'bool' || DTYPE_INFO[self.dtype].kind === 'int')) {
      throw new ZeroDivisionError('Integers to negative integer powers are not allowed.', {
        op: 'pow',
        arg: 'exponent',
        got: exp,
        expected: 'a non-negative integer exponent for an integral base',
      });
    }
    return POW;
  },
  derivative: {
    name: 'PowBackward1',
    saves: ['self', 'exponent', 'result'],
    formula: (c): Grads => {
      const [self, e] = [arg(c, 'self'), arg(c, 'exponent')];
      const gs = mul(c.grad, mul(e, op('pow', self, op('sub', e, 1))));
      // d/de self^e = self^e * log(self), taken as 0 where self == 0 and e >= 0 (PyTorch's masking).
      const ge = mul(
        c.grad,
        op('where', op('logical_and', op('eq', self, 0), op('ge', e, 0)), 0, mul(c.result, op('log', self))),
      );
      return [sumToSize(gs, c.shapes.self), c.shapes.exponent ? sumToSize(ge, c.shapes.exponent) : null];
    },
  },
} as const satisfies PointwiseRow;
