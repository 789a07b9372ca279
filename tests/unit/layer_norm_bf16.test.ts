/**
 * bfloat16 layer_norm on cpu takes its values from PyTorch 1.13's roundings (ops/nn/norm/bf16.ts; the golden
 * oracle holds them) and its gradient from the float32 decomposition: the statistics are moved to the rounded
 * values by constants, so backward differentiates the decomposition.
 */
import { describe, expect, test } from 'vitest';
import { callOp, flatValues, type Tensor, tensor } from '../../src/runtime/index.ts';

const op = (name: string, args: unknown[], kwargs: Record<string, unknown> = {}) =>
  callOp(name, args, kwargs) as Tensor;
const values = (n: number, f: (i: number) => number) => Array.from({ length: n }, (_, i) => f(i));

describe('layer_norm in bfloat16', () => {
  test("its input gradient is the float32 decomposition's, to a bfloat16 rounding", () => {
    // bfloat16 values, so both runs see the same inputs.
    const bf16 = (n: number, f: (i: number) => number) => tensor(values(n, f), { dtype: 'bfloat16' });
    const data = op('reshape', [bf16(24, (i) => Math.sin(i * 1.7) * 3 + 1), [4, 6]]);
    const grads = op('reshape', [bf16(24, (i) => Math.cos(i * 0.9)), [4, 6]]);
    const weight = bf16(6, (i) => 0.5 + i / 4);
    const run = (dtype: string) => {
      const x = op('to', [data, dtype]).detach();
      x.requiresGrad_(true);
      const y = op('layer_norm', [x, [6], op('to', [weight, dtype])]);
      op('sum', [op('mul', [y, op('to', [grads, dtype])])]).backward();
      return { y, grad: x.grad! };
    };
    const bf = run('bfloat16');
    const f32 = run('float32');
    expect(bf.grad.dtype).toBe('bfloat16');
    // x * rstd + shift differentiates like (x - mean) * rstd, in other float32 steps: two bfloat16 ulps at most.
    const got = flatValues(bf.grad) as number[];
    const want = flatValues(f32.grad) as number[];
    const ulp = (w: number) => 2 ** (Math.floor(Math.log2(Math.abs(w) || 2 ** -126)) - 7);
    for (const [i, g] of got.entries()) expect(Math.abs(g - want[i])).toBeLessThanOrEqual(2 * ulp(want[i]));
    expect(got.some((g) => Math.abs(g) > 0.1)).toBe(true);
    // The values are not the float32 ones rounded: PyTorch's bfloat16 statistics differ on these rows.
    expect(flatValues(bf.y)).not.toEqual(flatValues(op('to', [f32.y, 'bfloat16'])));
  });
});
