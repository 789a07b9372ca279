/** Reading and writing a tensor's autograd fields (core keeps them opaque). */
import { type AutogradMeta, Tensor } from '../core/index.ts';
import type { Node } from './node.ts';

export function metaOf(t: Tensor): AutogradMeta {
  if (!t.autograd)
    t.autograd = { gradFn: null, outputNr: 0, grad: null, retainsGrad: false, accumulator: null, hooks: [] };
  return t.autograd;
}

export function gradFnOf(t: Tensor): Node | null {
  return (t.autograd?.gradFn as Node | null | undefined) ?? null;
}

export function isLeaf(t: Tensor): boolean {
  return gradFnOf(t) === null;
}

/** Makes `t` the `outputNr`-th output of `node` (a non-leaf that requires grad). */
export function setHistory(t: Tensor, node: Node, outputNr: number): void {
  const m = metaOf(t);
  m.gradFn = node;
  m.outputNr = outputNr;
  t.requiresGrad = true;
}

export { Tensor };
