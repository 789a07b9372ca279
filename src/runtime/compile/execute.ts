/**
 * Running a graph on real tensors: nodes replay through the dispatcher (so autograd records them); fused groups
 * run their generated kernel instead of their nodes. Returns the environment of node outputs.
 */
import { Tensor } from '../core/index.ts';
import { callEntry, operatorTable } from '../dispatch/index.ts';
import type { Graph, Value } from './graph.ts';

export interface Env {
  readonly inputs: readonly Tensor[];
  readonly nodes: (readonly unknown[])[];
}

export function resolve(v: Value, env: Env): unknown {
  switch (v.kind) {
    case 'input':
      return env.inputs[v.index];
    case 'node':
      return env.nodes[v.node][v.output];
    case 'list':
      return v.items.map((x) => resolve(x, env));
    default:
      return v.value;
  }
}

/** A compiled group replacing nodes `from..to` (inclusive): computes node `to`'s output from the env. */
export interface Kernel {
  readonly from: number;
  readonly to: number;
  run(env: Env): Tensor;
}

export function runGraph(g: Graph, inputs: readonly Tensor[], kernels: readonly Kernel[] = []): Env {
  const env: Env = { inputs, nodes: [] };
  const byEnd = new Map(kernels.map((k) => [k.to, k]));
  const skipped = new Set<number>();
  for (const k of kernels) for (let i = k.from; i < k.to; i++) skipped.add(i);
  for (const n of g.nodes) {
    if (skipped.has(n.id)) {
      env.nodes[n.id] = [];
      continue;
    }
    const k = byEnd.get(n.id);
    if (k) {
      env.nodes[n.id] = [k.run(env)];
      continue;
    }
    const args: Record<string, unknown> = {};
    for (const [name, v] of Object.entries(n.args)) args[name] = resolve(v, env);
    const r = callEntry(operatorTable.get(n.op), args);
    env.nodes[n.id] = (Array.isArray(r) ? r : [r]).filter((t) => t instanceof Tensor);
  }
  return env;
}
