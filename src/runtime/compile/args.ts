/** The argument tree of a compiled call: its tensors (guarded one by one) and everything else (guarded exactly). */
import { Tensor } from '../core/index.ts';

/** Tensors of an argument tree in DFS order, and the rest of the tree as a signature guarded exactly. */
export function flatten(args: readonly unknown[]): { tensors: Tensor[]; constants: string } {
  const tensors: Tensor[] = [];
  const sig = (x: unknown): unknown => {
    if (x instanceof Tensor) {
      tensors.push(x);
      return '<T>';
    }
    if (Array.isArray(x)) return x.map(sig);
    if (typeof x === 'bigint') return `${x}n`;
    if (x && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, sig(v)]));
    return x;
  };
  const constants = JSON.stringify(args.map(sig));
  return { tensors, constants };
}

export function rebuild(args: readonly unknown[], tensors: readonly Tensor[]): unknown[] {
  let i = 0;
  const map = (x: unknown): unknown => {
    if (x instanceof Tensor) return tensors[i++];
    if (Array.isArray(x)) return x.map(map);
    if (x && typeof x === 'object' && x.constructor === Object)
      return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, map(v)]));
    return x;
  };
  return args.map(map);
}

/** A traced tensor becomes the real one in place (same object), so the caller's references see real data. */
export function rebind(t: Tensor, real: Tensor): void {
  if (t === real) return;
  t.setStrided(real.storage, real.shape, real.strides, real.storageOffset);
  t.requiresGrad = real.requiresGrad;
  t.autograd = real.autograd;
}
