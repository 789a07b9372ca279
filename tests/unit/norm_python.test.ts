/**
 * torch.norm and Tensor.norm are Python definitions in PyTorch 1.13 (torch/functional.py, torch/_tensor.py) over
 * aten's norm: the runtime's `torch.norm` and `t.norm()` call its `_functional_norm` ops, which take the string
 * and None forms aten does not; `callOp('norm')` stays aten's (PyTorch's `_VF.norm`). Values are checked against
 * PyTorch by the golden oracle (OpInfo norm.fro); this pins the routing and the coded refusals.
 */
import { describe, expect, it } from 'vitest';
import * as T from '../../src/runtime/index.ts';

const torch = T.torch as unknown as Record<string, (...a: unknown[]) => T.Tensor>;
const x = (T.callOp('reshape', [T.callOp('arange', [24], { dtype: 'float64' }), [2, 3, 4]]) as T.Tensor).sub(
  11,
) as T.Tensor;
const value = (t: T.Tensor) => t.tolist() as number | number[];

describe('torch.norm: the Python definition', () => {
  it("takes p='fro', p=None and dim=None as PyTorch's Python function does", () => {
    const all = value(T.callOp('norm', [x, 2, [0, 1, 2]]) as T.Tensor);
    expect(value(torch.norm(x))).toBe(all);
    expect(value(torch.norm(x, 'fro'))).toBe(all);
    expect(value(torch.norm(x, null))).toBe(all);
    // Over two dims 'fro' is sqrt(sum(x * x)), as at::frobenius_norm computes it.
    const two = torch.norm(x, 'fro', { dim: [0, 1] });
    expect(value(two)).toEqual(value(x.mul(x).sum([0, 1]).sqrt() as T.Tensor));
    expect(torch.norm(x, 2, { dim: 1, keepdim: true, dtype: 'float32' }).dtype).toBe('float32');
    expect((x as unknown as { norm(...a: unknown[]): T.Tensor }).norm('fro', [1, 2]).shape).toEqual([2]);
  });

  it('refuses what PyTorch refuses, and the nuclear norm (no SVD yet), with coded errors', () => {
    const err = (code: string, arg: string) => expect.objectContaining({ code, op: 'norm', arg });
    expect(() => torch.norm(x, 'nuc')).toThrow(err('E_NOT_IMPLEMENTED', 'p'));
    expect(() => torch.norm(x, 'bad')).toThrow(err('E_INVALID_ARGUMENT', 'p'));
    expect(() => torch.norm(x, 'fro', { dtype: 'float32' })).toThrow(err('E_INVALID_ARGUMENT', 'dtype'));
    expect(() => torch.norm(x, 'fro', { dim: [0, 1, 2] })).toThrow(err('E_INVALID_ARGUMENT', 'dim'));
    expect(() => torch.norm(x.to('int64'), 'fro', { dim: [0, 1] })).toThrow(
      err('E_DTYPE_UNSUPPORTED', 'input'),
    );
    // aten's norm has no string p: callOp('norm') is PyTorch's _VF.norm.
    expect(() => T.callOp('norm', [x, 'fro'])).toThrow(expect.objectContaining({ code: 'E_NO_OVERLOAD' }));
  });
});
