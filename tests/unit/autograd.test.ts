/** Autograd as a dispatch key: graph structure, engine behaviour, grad modes, saved-tensor version checks. */
import { describe, expect, it } from 'vitest';
import * as T from '../../src/runtime/index.ts';

const f64 = (data: T.NestedData, requiresGrad = true) => T.tensor(data, { dtype: 'float64', requiresGrad });
const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as { code?: string }).code;
  }
  return 'no error';
};

describe('graph', () => {
  it('names nodes like PyTorch and links next_functions down to AccumulateGrad', () => {
    const x = f64([1, 2, 3]);
    const y = T.torch.add(T.torch.mul(x, 2), 1).sum();
    expect(y.gradFn?.name).toBe('SumBackward0');
    const [[add]] = y.gradFn!.nextFunctions;
    expect(add?.name).toBe('AddBackward0');
    const [[mul, nr], [none]] = add!.nextFunctions;
    expect([mul?.name, nr, none]).toEqual(['MulBackward0', 0, null]);
    expect(mul!.nextFunctions[0][0]?.name).toBe('AccumulateGrad');
    expect([x.isLeaf, y.isLeaf, x.gradFn]).toEqual([true, false, null]);
  });

  it('leaves of integer dtype cannot require grad', () => {
    expect(code(() => T.tensor([1, 2]).requiresGrad_())).toBe('E_AUTOGRAD');
  });
});

describe('backward', () => {
  it('accumulates .grad (+=) over calls and follows the chain rule', () => {
    const x = f64([0.5, -1, 2]);
    const loss = () => T.torch.mul(T.torch.exp(x), x).sum();
    loss().backward();
    const once = x.grad!.tolist() as number[];
    expect(once.map((v, i) => v - Math.exp([0.5, -1, 2][i]) * ([0.5, -1, 2][i] + 1))).toEqual(
      [0, 0, 0].map(() => expect.closeTo(0, 12)),
    );
    loss().backward();
    expect(x.grad!.tolist()).toEqual(once.map((v) => expect.closeTo(2 * v, 12)));
  });

  it('grad of several outputs of one node (split) reaches the input once every output contributed', () => {
    // Found by the golden oracle: the roots' node was counted once per root, so x's gradient never arrived.
    const x = f64([1, 2, 3, 4, 5]);
    const outs = T.torch.split(x, 2) as T.Tensor[];
    const weights = outs.map((o, i) => T.torch.full(o.shape as number[], i + 1, { dtype: 'float64' }));
    const [g] = T.grad(outs, [x], { gradOutputs: weights });
    expect(g!.tolist()).toEqual([1, 1, 2, 2, 3]);
  });

  it('sums broadcast gradients back to each input shape', () => {
    const a = f64([
      [1, 2],
      [3, 4],
    ]);
    const b = f64([10, 20]);
    T.torch.add(a, b).mul(2).sum().backward();
    expect([a.grad!.tolist(), b.grad!.tolist()]).toEqual([
      [
        [2, 2],
        [2, 2],
      ],
      [4, 4],
    ]);
  });

  it('needs an explicit gradient for non-scalar outputs', () => {
    const x = f64([1, 2]);
    expect(code(() => T.torch.mul(x, 2).backward())).toBe('E_AUTOGRAD');
    T.torch.mul(x, 2).backward(f64([1, 10], false));
    expect(x.grad!.tolist()).toEqual([2, 20]);
  });

  it('frees the graph after backward unless retainGraph', () => {
    const x = f64([1, 2]);
    const z = T.torch.exp(x).sum();
    z.backward(null, { retainGraph: true });
    z.backward();
    expect(code(() => z.backward())).toBe('E_GRAPH_FREED');
  });

  it('runs tensor hooks and retains non-leaf grads on request', () => {
    const x = f64([1, 2, 3]);
    const h = T.torch.mul(x, 3);
    h.retainGrad();
    const seen: number[][] = [];
    h.registerHook((g) => {
      seen.push(g.tolist() as number[]);
      return T.torch.mul(g, 2);
    });
    T.torch.sum(h).backward();
    expect(seen).toEqual([[1, 1, 1]]);
    expect(h.grad!.tolist()).toEqual([1, 1, 1]);
    expect(x.grad!.tolist()).toEqual([6, 6, 6]);
  });

  it('autograd.grad returns gradients without touching .grad, and composes (gradgrad)', () => {
    const x = f64([0.3, 1.1]);
    const [g] = T.grad([T.torch.sin(x).sum()], [x], { createGraph: true });
    expect(x.grad).toBeNull();
    expect(g!.requiresGrad).toBe(true);
    const [gg] = T.grad([g!.sum()], [x]);
    expect(gg!.tolist()).toEqual([0.3, 1.1].map((v) => expect.closeTo(-Math.sin(v), 12)));
    expect(code(() => T.grad([T.torch.sin(x).sum()], [f64([1])]))).toBe('E_AUTOGRAD');
  });
});

describe('saved tensors and in-place', () => {
  it('an in-place change to a saved tensor raises E_INPLACE_VERSION at backward', () => {
    const x = f64([1, 2, 3]);
    const a = x.exp();
    a.add_(1);
    let err: unknown;
    try {
      a.sum().backward();
    } catch (e) {
      err = e;
    }
    expect((err as T.OpgateError).code).toBe('E_INPLACE_VERSION');
    expect((err as Error).message).toMatch(
      /modified by an inplace operation: \[DoubleTensor \[3\]\], which is output 0 of ExpBackward0, is at version 1; expected version 0 instead/,
    );
  });

  it('an in-place change to an input the backward does not save is fine', () => {
    const x = f64([1, 2, 3]);
    const a = T.torch.mul(x, 2);
    const b = T.torch.add(a, 1); // add saves neither input
    a.add_(5);
    b.sum().backward();
    expect(x.grad!.tolist()).toEqual([2, 2, 2]);
  });

  it('in-place on a non-leaf rebases its history; on a leaf that requires grad it is refused', () => {
    const x = f64([1, 2]);
    const y = T.torch.mul(x, 3);
    y.mul_(3);
    expect(y.gradFn?.name).toBe('MulBackward0');
    y.sum().backward();
    expect(x.grad!.tolist()).toEqual([9, 9]);
    // Multiplying by a tensor sharing y's storage changes a value MulBackward0 saved: PyTorch raises too.
    const z = T.torch.mul(x, 3);
    z.mul_(z.detach());
    expect(code(() => z.sum().backward())).toBe('E_INPLACE_VERSION');
    expect(code(() => x.add_(1))).toBe('E_AUTOGRAD');
  });

  it('a hook needs a tensor that requires grad', () => {
    const plain = f64([1, 2], false);
    expect(code(() => plain.registerHook((g) => g))).toBe('E_AUTOGRAD');
    expect(code(() => f64([1, 2]).registerHook((g) => g))).toBe('no error');
  });

  it('out= refuses inputs that require grad', () => {
    const x = f64([1, 2]);
    expect(code(() => T.torch.add(x, 1, { out: T.torch.zeros([2], { dtype: 'float64' }) }))).toBe(
      'E_AUTOGRAD',
    );
  });
});

describe('grad modes', () => {
  it('noGrad / inferenceMode exclude the Autograd key; enableGrad re-includes it', () => {
    const x = f64([1, 2]);
    expect(T.noGrad(() => T.torch.mul(x, 2).requiresGrad)).toBe(false);
    expect(T.inferenceMode(() => T.torch.mul(x, 2).requiresGrad)).toBe(false);
    expect(T.noGrad(() => T.enableGrad(() => T.torch.mul(x, 2).requiresGrad))).toBe(true);
    expect(T.noGrad(() => T.isGradEnabled())).toBe(false);
    expect(T.isGradEnabled()).toBe(true);
  });

  it('detach shares storage and drops history; complex autograd is declared unsupported', () => {
    const x = f64([1, 2]);
    const d = T.torch.mul(x, 2).detach();
    expect([d.requiresGrad, d.gradFn]).toEqual([false, null]);
    const c = T.tensor([T.complex(1, 2)]);
    c.requiresGrad_();
    expect(code(() => T.torch.mul(c, 2))).toBe('E_NOT_IMPLEMENTED');
  });

  it("scatter with reduce='multiply' runs forward and refuses backward, as PyTorch 1.13's NotImplemented node does", () => {
    const x = f64([1, 2, 3]).requiresGrad_(true);
    const index = T.tensor([0, 2], { dtype: 'int64' });
    const y = T.torch.scatter(x, 0, index, f64([4, 5]), { reduce: 'multiply' }) as T.Tensor;
    expect(y.tolist()).toEqual([4, 2, 15]);
    expect(code(() => T.torch.sum(y).backward())).toBe('E_NOT_IMPLEMENTED');
    // reduce='add' differentiates like scatter_add (a deliberate deviation: 1.13 refuses it too).
    const z = T.torch.scatter(x, 0, index, f64([4, 5]), { reduce: 'add' }) as T.Tensor;
    T.torch.sum(z).backward();
    expect(x.grad?.tolist()).toEqual([1, 1, 1]);
  });

  it('every op has a derivative, a decomposition or a documented non-differentiable reason', () => {
    expect(T.opsWithoutDerivative()).toEqual([]);
  });
});
