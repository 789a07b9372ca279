/**
 * The Autograd dispatch-key kernel: if an input requires grad, run the op below Autograd (keys excluded), then
 * record a node with edges to the inputs' nodes, save what the derivative row asks for (version-checked), and
 * make the outputs its outputs. In-place ops rebase `self` onto the new node; out= refuses autograd.
 */
import { AutogradError, DTYPE_INFO, type DType, NotImplementedError, Tensor } from '../core/index.ts';
import {
  type BoundArgs,
  callOp,
  type DispatchKeySet,
  type Kernel,
  type OperatorEntry,
  redispatch,
} from '../dispatch/index.ts';
import { type Derivative, nodeName } from './derivative.ts';
import { AUTOGRAD_KEYS, noGrad } from './grad_mode.ts';
import { gradFnOf, isLeaf, metaOf, setHistory } from './meta.ts';
import { AccumulateGrad, type Edge, Node } from './node.ts';
import { SavedVariable } from './saved.ts';

interface InputSlot {
  readonly arg: string;
  /** Position inside a Tensor[] argument, or -1 for a plain Tensor argument. */
  readonly index: number;
  readonly tensor: Tensor | null;
}

/** Whether some tensor input requires grad; no allocation, since most eager calls need no graph. */
function anyInputRequiresGrad(op: OperatorEntry, args: BoundArgs): boolean {
  for (const a of op.schema.args) {
    if (a.type.base !== 'Tensor' || a.name === 'out') continue;
    const v = args[a.name];
    if (a.type.isList) {
      for (const t of v as (Tensor | null)[]) if (t?.requiresGrad) return true;
    } else if (v instanceof Tensor && v.requiresGrad) return true;
  }
  return false;
}

function inputSlots(op: OperatorEntry, args: BoundArgs): InputSlot[] {
  const slots: InputSlot[] = [];
  for (const a of op.schema.args) {
    if (a.type.base !== 'Tensor' || a.name === 'out') continue;
    const v = args[a.name];
    if (a.type.isList) {
      (v as (Tensor | null)[]).forEach((t, i) => {
        slots.push({ arg: a.name, index: i, tensor: t });
      });
    } else slots.push({ arg: a.name, index: -1, tensor: v instanceof Tensor ? v : null });
  }
  return slots;
}

export function accumulatorOf(t: Tensor): AccumulateGrad {
  const m = metaOf(t);
  if (!m.accumulator) m.accumulator = new AccumulateGrad(t);
  return m.accumulator as AccumulateGrad;
}

export function edgeOf(t: Tensor): Edge {
  const fn = gradFnOf(t);
  return fn ? [fn, metaOf(t).outputNr] : [accumulatorOf(t), 0];
}

const isDifferentiable = (d: DType) => DTYPE_INFO[d].kind === 'float' || DTYPE_INFO[d].kind === 'complex';

function outputsOf(out: unknown): Tensor[] {
  if (out instanceof Tensor) return [out];
  return Array.isArray(out) ? out.filter((x): x is Tensor => x instanceof Tensor) : [];
}

function checkRecordable(op: OperatorEntry, slots: readonly InputSlot[], args: BoundArgs): void {
  const name = op.schema.name;
  if (op.schema.args.some((a) => a.name === 'out' && a.type.alias?.isWrite)) {
    throw new AutogradError(
      `${name}(): functions with out=... arguments don't support automatic differentiation, but one of the arguments requires grad.`,
      { op: name, arg: 'out', got: 'an input that requires grad', expected: 'no out= under autograd' },
    );
  }
  for (const s of slots) {
    if (s.tensor?.requiresGrad && DTYPE_INFO[s.tensor.dtype].kind === 'complex') {
      throw new NotImplementedError('autograd of complex tensors is not supported by this runtime', {
        op: name,
        arg: s.arg,
        got: s.tensor.dtype,
        expected: 'a real floating dtype',
      });
    }
  }
  const self = args.self;
  if (op.schema.mutates && self instanceof Tensor && op.schema.args[0]?.type.alias?.isWrite) {
    if (self.requiresGrad && isLeaf(self)) {
      throw new AutogradError('a leaf Variable that requires grad is being used in an in-place operation.', {
        op: name,
        arg: 'self',
        got: 'a leaf that requires grad',
        expected: 'a non-leaf or a tensor without grad',
      });
    }
    // Writing into a view while recording needs PyTorch's CopySlices on the base; refuse rather than lose it.
    if (self.base !== null && (self.base.requiresGrad || slots.some((s) => s.tensor?.requiresGrad))) {
      throw new NotImplementedError(
        'in-place ops on views of tensors that require grad (CopySlices) are not supported',
        { op: name, arg: 'self', got: 'a view', expected: 'a base tensor' },
      );
    }
  }
}

export function autogradKernel(d: Derivative, opName: string): Kernel {
  const labels = new Map<string, string>();
  return (ks: DispatchKeySet, args: BoundArgs, op: OperatorEntry) => {
    const below = ks.minus(AUTOGRAD_KEYS);
    if (!anyInputRequiresGrad(op, args)) return redispatch(op, below, args);
    const slots = inputSlots(op, args);
    for (const arg of d.nondiffArgs ?? [])
      if ((args[arg] as Tensor | null)?.requiresGrad)
        throw new AutogradError(
          `The function '${opName}' is not differentiable with respect to argument '${arg}'. This input cannot have requires_grad True.`,
          { op: opName, arg, got: 'requires_grad', expected: 'no grad' },
        );
    checkRecordable(op, slots, args);
    let label = labels.get(op.schema.overload);
    if (label === undefined) {
      label = nodeName(opName, d, op.schema.overload);
      labels.set(op.schema.overload, label);
    }
    const inplace = op.schema.mutates;
    const edges: Edge[] = slots.map((s) => (s.tensor?.requiresGrad ? edgeOf(s.tensor) : [null, 0]));
    const inputMeta = slots.map((s) => (s.tensor ? { shape: s.tensor.shape, dtype: s.tensor.dtype } : null));
    const shapes: Record<string, readonly number[]> = {};
    for (const s of slots) if (s.index < 0 && s.tensor) shapes[s.arg] = [...s.tensor.shape];
    // Saved inputs; an in-place op saves self's value from before it is overwritten.
    const saved = new Map<string, SavedVariable | SavedVariable[]>();
    for (const arg of d.saves) {
      if (arg === 'result') continue;
      const v = args[arg];
      if (Array.isArray(v))
        saved.set(
          arg,
          v.map((t) => new SavedVariable(t as Tensor, `an input of ${label}`)),
        );
      else if (v instanceof Tensor) {
        const value = inplace && arg === 'self' ? noGrad(() => callOp('clone', [v]) as Tensor) : v;
        saved.set(arg, new SavedVariable(value, `an input of ${label}`));
      }
    }
    const out = noGrad(() => redispatch(op, below, args));
    // An op returning its input itself (`to` with nothing to convert, `contiguous` of a contiguous tensor) is
    // no node, as in PyTorch: recording one would rewrite the input's own history (a leaf would stop being one).
    if (!inplace && out instanceof Tensor && slots.some((s) => s.tensor === out)) return out;
    const outputs = outputsOf(out);
    const outMeta = outputs.map((t) => ({ shape: t.shape, dtype: t.dtype, device: t.device }));
    const results = d.saves.includes('result')
      ? outputs.map((t, i) => new SavedVariable(t, `output ${i} of ${label}`))
      : [];
    const release = () => {
      for (const v of saved.values()) for (const s of Array.isArray(v) ? v : [v]) s.release();
      for (const r of results) r.release();
    };
    // The node keeps the non-tensor arguments; unsaved tensor arguments are dropped now (not kept alive).
    const kept: BoundArgs = { ...args };
    for (const s of slots) if (s.index < 0 && !saved.has(s.arg)) kept[s.arg] = null;
    const nInputs = slots.length;
    const node: Node = new Node(label, edges, outputs.length, (grads) => backward(grads), release);
    const backward = (grads: readonly (Tensor | null)[]): (Tensor | null)[] => {
      const full = outMeta.map(
        (m, i) => grads[i] ?? (callOp('zeros', [m.shape], { dtype: m.dtype, device: m.device }) as Tensor),
      );
      const ctxArgs: BoundArgs = { ...kept };
      for (const [name, v] of saved)
        ctxArgs[name] = Array.isArray(v) ? v.map((x) => x.unpack(label)) : v.unpack(label);
      const res = results.map((r) => r.unpack(label));
      const gin = d.formula({
        grad: full[0],
        grads: full,
        args: ctxArgs,
        results: res,
        result: res[0],
        shapes,
      });
      if (gin.length !== nInputs) {
        throw new AutogradError(`${label} returned ${gin.length} gradients, expected ${nInputs}`, {
          op: label,
        });
      }
      return gin.map((g, i) =>
        edges[i][0] === null || g === null ? null : validate(label, i, g, inputMeta[i]!),
      );
    };
    outputs.forEach((t, i) => {
      if (isDifferentiable(t.dtype) && !d.nondiffOutputs?.includes(i)) setHistory(t, node, i);
    });
    return out;
  };
}

/** PyTorch's validate_outputs: a gradient must have its input's shape (cast to its dtype). */
function validate(name: string, i: number, g: Tensor, m: { shape: readonly number[]; dtype: DType }): Tensor {
  if (g.shape.length !== m.shape.length || g.shape.some((s, k) => s !== m.shape[k])) {
    throw new AutogradError(
      `Function ${name} returned an invalid gradient at index ${i} - got [${g.shape.join(', ')}] but expected shape compatible with [${m.shape.join(', ')}]`,
      {
        op: name,
        arg: `gradient ${i}`,
        got: [...g.shape],
        expected: [...m.shape],
      },
    );
  }
  return g.dtype === m.dtype ? g : (callOp('to', [g, m.dtype]) as Tensor);
}
