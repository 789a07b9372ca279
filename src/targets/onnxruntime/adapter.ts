/**
 * onnxruntime-web as a target: each op row builds an ONNX node (a single-node graph, plus a Cast or a Mul of glue
 * where PyTorch's arguments need one), encoded to ModelProto bytes in memory (onnx_proto.ts) and run by an
 * InferenceSession on the wasm execution provider, in Node. The target's tensors are host values or node outputs
 * (graph.ts); reading an output back runs its graph. Sessions are cached by the graph's structure (ops, attributes,
 * input dtypes and shapes): the host values, constants included, are fed.
 */
import type * as ORT from 'onnxruntime-web';
import type { DType } from '../../runtime/index.ts';
import { type HostTensor, NotExpressible, type TargetAdapter } from '../target.ts';
import { type GNode, isOrtT, type Leaf, type OrtT } from './graph.ts';
import { ELEM, encodeModel, type NodeSpec, type ValueSpec } from './onnx_proto.ts';

type R = typeof ORT;

export const ORT_PACKAGES = ['onnxruntime-web@1.31.1'];
/**
 * The ONNX opset the graphs import (ORT 1.31 implements up to 23): 18 gives the reductions their axes input, 20
 * Gelu and GridSample's N-d modes, 21 GroupNormalization's per-channel scale.
 */
export const OPSET = 21;

/** The dtypes fed and read back (PyTorch's names are ONNX's for these). */
const HOLDS = ['float32', 'float64', 'float16', 'int32', 'int64', 'int16', 'int8', 'uint8', 'bool'] as const;
const holds = (d: string): d is (typeof HOLDS)[number] => (HOLDS as readonly string[]).includes(d);

/** The graph behind a node: its inputs fed by name, its nodes, and the structure key its session is cached by. */
function compile(root: GNode): { key: string; model: () => Uint8Array; feeds: Map<string, Leaf> } {
  const names = new Map<object, string>();
  const feeds = new Map<string, Leaf>();
  const inputs: ValueSpec[] = [];
  const nodes: NodeSpec[] = [];
  const nodeNames = new Map<GNode, string>();
  const visit = (n: GNode): string => {
    const seen = nodeNames.get(n);
    if (seen) return seen;
    const ins = n.inputs.map((x): string => {
      if (x === null) return '';
      if (x.kind === 'out') return `${visit(x.node)}_${x.index}`;
      let name = names.get(x);
      if (!name) {
        name = `x${feeds.size}`;
        names.set(x, name);
        feeds.set(name, x);
        inputs.push({ name, elem: ELEM[x.dtype as keyof typeof ELEM], shape: x.shape });
      }
      return name;
    });
    const name = `n${nodes.length}`;
    nodeNames.set(n, name);
    const outputs = [...Array(n.outputs).keys()].map((i) => `${name}_${i}`);
    nodes.push({ op: n.op, inputs: ins, outputs, attrs: n.attrs });
    return name;
  };
  const rootName = visit(root);
  const outputs = [...Array(root.outputs).keys()].map((i) => ({
    name: `${rootName}_${i}`,
    elem: 0,
    shape: null,
  }));
  const key = JSON.stringify([inputs, nodes]);
  return { key, model: () => encodeModel({ nodes, inputs, outputs, opset: OPSET }), feeds };
}

const MAX_SESSIONS = 512;
const sessions = new Map<string, Promise<ORT.InferenceSession>>();

function session(ort: R, key: string, model: () => Uint8Array): Promise<ORT.InferenceSession> {
  let s = sessions.get(key);
  if (s) {
    sessions.delete(key); // most recently used last
    sessions.set(key, s);
    return s;
  }
  s = ort.InferenceSession.create(model(), {
    executionProviders: ['wasm'],
    graphOptimizationLevel: 'disabled',
    logSeverityLevel: 4,
  });
  sessions.set(key, s);
  // A refused graph is not cached: the refusal is the call's.
  s.catch(() => sessions.delete(key));
  if (sessions.size > MAX_SESSIONS) {
    const [oldest, old] = sessions.entries().next().value as [string, Promise<ORT.InferenceSession>];
    sessions.delete(oldest);
    old.then((o) => o.release()).catch(() => {});
  }
  return s;
}

function toOrt(ort: R, l: Leaf): ORT.Tensor {
  if (!holds(l.dtype)) throw new NotExpressible(`onnxruntime-web has no ${l.dtype} tensors`);
  const type = l.dtype === 'float16' ? 'float16' : l.dtype;
  return new ort.Tensor(type, l.data as never, [...l.shape]);
}

function fromOrt(t: ORT.Tensor): Leaf {
  if (!holds(t.type)) throw new NotExpressible(`an onnxruntime ${t.type} output`);
  return { kind: 'leaf', dtype: t.type as DType, shape: [...t.dims], data: t.data as ArrayLike<number> };
}

async function runNode(ort: R, root: GNode): Promise<readonly Leaf[]> {
  try {
    const g = compile(root);
    const s = await session(ort, g.key, g.model);
    const feeds: Record<string, ORT.Tensor> = {};
    for (const [name, l] of g.feeds) feeds[name] = toOrt(ort, l);
    const r = await s.run(feeds, { logSeverityLevel: 4 });
    return s.outputNames.map((n) => fromOrt(r[n]));
  } finally {
    // Also when ORT refused the graph: the global must not outlive ORT's own call.
    hideWorkerGlobal();
  }
}

/** Whether Node had a global Worker before onnxruntime-web loaded (it has none of its own). */
let hadWorker = 'Worker' in globalThis;

/**
 * onnxruntime-web's emscripten glue sets a global Worker (a worker_threads polyfill for its pthreads). With one thread
 * it needs none, and the global misleads other wasm runtimes in the process (jax-js starts a worker pool when one
 * exists, with a blob: URL Node's Worker refuses): it is taken away after ORT's own calls.
 */
function hideWorkerGlobal(): void {
  if (!hadWorker) delete (globalThis as Record<string, unknown>).Worker;
}

export function ortAdapter(): TargetAdapter<R, OrtT> {
  return {
    name: 'ort-wasm',
    packages: ORT_PACKAGES,
    dtypes: [...HOLDS],
    async load() {
      hadWorker = 'Worker' in globalThis;
      const ort = await import('onnxruntime-web');
      // One thread: no workers to keep the process alive; the wasm binary comes from the package's dist/.
      ort.env.wasm.numThreads = 1;
      ort.env.logLevel = 'fatal';
      return ort;
    },
    fromHost(_ort, h: HostTensor): OrtT {
      if (!holds(h.dtype)) throw new NotExpressible(`onnxruntime-web has no ${h.dtype} tensors`);
      return { kind: 'leaf', dtype: h.dtype, shape: [...h.shape], data: h.data };
    },
    async toHost(ort, x) {
      let l: Leaf;
      if (x.kind === 'leaf') l = x;
      else {
        x.node.ran ??= runNode(ort, x.node);
        l = (await x.node.ran)[x.index];
      }
      return { dtype: l.dtype, shape: [...l.shape], data: l.data };
    },
    isTensor: (_ort, x): x is OrtT => isOrtT(x),
  };
}
