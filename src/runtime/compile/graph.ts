/**
 * The graph IR (like torch.fx): placeholders for the tensor inputs, one node per op call (qualified overload name
 * plus its bound arguments, where tensors are references to inputs or earlier node outputs), and an output tree.
 */
import type { DType, Tensor } from '../core/index.ts';

export type Value =
  | { readonly kind: 'input'; readonly index: number }
  | { readonly kind: 'node'; readonly node: number; readonly output: number }
  | { readonly kind: 'const'; readonly value: unknown }
  | { readonly kind: 'list'; readonly items: readonly Value[] };

export interface TensorMeta {
  readonly shape: readonly number[];
  readonly strides: readonly number[];
  readonly offset: number;
  readonly dtype: DType;
}

export interface GraphNode {
  readonly id: number;
  /** Qualified overload name, e.g. 'add.Tensor'. */
  readonly op: string;
  readonly args: Readonly<Record<string, Value>>;
  readonly outputs: readonly TensorMeta[];
}

export interface Graph {
  readonly inputs: readonly TensorMeta[];
  readonly nodes: readonly GraphNode[];
  readonly output: Value;
}

export function metaOf(t: Tensor): TensorMeta {
  return { shape: [...t.shape], strides: [...t.strides], offset: t.storageOffset, dtype: t.dtype };
}

function showConst(v: unknown): string {
  if (v && typeof v === 'object' && 'isWrappedNumber' in v) {
    const t = v as Tensor;
    return `${t.dtype}(${String(t.storage.data?.[t.storageOffset])})`;
  }
  if (typeof v === 'bigint') return `${v}n`;
  if (v && typeof v === 'object' && 'kind' in v && 'toNumber' in v) return String(v);
  return JSON.stringify(v) ?? String(v);
}

export function showValue(v: Value): string {
  switch (v.kind) {
    case 'input':
      return `%in${v.index}`;
    case 'node':
      return `%${v.node}${v.output ? `.${v.output}` : ''}`;
    case 'list':
      return `[${v.items.map(showValue).join(', ')}]`;
    default:
      return showConst(v.value);
  }
}

/** FX-style text: one line per node. */
export function formatGraph(g: Graph): string {
  const lines = g.inputs.map((m, i) => `%in${i} : ${m.dtype}[${m.shape.join(', ')}]`);
  for (const n of g.nodes) {
    const args = Object.entries(n.args)
      .map(([k, v]) => `${k}=${showValue(v)}`)
      .join(', ');
    const outs = n.outputs.map((m) => `${m.dtype}[${m.shape.join(', ')}]`).join(', ');
    lines.push(`%${n.id} = ${n.op}(${args}) : ${outs}`);
  }
  lines.push(`return ${showValue(g.output)}`);
  return lines.join('\n');
}

/** A structural key: ops, argument structure and constants (not tensor sizes unless `withShapes`). */
export function graphKey(g: Graph, withShapes: boolean): string {
  const meta = (m: TensorMeta) => (withShapes ? `${m.dtype}[${m.shape}]{${m.strides}}+${m.offset}` : m.dtype);
  return `${g.inputs.map(meta).join(';')}|${g.nodes
    .map(
      (n) =>
        `${n.op}(${Object.entries(n.args)
          .map(([k, v]) => `${k}=${showValue(v)}`)
          .join(',')})`,
    )
    .join(';')}|${showValue(g.output)}`;
}
