/** The scalar functions and argument checks of the binary rows (aten's semantics, verified against PyTorch 1.13). */
import {
  DTYPE_INFO,
  DTypeUnsupportedError,
  InvalidArgumentError,
  promotionOperand,
  resultType,
  Scalar,
  type Tensor,
  ZeroDivisionError,
} from '../../../core/index.ts';
import type { PointwiseRow } from '../row.ts';

export const zeroDiv = (op: string) =>
  new ZeroDivisionError('integer division by zero', {
    op,
    arg: 'other',
    got: 0,
    expected: 'a nonzero divisor',
  });

/** Python's floor division on exact integers. */
export function floorDivNum(a: number, b: number): number {
  if (b === 0) throw zeroDiv('div');
  return Math.floor(a / b);
}
export function floorDivBig(a: bigint, b: bigint): bigint {
  if (b === 0n) throw zeroDiv('div');
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}
export function truncDivBig(a: bigint, b: bigint): bigint {
  if (b === 0n) throw zeroDiv('div');
  return a / b;
}
/** Python remainder: the result has the sign of the divisor. */
export function remainderFloat(a: number, b: number): number {
  const r = a % b;
  return r !== 0 && r < 0 !== b < 0 ? r + b : r;
}
/**
 * Python's floor division on floats (c10's div_floor_floating): computed from fmod so that 1.0 // 0.1 is 9.0,
 * not Math.floor(1.0 / 0.1) = 10; a zero divisor gives the IEEE quotient.
 */
export function floorDivFloat(a: number, b: number): number {
  if (b === 0) return a / b;
  const mod = a % b;
  let div = (a - mod) / b;
  if (mod !== 0 && b < 0 !== mod < 0) div -= 1;
  if (div === 0) return Math.sign(a / b) < 0 || Object.is(a / b, -0) ? -0 : 0;
  let floordiv = Math.floor(div);
  if (div - floordiv > 0.5) floordiv += 1;
  return floordiv;
}
export function cmul(ar: number, ai: number, br: number, bi: number): [number, number] {
  return [ar * br - ai * bi, ar * bi + ai * br];
}
/**
 * PyTorch 1.13's c10::complex division: the textbook formula over c^2 + d^2 (so x / 0 is nan+nanj, not inf;
 * later PyTorch versions switched to Smith's algorithm).
 */
export function cdiv(ar: number, ai: number, br: number, bi: number): [number, number] {
  const den = br * br + bi * bi;
  return [(ar * br + ai * bi) / den, (ai * br - ar * bi) / den];
}
/**
 * Float maximum/minimum propagate NaN; for ±0 they keep the comparison's choice (`a > b ? a : b`, as ATen's
 * kernel does) rather than Math.max's +0 preference.
 */
export const fmaxNaN = (a: number, b: number) =>
  // biome-ignore lint/complexity/useMathMinMax: Math.max differs on ±0
  Number.isNaN(a) || Number.isNaN(b) ? Number.NaN : a > b ? a : b;
export const fminNaN = (a: number, b: number) =>
  // biome-ignore lint/complexity/useMathMinMax: Math.min differs on ±0
  Number.isNaN(a) || Number.isNaN(b) ? Number.NaN : a < b ? a : b;

/** aten's alpha_check: alpha must not be a float for integral results, complex for real ones, bool for non-bool. */
export function checkAlpha(args: Readonly<Record<string, unknown>>, row: PointwiseRow): PointwiseRow {
  const alpha = args.alpha;
  // An int alpha (the default 1) suits every dtype: nothing to check on the eager hot path.
  if (!(alpha instanceof Scalar) || alpha.kind === 'int') return row;
  const dtype = resultType([promotionOperand(args.self as Tensor), promotionOperand(args.other as Tensor)]);
  const kind = DTYPE_INFO[dtype].kind;
  if (alpha.kind === 'bool' && dtype !== 'bool')
    throw alphaError(
      row,
      alpha,
      'Boolean alpha only supported for Boolean results.',
      'an int or float alpha',
    );
  if (alpha.kind === 'float' && (kind === 'int' || kind === 'bool')) {
    throw alphaError(
      row,
      alpha,
      'For integral input tensors, argument alpha must not be a floating point number.',
      'an integer alpha',
    );
  }
  if (alpha.kind === 'complex' && kind !== 'complex') {
    throw alphaError(
      row,
      alpha,
      'For non-complex input tensors, argument alpha must not be a complex number.',
      'a real alpha',
    );
  }
  return row;
}

const alphaError = (row: PointwiseRow, alpha: Scalar, why: string, expected: string) =>
  new InvalidArgumentError(why, { op: row.name, arg: 'alpha', got: `${alpha.kind} ${alpha}`, expected });

/** aten's sub_check: subtraction refuses any bool operand (a Python bool included), not just a bool result. */
export function checkSubBool(args: Readonly<Record<string, unknown>>, sub: PointwiseRow): PointwiseRow {
  const a = (args.self as Tensor).dtype === 'bool';
  const b = (args.other as Tensor).dtype === 'bool';
  if (a || b) {
    const why =
      a && b
        ? SUB_TWO_BOOLS
        : 'Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.';
    throw new DTypeUnsupportedError(why, {
      op: 'sub',
      arg: a ? 'self' : 'other',
      got: 'bool',
      expected: 'a non-bool tensor',
    });
  }
  return sub;
}
export const SUB_TWO_BOOLS =
  'Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.';
