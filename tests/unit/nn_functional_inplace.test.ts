/**
 * Python's `nn.functional.X(input, ..., inplace=True)`: the alias routes to aten's `X_` (the result is the input,
 * its version bumped, the values those of the functional call) and `inplace=False` to `X`; an alias of an op
 * without an in-place overload rejects the keyword, as PyTorch's signature has no such argument.
 */
import { describe, expect, it } from 'vitest';
import { callOp, operatorTable, type Tensor, tensor } from '../../src/runtime/index.ts';

const values = (t: Tensor) => Array.from(t.storage.data as Float32Array);
const input = () => tensor([-2, -0.5, 0, 0.75, 3], { dtype: 'float32' });

/** Every nn.functional alias whose aten op has an in-place overload. */
const routed = operatorTable
  .aliasEntries()
  .filter(
    ([name, target]) => name.startsWith('nn.functional.') && operatorTable.names().includes(`${target}_`),
  )
  .map(([name]) => name);
const args: Readonly<Record<string, unknown[]>> = { 'nn.functional.threshold': [0.5, 9] };

describe('nn.functional inplace=', () => {
  it('covers the activations that have an in-place overload', () => {
    for (const n of ['relu', 'elu', 'celu', 'selu', 'hardtanh', 'relu6', 'leaky_relu', 'threshold', 'mish'])
      expect(routed).toContain(`nn.functional.${n}`);
  });

  it.each(routed)('%s(inplace=True) writes the input and equals the functional call', (name) => {
    const expected = callOp(name, [input(), ...(args[name] ?? [])]) as Tensor;
    const x = input();
    const version = x.version;
    const out = callOp(name, [x, ...(args[name] ?? [])], { inplace: true }) as Tensor;
    expect(out).toBe(x);
    expect(x.version).toBeGreaterThan(version);
    expect(values(x)).toEqual(values(expected));
  });

  it.each(routed)('%s(inplace=False) leaves the input alone', (name) => {
    const x = input();
    const out = callOp(name, [x, ...(args[name] ?? [])], { inplace: false }) as Tensor;
    expect(out).not.toBe(x);
    expect(values(x)).toEqual(values(input()));
  });

  it('an op without an in-place overload rejects inplace=, naming the argument', () => {
    expect(() => callOp('nn.functional.softshrink', [input()], { inplace: true })).toThrow(
      expect.objectContaining({ code: 'E_NO_OVERLOAD', message: expect.stringMatching(/inplace/) }),
    );
  });
});
