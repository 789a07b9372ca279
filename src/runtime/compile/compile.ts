/**
 * compile(fn, {backend, dynamic}): torch.compile for this runtime. The first call traces `fn` on fake tensors
 * into a graph (tracer.ts), guards it on the inputs' metadata (guards.ts) and compiles it: 'eager' replays the
 * graph, 'aot_eager' replays the graph of primitives (composites traced through), 'fused' also fuses pointwise
 * chains into generated kernels (fuse.ts). Later calls whose inputs pass an entry's guards run that entry
 * without tracing. A size guard failure recompiles with that dim dynamic; more than `cacheLimit` (8) entries
 * fall back to eager with a warning. Reading tensor values inside `fn` is a graph break: the graph so far runs,
 * the read sees real values, and tracing continues into the next graph.
 *
 * Autograd: when an input requires grad (grad mode on), the compiled forward replays its graph through the
 * dispatcher, so autograd records every op and backward is eager — correct gradients, no fused kernels.
 */

import { isGradEnabled } from '../autograd/index.ts';
import { type DeviceType, Tensor } from '../core/index.ts';
import { flatten, rebind, rebuild } from './args.ts';
import { type Env, type Kernel, resolve, runGraph } from './execute.ts';
import { buildKernel, planFusion } from './fuse.ts';
import { formatGraph, type Graph, graphKey, type Value } from './graph.ts';
import { checkTensor, formatGuard, type Guards, guardFor, type TensorGuard } from './guards.ts';
import { TraceState, untraced, withTrace } from './tracer.ts';

export type CompileBackend = 'eager' | 'aot_eager' | 'fused';

export interface CompileOptions {
  readonly backend?: CompileBackend;
  /** true: dims dynamic from the first compile; false: always specialise; unset: dynamic after a size change. */
  readonly dynamic?: boolean;
  /** Keep the generated kernel sources (see `compiled.entries()`). */
  readonly debug?: boolean;
  readonly cacheLimit?: number;
}

export interface CompileCounters {
  compiles: number;
  cacheHits: number;
  recompiles: number;
  graphBreaks: number;
  eagerFallbacks: number;
}

const zero = (): CompileCounters => ({
  compiles: 0,
  cacheHits: 0,
  recompiles: 0,
  graphBreaks: 0,
  eagerFallbacks: 0,
});
/** Totals over every compiled function (torch._dynamo.utils.counters). */
export const compileCounters: CompileCounters = zero();

interface Artifact {
  readonly graph: Graph;
  readonly kernels: readonly Kernel[];
  readonly sources: readonly string[];
}

export interface EntryInfo {
  readonly guards: readonly string[];
  readonly graphs: readonly string[];
  readonly graphBreaks: readonly string[];
  readonly dynamic: readonly string[];
  readonly notes: readonly string[];
  readonly sources: readonly string[];
}

interface Entry {
  readonly guards: Guards;
  readonly graphs: readonly Graph[];
  readonly breaks: readonly string[];
  /** Single-graph entries run this directly; entries with graph breaks re-run `fn` segment by segment. */
  readonly artifact: Artifact | null;
  readonly dynamic: readonly string[];
  readonly notes: readonly string[];
}

export interface CompiledFunction<A extends unknown[], R> {
  (...args: A): R;
  readonly stats: CompileCounters;
  entries(): EntryInfo[];
}

function sameExceptSizes(a: Guards, b: Guards): number[][] | null {
  if (a.constants !== b.constants || a.gradMode !== b.gradMode || a.tensors.length !== b.tensors.length)
    return null;
  const differ: number[][] = [];
  for (let i = 0; i < a.tensors.length; i++) {
    const x = a.tensors[i];
    const y = b.tensors[i];
    if (
      x.dtype !== y.dtype ||
      x.device !== y.device ||
      x.strides !== y.strides ||
      x.requiresGrad !== y.requiresGrad
    )
      return null;
    if (x.sizes.length !== y.sizes.length) return null;
    x.sizes.forEach((s, d) => {
      if (s === null || y.sizes[d] === null || s !== y.sizes[d]) differ.push([i, d]);
    });
  }
  return differ;
}

export function compile<A extends unknown[], R>(
  fn: (...args: A) => R,
  options: CompileOptions = {},
): CompiledFunction<A, R> {
  const backend = options.backend ?? 'fused';
  const limit = options.cacheLimit ?? 8;
  const entries: Entry[] = [];
  const segments = new Map<string, Artifact>();
  const stats = zero();
  let warned = false;
  const count = (k: keyof CompileCounters) => {
    stats[k]++;
    compileCounters[k]++;
  };

  /** `fuse` is off for a graph ending in a break: the code after it may use any intermediate. */
  const artifactFor = (g: Graph, device: DeviceType, fuse = true): Artifact => {
    const key = `${device}|${fuse}|${graphKey(g, true)}`;
    let a = segments.get(key);
    if (!a) {
      const sources: string[] = [];
      const kernels =
        backend === 'fused' && fuse
          ? planFusion(g, device).map((grp) => buildKernel(grp, device, sources))
          : [];
      a = { graph: g, kernels, sources: options.debug ? sources : [] };
      segments.set(key, a);
      count('compiles');
    }
    return a;
  };

  const execute = (a: Artifact, inputs: readonly Tensor[]): Env => {
    // With autograd recording, every op goes through the dispatcher (fused kernels have no derivative).
    const grad = isGradEnabled() && inputs.some((t) => t.requiresGrad);
    return untraced(() => runGraph(a.graph, inputs, grad ? [] : a.kernels));
  };

  /** Runs `fn` on fakes, breaking into graphs at value reads; returns the real result and what it traced. */
  const traceRun = (args: readonly unknown[], tensors: readonly Tensor[], dynamic: ReadonlySet<string>) => {
    const st = new TraceState(backend !== 'eager');
    if (dynamic.size) st.trackSizes = true;
    const fakes = tensors.map((t) => st.input(t));
    const graphs: Graph[] = [];
    let device: DeviceType = tensors[0]?.device ?? 'cpu';
    const flush = (output: Value, last: boolean) => {
      const g = st.graph(output);
      graphs.push(g);
      if (st.inputs[0]) device = st.inputs[0].device;
      const env = execute(artifactFor(g, device, last), st.inputs);
      // Intermediates a fused kernel never materialised stay fake (nothing after the function can see them).
      for (const [t, ref] of st.refOf) {
        const real = t.device === 'meta' ? resolve(ref, env) : null;
        if (real instanceof Tensor) rebind(t, real);
      }
      return env;
    };
    st.onBreak = (reason) => {
      count('graphBreaks');
      void reason;
      flush({ kind: 'const', value: null }, false);
      st.reset();
    };
    const out = withTrace(st, () => fn(...(rebuild(args, fakes) as A)));
    flush(st.valueOf(out), true);
    return { out, graphs, breaks: [...st.breaks], st };
  };

  const run = (e: Entry, args: readonly unknown[], tensors: readonly Tensor[]): R => {
    if (e.artifact) {
      const env = execute(e.artifact, tensors);
      return resolve(e.artifact.graph.output, env) as R;
    }
    return traceRun(args, tensors, new Set()).out;
  };

  /** Re-traces with dynamic dims one larger: the graph must not change (no size baked in, no size read). */
  const dynamicHolds = (
    args: readonly unknown[],
    tensors: readonly Tensor[],
    dims: ReadonlySet<string>,
    g: Graph,
  ): string | null => {
    const st = new TraceState(backend !== 'eager');
    const fakes = tensors.map((t, i) => {
      const shape = t.shape.map((s, d) => (dims.has(`${i}.${d}`) ? s + 1 : s));
      const order = t.strides
        .map((s, d) => [s, d] as const)
        .sort((a, b) => b[0] - a[0] || a[1] - b[1])
        .map(([, d]) => d);
      const strides = new Array<number>(shape.length).fill(0);
      let acc = 1;
      for (const d of [...order].reverse()) {
        strides[d] = t.strides[d] === 0 && t.shape[d] !== 1 ? 0 : acc;
        if (strides[d] !== 0) acc *= shape[d];
      }
      return st.input(Tensor.empty(shape, t.dtype, 'meta', strides));
    });
    st.trackSizes = true;
    try {
      const out = withTrace(st, () => fn(...(rebuild(args, fakes) as A)));
      const g2 = st.graph(st.valueOf(out));
      if (st.sizesRead) return 'the function reads the sizes of a dynamic input';
      if (graphKey(g2, false) !== graphKey(g, false))
        return 'the graph depends on the size (a size is baked into an argument)';
      return null;
    } catch (e) {
      return `re-tracing at another size failed: ${(e as Error).message}`;
    }
  };

  const compiled = ((...args: A): R => {
    const { tensors, constants } = flatten(args);
    const gradMode = isGradEnabled();
    for (const e of entries) {
      if (
        e.guards.constants === constants &&
        e.guards.gradMode === gradMode &&
        e.guards.tensors.length === tensors.length &&
        e.guards.tensors.every((g, i) => checkTensor(g, tensors[i]) === null)
      ) {
        count('cacheHits');
        return run(e, args, tensors);
      }
    }
    if (entries.length >= limit) {
      if (!warned) {
        console.warn(
          `compile: cache size limit (${limit}) reached for ${fn.name || 'a function'}; running it eagerly from now on`,
        );
        warned = true;
      }
      count('eagerFallbacks');
      return fn(...args);
    }
    // Which dims are dynamic: all (dynamic: true), or those whose size differs from an entry that otherwise matches.
    const dynamic = new Set<string>();
    const probe: Guards = { tensors: tensors.map((t) => guardFor(t)), constants, gradMode };
    if (options.dynamic === true) {
      tensors.forEach((t, i) => {
        for (let d = 0; d < t.ndim; d++) dynamic.add(`${i}.${d}`);
      });
    } else if (options.dynamic !== false) {
      for (const e of entries) {
        const differ = sameExceptSizes(e.guards, probe);
        if (differ?.length) for (const [i, d] of differ) dynamic.add(`${i}.${d}`);
      }
    }
    if (entries.length) count('recompiles');
    const { out, graphs, breaks, st } = traceRun(args, tensors, dynamic);
    const notes: string[] = [];
    if (dynamic.size && (breaks.length || graphs.length !== 1)) {
      notes.push('dynamic dims specialised: the function has graph breaks');
      dynamic.clear();
    } else if (dynamic.size) {
      const why = st.sizesRead
        ? 'the function reads the sizes of a dynamic input'
        : dynamicHolds(args, tensors, dynamic, graphs[0]);
      if (why) {
        notes.push(`dynamic dims specialised: ${why}`);
        dynamic.clear();
      }
    }
    // Guards describe the inputs as they were passed (an in-place resize_ inside fn must not change them).
    const guards: Guards = {
      tensors: probe.tensors.map((g, i) => ({
        ...g,
        sizes: g.sizes.map((s, d) => (dynamic.has(`${i}.${d}`) && s !== null && s >= 2 ? null : s)),
      })),
      constants,
      gradMode,
    };
    const device = tensors[0]?.device ?? 'cpu';
    entries.push({
      guards,
      graphs,
      breaks,
      artifact: breaks.length === 0 && graphs.length === 1 ? artifactFor(graphs[0], device) : null,
      dynamic: [...dynamic].map((k) => `input ${k.split('.')[0]} dim ${k.split('.')[1]}`),
      notes,
    });
    return out as R;
  }) as CompiledFunction<A, R>;

  Object.defineProperty(compiled, 'stats', { value: stats });
  (compiled as { entries: () => EntryInfo[] }).entries = () =>
    entries.map((e) => ({
      guards: [
        ...e.guards.tensors.map((g: TensorGuard, i) => formatGuard(g, i)),
        `grad mode ${e.guards.gradMode ? 'on' : 'off'}`,
        `constants ${e.guards.constants}`,
      ],
      graphs: e.graphs.map(formatGraph),
      graphBreaks: e.breaks,
      dynamic: e.dynamic,
      notes: e.notes,
      sources: e.artifact?.sources ?? [],
    }));
  return compiled;
}
