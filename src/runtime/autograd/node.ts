/**
 * Graph nodes: one per recorded op (named like PyTorch's, e.g. AddBackward0), with `nextFunctions` edges to
 * the nodes of its inputs, and AccumulateGrad at the leaves. Nodes carry a sequence number so the engine runs
 * later ops first, as PyTorch's engine does.
 */
import type { Tensor } from '../core/index.ts';

export type Edge = readonly [Node | null, number];

/** Runs the backward of one node: gradients of its outputs in, gradients of its inputs out. */
export type BackwardFn = (grads: readonly (Tensor | null)[]) => (Tensor | null)[];

let nextSequenceNr = 0;

export class Node {
  readonly sequenceNr = nextSequenceNr++;
  /** Hooks on the gradient of output `i` (tensor hooks of non-leaf outputs), run before the node. */
  readonly preHooks: ((grad: Tensor) => Tensor | undefined)[][] = [];
  released = false;

  constructor(
    readonly name: string,
    readonly nextFunctions: readonly Edge[],
    /** Number of forward outputs (gradients this node receives). */
    readonly numOutputs: number,
    private readonly backwardFn: BackwardFn | null,
    private readonly onRelease: () => void = () => {},
  ) {}

  apply(grads: readonly (Tensor | null)[]): (Tensor | null)[] {
    if (!this.backwardFn) return [];
    return this.backwardFn(grads);
  }

  release(): void {
    this.released = true;
    this.onRelease();
  }

  toString(): string {
    return `<${this.name}>`;
  }
}

/** The leaf's node: gradients arriving here are added into `variable.grad`. */
export class AccumulateGrad extends Node {
  constructor(readonly variable: Tensor) {
    super('AccumulateGrad', [], 1, null);
  }
}
