/**
 * The user-facing autograd API: `t.backward()`, `autograd.grad(...)`, `.grad`, `.gradFn` (with `name` and
 * `nextFunctions`), `.isLeaf`, `requiresGrad_()`, `retainGrad()`, `registerHook()`, `detach()`.
 */
import {
  AutogradError,
  DTYPE_INFO,
  InvalidArgumentError,
  ShapeMismatchError,
  Tensor,
} from '../core/index.ts';
import { callOp } from '../dispatch/index.ts';
import { runBackward } from './engine.ts';
import { gradFnOf, isLeaf, metaOf } from './meta.ts';
import type { Node } from './node.ts';
import { edgeOf } from './record.ts';

export interface BackwardOptions {
  retainGraph?: boolean;
  createGraph?: boolean;
  /** Accumulate only into these leaves (torch's backward(inputs=...)). */
  inputs?: readonly Tensor[];
}

export interface GradOptions {
  gradOutputs?: readonly (Tensor | null)[];
  retainGraph?: boolean;
  createGraph?: boolean;
  allowUnused?: boolean;
}

function seedGrads(
  outputs: readonly Tensor[],
  given: readonly (Tensor | null | undefined)[] | undefined,
  op: string,
): Tensor[] {
  return outputs.map((o, i) => {
    const g = given?.[i];
    if (g) return checkGradient(g, o, op);
    if (o.numel !== 1) {
      throw new AutogradError('grad can be implicitly created only for scalar outputs', {
        op,
        arg: 'gradient',
        got: `output of shape [${o.shape.join(', ')}]`,
        expected: 'a scalar output or an explicit gradient',
      });
    }
    return callOp('ones_like', [o]) as Tensor;
  });
}

/** A given gradient is a tensor of its output's shape (a junk value would fail deep in the engine). */
function checkGradient(g: unknown, o: Tensor, op: string): Tensor {
  if (!(g instanceof Tensor))
    throw new AutogradError('gradient must be a Tensor', {
      op,
      arg: 'gradient',
      got: g === null ? 'null' : typeof g,
      expected: 'a Tensor',
    });
  if (g.shape.length !== o.shape.length || g.shape.some((s, i) => s !== o.shape[i]))
    throw new ShapeMismatchError('Mismatch in shape: grad_output and output have different shapes', {
      op,
      arg: 'gradient',
      got: [...g.shape],
      expected: [...o.shape],
    });
  return g;
}

/** Options are a plain object (or undefined): `null` or a number would fail on its first property read. */
function checkOptions<O extends object>(o: O | undefined | null, op: string): O {
  if (o === undefined) return {} as O;
  if (o === null || typeof o !== 'object' || Array.isArray(o) || o instanceof Tensor)
    throw new InvalidArgumentError('options must be an object', {
      op,
      arg: 'options',
      got: o === null ? 'null' : typeof o,
      expected: 'an object',
    });
  return o;
}

function checkRequiresGrad(outputs: readonly Tensor[], op: string): void {
  for (const o of outputs) {
    if (!o.requiresGrad) {
      throw new AutogradError('element 0 of tensors does not require grad and does not have a grad_fn', {
        op,
        arg: 'tensors',
        got: 'a tensor without grad',
        expected: 'requiresGrad',
      });
    }
  }
}

export function backward(
  outputs: readonly Tensor[],
  gradients?: readonly (Tensor | null)[],
  options: BackwardOptions = {},
): void {
  const o = checkOptions(options, 'backward');
  checkRequiresGrad(outputs, 'backward');
  const grads = seedGrads(outputs, gradients, 'backward');
  const createGraph = o.createGraph ?? false;
  if (o.inputs) {
    const got = grad(outputs, o.inputs, {
      gradOutputs: grads,
      retainGraph: o.retainGraph ?? createGraph,
      createGraph,
      allowUnused: true,
    });
    o.inputs.forEach((t, i) => {
      const g = got[i];
      if (g) metaOf(t).grad = metaOf(t).grad ? (callOp('add', [metaOf(t).grad, g]) as Tensor) : g;
    });
    return;
  }
  runBackward(outputs.map(edgeOf), grads, { retainGraph: o.retainGraph ?? createGraph, createGraph });
}

/** torch.autograd.grad: gradients of `outputs` w.r.t. `inputs`, without touching `.grad`. */
export function grad(
  outputs: readonly Tensor[],
  inputs: readonly Tensor[],
  options: GradOptions = {},
): (Tensor | null)[] {
  const o = checkOptions(options, 'autograd.grad');
  checkRequiresGrad(outputs, 'autograd.grad');
  for (const t of inputs) {
    if (!t.requiresGrad)
      throw new AutogradError('One of the differentiated Tensors does not require grad', {
        op: 'autograd.grad',
        arg: 'inputs',
        got: 'a tensor without grad',
        expected: 'requiresGrad',
      });
  }
  const createGraph = o.createGraph ?? false;
  const grads = seedGrads(outputs, o.gradOutputs, 'autograd.grad');
  const captured = runBackward(outputs.map(edgeOf), grads, {
    retainGraph: o.retainGraph ?? createGraph,
    createGraph,
    captures: inputs.map(edgeOf),
  });
  if (!o.allowUnused) {
    const unused = captured.indexOf(null);
    if (unused >= 0) {
      throw new AutogradError(
        'One of the differentiated Tensors appears to not have been used in the graph. Set allowUnused=true if this is the desired behavior.',
        { op: 'autograd.grad', arg: `inputs[${unused}]`, got: 'unused', expected: 'used in the graph' },
      );
    }
  }
  return captured;
}

declare module '../core/tensor.ts' {
  interface Tensor {
    grad: Tensor | null;
    readonly gradFn: Node | null;
    readonly isLeaf: boolean;
    readonly retainsGrad: boolean;
    backward(gradient?: Tensor | null, options?: BackwardOptions): void;
    requiresGrad_(requiresGrad?: boolean): Tensor;
    retainGrad(): void;
    registerHook(hook: (grad: Tensor) => Tensor | undefined): () => void;
    detach(): Tensor;
  }
}

let installed = false;

export function installAutogradMethods(): void {
  if (installed) return;
  installed = true;
  const proto = Tensor.prototype;
  Object.defineProperty(proto, 'grad', {
    get(this: Tensor) {
      return this.autograd?.grad ?? null;
    },
    set(this: Tensor, g: Tensor | null) {
      metaOf(this).grad = g;
    },
  });
  Object.defineProperty(proto, 'gradFn', {
    get: function (this: Tensor) {
      return gradFnOf(this);
    },
  });
  Object.defineProperty(proto, 'isLeaf', {
    get: function (this: Tensor) {
      return isLeaf(this);
    },
  });
  Object.defineProperty(proto, 'retainsGrad', {
    get: function (this: Tensor) {
      return this.autograd?.retainsGrad ?? false;
    },
  });
  proto.backward = function (this: Tensor, gradient?: Tensor | null, options: BackwardOptions = {}) {
    backward([this], gradient ? [gradient] : undefined, options);
  };
  proto.requiresGrad_ = function (this: Tensor, requiresGrad = true) {
    if (typeof requiresGrad !== 'boolean')
      throw new InvalidArgumentError('requires_grad must be a boolean', {
        op: 'requires_grad_',
        arg: 'requires_grad',
        got: typeof requiresGrad,
        expected: 'a boolean',
      });
    if (!isLeaf(this)) {
      throw new AutogradError('you can only change requires_grad flags of leaf variables.', {
        op: 'requires_grad_',
        arg: 'self',
        got: 'a non-leaf',
        expected: 'a leaf',
      });
    }
    const kind = DTYPE_INFO[this.dtype].kind;
    if (requiresGrad && kind !== 'float' && kind !== 'complex') {
      throw new AutogradError('only Tensors of floating point and complex dtype can require gradients', {
        op: 'requires_grad_',
        arg: 'self',
        got: this.dtype,
        expected: 'a floating point or complex dtype',
      });
    }
    this.requiresGrad = requiresGrad;
    return this;
  };
  proto.retainGrad = function (this: Tensor) {
    if (!this.requiresGrad)
      throw new AutogradError("can't retain_grad on Tensor that has requires_grad=False", {
        op: 'retain_grad',
        arg: 'self',
      });
    if (isLeaf(this) || this.autograd?.retainsGrad) return;
    const m = metaOf(this);
    m.retainsGrad = true;
    addPreHook(this, (g) => {
      m.grad = m.grad
        ? (callOp('add', [m.grad, g]) as Tensor)
        : (callOp('clone', [callOp('detach', [g])]) as Tensor);
      return undefined;
    });
  };
  proto.registerHook = function (this: Tensor, hook: (grad: Tensor) => Tensor | undefined) {
    if (typeof hook !== 'function')
      throw new InvalidArgumentError('a hook must be a function', {
        op: 'register_hook',
        arg: 'hook',
        got: typeof hook,
        expected: 'a function',
      });
    if (!this.requiresGrad)
      throw new AutogradError("cannot register a hook on a tensor that doesn't require gradient", {
        op: 'register_hook',
        arg: 'self',
      });
    return addPreHook(this, hook);
  };
  proto.detach = function (this: Tensor) {
    return callOp('detach', [this]) as Tensor;
  };
}

function addPreHook(t: Tensor, hook: (grad: Tensor) => Tensor | undefined): () => void {
  const fn = gradFnOf(t);
  let list = metaOf(t).hooks;
  if (fn) {
    const nr = metaOf(t).outputNr;
    fn.preHooks[nr] = fn.preHooks[nr] ?? [];
    list = fn.preHooks[nr];
  }
  list.push(hook);
  return () => {
    const i = list.indexOf(hook);
    if (i >= 0) list.splice(i, 1);
  };
}
