/** Rounding rows: floor, ceil, trunc, round (half to even), frac; round(decimals=) is round_decimals.ts. */
import { unaryGrad, zeroGrad } from '../../../autograd/index.ts';
import type { PointwiseRow } from '../row.ts';
import { roundHalfEven } from '../unary_math.ts';

const identity = (x: number) => x;
const identityBig = (x: bigint) => x;

/** floor/ceil/trunc/round: round floats, pass integers through unchanged (PyTorch returns a copy). */
const rounding = <N extends string>(name: N, num: (x: number) => number, aliases?: string[]) =>
  ({
    name,
    arity: 1,
    promotion: 'default',
    num,
    int: identity,
    big: identityBig,
    kinds: ['int', 'float'],
    aliases,
    wgsl: { f32: `${name}(a)`, i32: 'a' },
    derivative: zeroGrad,
  }) satisfies PointwiseRow;

export const ROUNDING_ROWS = [
  rounding('floor', Math.floor),
  rounding('ceil', Math.ceil),
  rounding('trunc', Math.trunc, ['fix']),
  rounding('round', roundHalfEven),
  {
    name: 'frac',
    arity: 1,
    promotion: 'default',
    num: (x: number) => x - Math.trunc(x),
    kinds: ['float'],
    wgsl: { f32: 'a - trunc(a)' },
    derivative: unaryGrad([], (c) => c.grad),
  },
] as const satisfies readonly PointwiseRow[];
