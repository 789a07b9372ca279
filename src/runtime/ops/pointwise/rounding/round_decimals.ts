/**
 * round(decimals=): PyTorch's round.decimals and round_.decimals, written in other ops exactly as ATen computes
 * them in the input's dtype: nearbyint(x * 10^d) / 10^d, or nearbyint(x / 10^-d) * 10^-d for negative d (each
 * product and quotient rounded to the dtype, as ATen's scalar_t arithmetic does). Floating dtypes only, like
 * PyTorch 1.13 ("round_cpu" is not implemented for integers).
 */
import { DTYPE_INFO, DTypeUnsupportedError, float, type Tensor } from '../../../core/index.ts';
import { callOp } from '../../../dispatch/index.ts';
import { defineOp } from '../../structured.ts';

function roundDecimals(x: Tensor, decimals: number): Tensor {
  if (DTYPE_INFO[x.dtype].kind !== 'float')
    throw new DTypeUnsupportedError(`"round_cpu" not implemented for '${DTYPE_INFO[x.dtype].torchName}'`, {
      op: 'round',
      arg: 'self',
      got: x.dtype,
      expected: 'a floating dtype (round with decimals)',
    });
  if (decimals === 0) return callOp('round', [x]) as Tensor;
  const p = float(10 ** Math.abs(decimals));
  return decimals > 0
    ? (callOp('div', [callOp('round', [callOp('mul', [x, p])]), p]) as Tensor)
    : (callOp('mul', [callOp('round', [callOp('div', [x, p])]), p]) as Tensor);
}

export function registerRoundDecimals(): void {
  defineOp({
    schema: 'round.decimals(Tensor self, *, int decimals) -> Tensor',
    tags: { family: 'pointwise' },
    composite: (a) => roundDecimals(a.self as Tensor, a.decimals as number),
  });
  defineOp({
    schema: 'round_.decimals(Tensor(a!) self, *, int decimals) -> Tensor(a!)',
    tags: { family: 'pointwise' },
    composite: (a) => callOp('copy_', [a.self, roundDecimals(a.self as Tensor, a.decimals as number)]),
  });
}
