/**
 * The backward engine: counts dependencies from the roots, then runs nodes when all their gradients have
 * arrived, later ops first (highest sequence number), summing gradients per node input. Tensor hooks run on
 * a gradient before it is used; AccumulateGrad adds into `.grad` (or, for autograd.grad, the gradient is
 * captured instead). Without retainGraph, each node's saved tensors are freed after it runs.
 */
import { GraphFreedError, type Tensor } from '../core/index.ts';
import { callOp } from '../dispatch/index.ts';
import { setGradEnabled } from './grad_mode.ts';
import { metaOf } from './meta.ts';
import { AccumulateGrad, type Edge, type Node } from './node.ts';

export interface RunOptions {
  readonly retainGraph: boolean;
  readonly createGraph: boolean;
  /** autograd.grad: capture the gradient arriving at these edges instead of accumulating into leaves. */
  readonly captures?: readonly Edge[];
}

const add = (a: Tensor | null, b: Tensor): Tensor => (a === null ? b : (callOp('add', [a, b]) as Tensor));

function runHooks(hooks: readonly ((g: Tensor) => Tensor | undefined)[], g: Tensor): Tensor {
  let cur = g;
  for (const h of hooks) cur = h(cur) ?? cur;
  return cur;
}

/** Runs backward from `roots` (edges) seeded with `grads`; returns the captured gradients (autograd.grad). */
export function runBackward(
  roots: readonly Edge[],
  grads: readonly Tensor[],
  o: RunOptions,
): (Tensor | null)[] {
  return setGradEnabled(o.createGraph, () => execute(roots, grads, o));
}

function execute(roots: readonly Edge[], grads: readonly Tensor[], o: RunOptions): (Tensor | null)[] {
  const deps = new Map<Node, number>();
  const seen = new Set<Node>();
  // Each root node once: outputs of one multi-output node (split's views) are several roots of one node, whose
  // edges must be counted once, or its next nodes would wait forever for the extra counts.
  const stack: Node[] = [...new Set(roots.map(([n]) => n).filter((n): n is Node => n !== null))];
  for (const n of stack) seen.add(n);
  while (stack.length) {
    const n = stack.pop()!;
    for (const [next] of n.nextFunctions) {
      if (!next) continue;
      deps.set(next, (deps.get(next) ?? 0) + 1);
      if (!seen.has(next)) {
        seen.add(next);
        stack.push(next);
      }
    }
  }
  const buffers = new Map<Node, (Tensor | null)[]>();
  const bufferOf = (n: Node) => {
    let b = buffers.get(n);
    if (!b) {
      b = new Array(n.numOutputs).fill(null);
      buffers.set(n, b);
    }
    return b;
  };
  roots.forEach(([n, nr], i) => {
    if (n) bufferOf(n)[nr] = add(bufferOf(n)[nr], grads[i]);
  });
  const captured: (Tensor | null)[] = (o.captures ?? []).map(() => null);
  const captureIndex = (n: Node, nr: number) =>
    (o.captures ?? []).findIndex(([c, cnr]) => c === n && cnr === nr);
  const ready: Node[] = [
    ...new Set(roots.map(([n]) => n).filter((n): n is Node => n !== null && !deps.get(n))),
  ];
  while (ready.length) {
    ready.sort((a, b) => a.sequenceNr - b.sequenceNr);
    const node = ready.pop()!;
    const inBuf = buffers.get(node) ?? new Array(node.numOutputs).fill(null);
    buffers.delete(node);
    // Tensor hooks: a non-leaf's live on its node's output slot, a leaf's on the leaf itself.
    const gradsIn = inBuf.map((g, i) => {
      if (g === null) return null;
      return node instanceof AccumulateGrad
        ? runHooks(metaOf(node.variable).hooks, g)
        : runHooks(node.preHooks[i] ?? [], g);
    });
    gradsIn.forEach((g, i) => {
      const k = captureIndex(node, i);
      if (k >= 0 && g !== null) captured[k] = g;
    });
    if (node instanceof AccumulateGrad) {
      if (!o.captures && gradsIn[0] !== null) accumulate(node.variable, gradsIn[0], o.createGraph);
    } else {
      if (node.released) {
        throw new GraphFreedError(
          'Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed). Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). Specify retainGraph=true if you need to backward through the graph a second time.',
          { op: node.name, got: 'a freed graph', expected: 'retainGraph: true on the first backward' },
        );
      }
      const out = node.apply(gradsIn);
      if (!o.retainGraph) node.release();
      node.nextFunctions.forEach(([next, nr], i) => {
        if (!next) return;
        const g = out[i] ?? null;
        if (g !== null) bufferOf(next)[nr] = add(bufferOf(next)[nr], g);
        const left = (deps.get(next) ?? 1) - 1;
        deps.set(next, left);
        if (left === 0) ready.push(next);
      });
    }
  }
  return captured;
}

function accumulate(variable: Tensor, grad: Tensor, createGraph: boolean): void {
  const m = metaOf(variable);
  const value = createGraph ? grad : (callOp('detach', [grad]) as Tensor);
  m.grad =
    m.grad === null
      ? createGraph
        ? value
        : (callOp('clone', [value]) as Tensor)
      : (callOp('add', [m.grad, value]) as Tensor);
}
