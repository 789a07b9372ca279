/**
 * Tracing: the user function runs on fake tensors (meta tensors with the real inputs' sizes, strides and
 * offsets) while the Tracer dispatch key is included; its fallback records every op call as a graph node and
 * runs the op below the tracer on the fakes (shape, dtype and stride inference only). Reading values from a
 * fake tensor is a graph break: the caller flushes the graph so far and continues on real values.
 */
import { Storage, Tensor } from '../core/index.ts';
import {
  type BoundArgs,
  callEntry,
  DispatchKey,
  DispatchKeySet,
  type OperatorEntry,
  redispatch,
  setKeyFallback,
  withExcludedKeys,
  withIncludedKeys,
} from '../dispatch/index.ts';
import type { Graph, GraphNode, TensorMeta, Value } from './graph.ts';
import { metaOf } from './graph.ts';

const TRACER = DispatchKeySet.of(DispatchKey.Tracer);
/** While an op runs on fakes below the tracer: no nested recording, no autograd on fakes. */
const BELOW = DispatchKeySet.of(DispatchKey.Tracer, DispatchKey.Autograd, DispatchKey.ADInplaceOrView);

export class TraceState {
  readonly nodes: GraphNode[] = [];
  readonly inputs: Tensor[] = [];
  readonly inputMetas: TensorMeta[] = [];
  readonly refOf = new Map<Tensor, Value>();
  private readonly mirrors = new Map<Tensor, Tensor>();
  private readonly storages = new Map<Storage, Storage>();
  /** aot_eager / fused: composites are traced through, so the graph holds the ops they decompose into. */
  readonly decompose: boolean;
  /** Set when user code (not the runtime) read the sizes of a traced tensor. */
  sizesRead = false;
  /** Watch the sizes of traced tensors for reads by user code (dynamic dims). */
  trackSizes = false;
  depth = 0;
  /** Runs the graph so far on real values (a graph break); set by the compiler. */
  onBreak: ((reason: string) => void) | null = null;
  readonly breaks: string[] = [];

  /** Starts the next graph after a break (every traced tensor is real by then and enters as an input). */
  reset(): void {
    this.nodes.length = 0;
    this.inputs.length = 0;
    this.inputMetas.length = 0;
    this.refOf.clear();
    this.mirrors.clear();
    this.storages.clear();
  }

  constructor(decompose: boolean) {
    this.decompose = decompose;
  }

  /** A fake twin of a real tensor: same metadata on the meta device (views of one storage stay views). */
  fake(real: Tensor): Tensor {
    let f = this.mirrors.get(real);
    if (f && f.device === 'meta') return f;
    let st = this.storages.get(real.storage);
    if (!st) {
      st = new Storage(real.dtype, 'meta', real.storage.numel);
      this.storages.set(real.storage, st);
    }
    f = new Tensor(st, real.shape, real.strides, real.storageOffset);
    f.requiresGrad = real.requiresGrad;
    this.mirrors.set(real, f);
    return f;
  }

  /** Makes reads of `t.shape` (size(), numel, ...) by user code — not by the runtime — set `sizesRead`. */
  watch(t: Tensor): void {
    if (!this.trackSizes) return;
    let shape = t.shape;
    Object.defineProperty(t, 'shape', {
      configurable: true,
      enumerable: true,
      get: () => {
        if (this.depth === 0 && current === this) this.sizesRead = true;
        return shape;
      },
      set: (v: readonly number[]) => {
        shape = v;
      },
    });
  }

  /** Registers a real tensor as a graph input; returns its fake. */
  input(real: Tensor): Tensor {
    const f = this.fake(real);
    if (!this.refOf.has(f)) {
      this.watch(f);
      this.refOf.set(f, { kind: 'input', index: this.inputs.length });
      this.inputs.push(real);
      this.inputMetas.push(metaOf(real));
    }
    return f;
  }

  valueOf(x: unknown): Value {
    if (x instanceof Tensor) {
      const r = this.refOf.get(x);
      if (r) return r;
      if (x.isWrappedNumber) return { kind: 'const', value: x };
      if (x.device !== 'meta') return this.refOf.get(this.input(x))!;
      throw new Error(`compile: a tensor the trace does not know (${x})`);
    }
    if (Array.isArray(x)) return { kind: 'list', items: x.map((v) => this.valueOf(v)) };
    return { kind: 'const', value: x };
  }

  /** The argument as the fakes see it: real tensors (captured from outside) become their fakes. */
  fakeArg(x: unknown): unknown {
    if (x instanceof Tensor) return x.device === 'meta' || x.isWrappedNumber ? x : this.input(x);
    if (Array.isArray(x)) return x.map((v) => this.fakeArg(v));
    return x;
  }

  record(op: OperatorEntry, args: Record<string, Value>, result: unknown): void {
    const outs = Array.isArray(result) ? result : [result];
    const id = this.nodes.length;
    const tensors = outs.filter((t): t is Tensor => t instanceof Tensor);
    this.nodes.push({ id, op: op.name, args, outputs: tensors.map(metaOf) });
    tensors.forEach((t, i) => {
      if (!this.refOf.has(t)) this.watch(t);
      this.refOf.set(t, { kind: 'node', node: id, output: i });
    });
  }

  graph(output: Value): Graph {
    return { inputs: [...this.inputMetas], nodes: [...this.nodes], output };
  }
}

let current: TraceState | null = null;

export function tracing(): TraceState | null {
  return current;
}

function tracerKernel(ks: DispatchKeySet, args: BoundArgs, op: OperatorEntry): unknown {
  const st = current;
  if (!st) return redispatch(op, ks.remove(DispatchKey.Tracer), args);
  const dd = op.tags.dataDependent;
  if (dd === true || (typeof dd === 'function' && dd(args)))
    return graphBreak(
      st,
      op,
      args,
      `${op.schema.name}() reads the values of a traced tensor (data-dependent)`,
    );
  // A custom op without a fake kernel (library.registerFake) cannot run on fakes: it runs on real values.
  if (op.tags.library !== undefined && !op.kernels.has(DispatchKey.Meta) && !op.composite)
    return graphBreak(
      st,
      op,
      args,
      `${op.schema.name}() has no fake (meta) kernel, so it runs eagerly: library.registerFake adds one`,
    );
  const values: Record<string, Value> = {};
  const fakeArgs: Record<string, unknown> = { ...args };
  let anyTensor = false;
  for (const a of op.schema.args) {
    const v = args[a.name];
    values[a.name] = st.valueOf(v);
    fakeArgs[a.name] = st.fakeArg(v);
    if (v instanceof Tensor || (Array.isArray(v) && v.some((x) => x instanceof Tensor))) anyTensor = true;
  }
  // A factory inside the traced function builds its fake on the meta device, and so does a transfer
  // (`x.to(device='cpu')`: a fake cannot be copied out); the node keeps its real device.
  if ('device' in fakeArgs && (!anyTensor || typeof fakeArgs.device === 'string')) fakeArgs.device = 'meta';
  st.depth++;
  try {
    if (st.decompose && !op.kernels.has(DispatchKey.Meta) && op.composite) {
      const mark = st.nodes.length;
      const r = withExcludedKeys(DispatchKeySet.of(DispatchKey.Autograd, DispatchKey.ADInplaceOrView), () =>
        op.composite!(ks.remove(DispatchKey.Tracer), fakeArgs, op),
      );
      const outs = (Array.isArray(r) ? r : [r]).filter((t): t is Tensor => t instanceof Tensor);
      if (st.nodes.length > mark && outs.every((t) => st.refOf.has(t))) return r;
      // Pure metadata (a view) or an output the inner calls did not produce: keep the op itself.
      st.nodes.length = mark;
      st.record(op, values, r);
      return r;
    }
    const r = withExcludedKeys(BELOW, () =>
      redispatch(op, ks.remove(DispatchKey.Tracer).minus(BELOW), fakeArgs),
    );
    st.record(op, values, r);
    return r;
  } finally {
    st.depth--;
  }
}

/**
 * An op that cannot run on fakes (one_hot reads its inputs' values; a custom op may have no fake kernel): a graph
 * break when a traced tensor goes in — the graph so far runs and its tensors become real — then the op runs on
 * real values, its result entering later graphs as an input.
 */
function graphBreak(st: TraceState, op: OperatorEntry, args: BoundArgs, reason: string): unknown {
  const traced = op.schema.args.some((a) => {
    const v = args[a.name];
    return (Array.isArray(v) ? v : [v]).some(
      (x) => x instanceof Tensor && x.device === 'meta' && st.refOf.has(x),
    );
  });
  if (traced && st.onBreak) {
    st.breaks.push(reason);
    st.onBreak(reason);
  }
  return untraced(() => callEntry(op, args));
}

setKeyFallback(DispatchKey.Tracer, tracerKernel);

/** Runs `body` with `st` recording every op call (the Tracer key included). */
export function withTrace<T>(st: TraceState, body: () => T): T {
  const prev = current;
  current = st;
  try {
    return withIncludedKeys(TRACER, body);
  } finally {
    current = prev;
  }
}

/**
 * Called by readback before reading a meta tensor: a traced tensor being read is a graph break — the graph so
 * far runs on the real inputs and every traced tensor becomes real (in place), so the read sees real values.
 */
export function readDuringTrace(t: Tensor, what: string): void {
  const st = current;
  if (!st || t.device !== 'meta' || !st.refOf.has(t) || !st.onBreak) return;
  const reason = `${what}() reads the values of a traced tensor (data-dependent)`;
  st.breaks.push(reason);
  st.onBreak(reason);
}

/** Runs `body` outside any trace (executing a graph on real tensors in the middle of tracing). */
export function untraced<T>(body: () => T): T {
  const prev = current;
  current = null;
  try {
    return withExcludedKeys(TRACER, body);
  } finally {
    current = prev;
  }
}
