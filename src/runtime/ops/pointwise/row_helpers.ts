/**
 * What the pointwise sub-families' rows share: the float-only unary row (ints promote to the default float
 * dtype) and the `self` argument of a derivative's context.
 */
import { arg, type Derivative } from '../../autograd/index.ts';
import type { PointwiseRow } from './row.ts';

type F = (x: number) => number;
type C = (re: number, im: number) => [number, number];

/** A float-only unary op that promotes ints to the default float dtype (exp, sin, ...). */
export const floatOp = <N extends string>(
  name: N,
  num: F,
  derivative: Derivative,
  more: { complex?: C; aliases?: string[]; wgsl?: string; simd?: PointwiseRow['simd'] } = {},
) =>
  ({
    name,
    arity: 1,
    promotion: 'intToFloat',
    num,
    complex: more.complex,
    aliases: more.aliases,
    wgsl: { f32: more.wgsl ?? `${name}(a)` },
    simd: more.simd,
    derivative,
  }) satisfies PointwiseRow;

export const self = (c: Parameters<Derivative['formula']>[0]) => arg(c, 'self');
