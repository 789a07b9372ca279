/**
 * The fusion pass: a chain of pointwise nodes whose intermediate results are used only by the next node of the
 * chain becomes one generated kernel — one JS row loop on cpu, one WGSL shader on webgpu — computing every output
 * element in one pass with no intermediate tensors (Inductor's pointwise fusion; reductions and matmul stay
 * library calls). Intermediates are rounded to their dtype exactly as the unfused ops store them.
 */
import { forEachRow } from '../backends/cpu/index.ts';
import { type GpuOperand, runPointwiseGPU } from '../backends/webgpu/index.ts';
import {
  broadcastAll,
  broadcastStridesFor,
  type DeviceType,
  type DType,
  pointwiseOutputStrides,
  type Scalar,
  Tensor,
} from '../core/index.ts';
import type { PointwiseRow } from '../ops/index.ts';
import { POINTWISE_OVERLOADS, type PointwiseInfo, wgslExpr } from '../ops/index.ts';
import { type Env, type Kernel, resolve } from './execute.ts';
import type { Graph, GraphNode, Value } from './graph.ts';

/**
 * Custom passes run on every fused group and on its generated cpu source before it is compiled (Inductor's
 * post-fusion custom pass hooks): for experiments and for testing that the compile oracle catches a wrong pass.
 */
export const fusionHooks: {
  groupPass: ((g: FusedGroup) => FusedGroup) | null;
  sourcePass: ((src: string) => string) | null;
} = { groupPass: null, sourcePass: null };

/** One operand of a fused node: an earlier node of the group, an external tensor, or a Python scalar. */
export type Operand =
  | { kind: 'inner'; node: number }
  | { kind: 'tensor'; index: number }
  | { kind: 'scalar'; value: number };

export interface Step {
  readonly node: GraphNode;
  readonly row: PointwiseRow;
  readonly operands: readonly Operand[];
  readonly scalars: readonly number[];
  readonly dtype: DType;
}

export interface FusedGroup {
  readonly from: number;
  readonly to: number;
  readonly steps: readonly Step[];
  /** External tensors, in operand order. */
  readonly inputs: readonly Value[];
  readonly dtype: DType;
}

const FLOATS: Record<'cpu' | 'webgpu', readonly DType[]> = {
  cpu: ['float32', 'float64'],
  webgpu: ['float32'],
};

function uses(g: Graph): Map<number, number> {
  const count = new Map<number, number>();
  const visit = (v: Value) => {
    if (v.kind === 'node') count.set(v.node, (count.get(v.node) ?? 0) + 1);
    else if (v.kind === 'list') v.items.forEach(visit);
  };
  for (const n of g.nodes) Object.values(n.args).forEach(visit);
  visit(g.output);
  return count;
}

function wrappedValue(v: Value): number | null {
  if (v.kind !== 'const' || !(v.value instanceof Tensor) || !v.value.isWrappedNumber) return null;
  const t = v.value;
  return Number(t.storage.data![t.storageOffset]);
}

/** The node as a fusible step, or null (not pointwise, other dtypes, non-scalar constants, in-place, ...). */
function asStep(
  n: GraphNode,
  info: PointwiseInfo | undefined,
  device: 'cpu' | 'webgpu',
  g: Graph,
  group: Map<number, true>,
  inputs: Value[],
): Step | null {
  if (!info || n.outputs.length !== 1 || !FLOATS[device].includes(n.outputs[0].dtype)) return null;
  const row0 = info.row;
  if (row0.promotion === 'alwaysBool' || row0.boolInputs) return null;
  const dtype = n.outputs[0].dtype;
  const operands: Operand[] = [];
  for (const name of info.tensorArgs) {
    const v = n.args[name];
    const w = wrappedValue(v);
    if (w !== null) {
      operands.push({ kind: 'scalar', value: w });
      continue;
    }
    if (v.kind === 'node' && group.has(v.node)) {
      operands.push({ kind: 'inner', node: v.node });
      continue;
    }
    const meta =
      v.kind === 'input' ? g.inputs[v.index] : v.kind === 'node' ? g.nodes[v.node].outputs[v.output] : null;
    if (!meta || !FLOATS[device].includes(meta.dtype)) return null;
    let index = inputs.findIndex((x) => JSON.stringify(x) === JSON.stringify(v));
    if (index < 0) index = inputs.push(v) - 1;
    operands.push({ kind: 'tensor', index });
  }
  const scalars: number[] = [];
  for (const name of info.scalarNames) {
    const v = n.args[name];
    if (v.kind !== 'const') return null;
    scalars.push((v.value as Scalar).toNumber());
  }
  // A row with a `select` (div's rounding mode, add's alpha check) is resolved once, from the recorded args.
  const metaArg = (v: Value): unknown => {
    if (v.kind === 'const') return v.value;
    const m =
      v.kind === 'input' ? g.inputs[v.index] : v.kind === 'node' ? g.nodes[v.node].outputs[v.output] : null;
    return m ? Tensor.empty(m.shape, m.dtype, 'meta', m.strides) : null;
  };
  const row =
    row0.select?.(Object.fromEntries(Object.entries(n.args).map(([k, v]) => [k, metaArg(v)]))) ?? row0;
  if (!row.num) return null;
  return { node: n, row, operands, scalars, dtype };
}

/** Maximal chains of fusible nodes, each feeding only the next; groups of one node stay library calls. */
export function planFusion(g: Graph, device: DeviceType): FusedGroup[] {
  if (device !== 'cpu' && device !== 'webgpu') return [];
  const count = uses(g);
  const groups: FusedGroup[] = [];
  let steps: Step[] = [];
  let inputs: Value[] = [];
  let members = new Map<number, true>();
  const close = () => {
    if (steps.length > 1)
      groups.push({
        from: steps[0].node.id,
        to: steps[steps.length - 1].node.id,
        steps,
        inputs,
        dtype: steps[steps.length - 1].dtype,
      });
    steps = [];
    inputs = [];
    members = new Map();
  };
  for (const n of g.nodes) {
    const info = POINTWISE_OVERLOADS.get(n.op);
    const prev = steps[steps.length - 1];
    // Joins the chain only if it consumes the previous step, which nothing else uses.
    const continues =
      prev !== undefined &&
      prev.node.id === n.id - 1 &&
      count.get(prev.node.id) === 1 &&
      Object.values(n.args).some((v) => v.kind === 'node' && v.node === prev.node.id);
    if (!continues) close();
    const trialInputs = [...inputs];
    const step = asStep(n, info, device, g, members, trialInputs);
    if (!step) {
      close();
      continue;
    }
    steps.push(step);
    inputs = trialInputs;
    members.set(n.id, true);
  }
  close();
  return groups;
}

/** Output shape, dtype and strides as the last unfused op would give them (broadcast of the inputs). */
function allocate(group: FusedGroup, ins: readonly Tensor[], device: DeviceType): Tensor {
  const shape = broadcastAll(
    ins.map((t) => t.shape),
    'compile',
  );
  return Tensor.empty(shape, group.dtype, device, pointwiseOutputStrides(shape, ins));
}

/** The JS source of the group's row loop (kept for `explain` and debugging). */
export function cpuSource(group: FusedGroup): string {
  const n = group.inputs.length;
  // Each step's function in its own const: monomorphic call sites V8 can inline.
  const lines = ['return function fused(len, A, offs, st, F, S) {', '  const O = A[0];'];
  group.steps.forEach((_, k) => {
    lines.push(`  const F${k} = F[${k}];`);
  });
  for (let j = 0; j < n; j++)
    lines.push(
      `  const I${j} = A[${j + 1}]; const s${j + 1} = st[${j + 1}]; let o${j + 1} = offs[${j + 1}];`,
    );
  lines.push('  const s0 = st[0]; let o0 = offs[0];', '  for (let i = 0; i < len; i++) {');
  let scalar = 0;
  group.steps.forEach((s, k) => {
    const args = s.operands.map((o) =>
      o.kind === 'inner'
        ? `v${o.node}`
        : o.kind === 'tensor'
          ? `I${o.index}[o${o.index + 1}]`
          : `S[${scalar++}]`,
    );
    for (let m = 0; m < s.scalars.length; m++) args.push(`S[${scalar++}]`);
    const round = s.dtype === 'float32' ? 'Math.fround' : '';
    lines.push(`    const v${s.node.id} = ${round}(F${k}(${args.join(', ')}));`);
  });
  lines.push(
    `    O[o0] = v${group.to};`,
    `    o0 += s0;${Array.from({ length: n }, (_, j) => ` o${j + 1} += s${j + 1};`).join('')}`,
    '  }',
    '};',
  );
  return lines.join('\n');
}

function scalarsOf(group: FusedGroup): number[] {
  const out: number[] = [];
  for (const s of group.steps) {
    for (const o of s.operands) if (o.kind === 'scalar') out.push(o.value);
    out.push(...s.scalars);
  }
  return out;
}

/** The WGSL of the group: one function per step, composed into one expression over the external inputs. */
export function wgslSource(group: FusedGroup): { functions: string; expr: string; names: string[] } {
  const names = group.inputs.map((_, j) => `x${j}`);
  const fns: string[] = [];
  const exprOf = new Map<number, string>();
  let scalar = 0;
  group.steps.forEach((s) => {
    const arity = s.operands.length;
    const params = ['a', 'b', 'c'].slice(0, arity).map((p) => `${p}: f32`);
    for (let m = 0; m < s.scalars.length; m++) params.push(`s${m}: f32`);
    const body = wgslExpr(s.row, 'float32', 'f32', s.node.op);
    fns.push(`fn n${s.node.id}(${params.join(', ')}) -> f32 { return ${body}; }`);
    const args = s.operands.map((o) =>
      o.kind === 'inner' ? exprOf.get(o.node)! : o.kind === 'tensor' ? names[o.index] : `s${scalar++}`,
    );
    for (let m = 0; m < s.scalars.length; m++) args.push(`s${scalar++}`);
    exprOf.set(s.node.id, `n${s.node.id}(${args.join(', ')})`);
  });
  return { functions: fns.join('\n'), expr: exprOf.get(group.to)!, names };
}

/** A runnable kernel for the group on `device`; `sources` collects the generated code when given. */
export function buildKernel(group0: FusedGroup, device: DeviceType, sources?: string[]): Kernel {
  const group = fusionHooks.groupPass ? fusionHooks.groupPass(group0) : group0;
  const fns = group.steps.map((s) => s.row.num!);
  const S = scalarsOf(group);
  if (device === 'webgpu') {
    const { functions, expr, names } = wgslSource(group);
    sources?.push(`${functions}\n// output = ${expr}`);
    return {
      from: group.from,
      to: group.to,
      run(env: Env): Tensor {
        const ins = group.inputs.map((v) => resolve(v, env) as Tensor);
        const out = allocate(group, ins, 'webgpu');
        runPointwiseGPU(
          {
            expr,
            exprType: 'f32',
            loads: ins.map(() => 'f32' as const),
            scalars: S.map((value) => ({ value, type: 'f32' as const })),
            names,
            functions,
          },
          out,
          ins as GpuOperand[],
        );
        return out;
      },
    };
  }
  const src = fusionHooks.sourcePass ? fusionHooks.sourcePass(cpuSource(group)) : cpuSource(group);
  sources?.push(src);
  const loop = new Function(src)() as (
    len: number,
    A: unknown[],
    offs: number[],
    st: number[],
    F: unknown[],
    S: number[],
  ) => void;
  return {
    from: group.from,
    to: group.to,
    run(env: Env): Tensor {
      const ins = group.inputs.map((v) => resolve(v, env) as Tensor);
      const out = allocate(group, ins, 'cpu');
      if (out.numel === 0) return out;
      const all = [out, ...ins];
      const strides = all.map((t, k) =>
        k === 0 ? t.strides : broadcastStridesFor(t.shape, t.strides, out.shape),
      );
      const arrays = all.map((t) => t.storage.data);
      forEachRow(
        out.shape,
        strides,
        all.map((t) => t.storageOffset),
        (len, offs, st) => loop(len, arrays, offs as number[], st as number[], fns, S),
      );
      return out;
    },
  };
}
