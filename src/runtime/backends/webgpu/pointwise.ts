/**
 * Strided, broadcasting pointwise kernels generated from an op's WGSL expression. Every operand is read at its
 * own strides and storage offset inside the shader (no contiguous copies); broadcast dims have stride 0. A
 * 0-dim cpu operand (a wrapped Python number) travels as a parameter word.
 */
import { broadcastStridesFor, type Storage, type Tensor } from '../../core/index.ts';
import { gridFor, launch, linearIndex, Params, WORKGROUP } from './launch.ts';
import { blockOf, wgslStorage } from './memory.ts';
import { helpersFor, loadExpr, storeStmt, stridedOffsets, type WgslValue } from './wgsl.ts';

/** An operand: a webgpu tensor, or a value known on the host (a cpu 0-dim tensor's element). */
export type GpuOperand = Tensor | { readonly host: number };

export interface GpuPointwise {
  /** WGSL expression over the loaded operands `a`, `b`, `c` and the row's scalars `s0`, `s1`, ... */
  readonly expr: string;
  readonly exprType: WgslValue;
  /** Type each operand is loaded as (its compute type). */
  readonly loads: readonly WgslValue[];
  readonly scalars: readonly { readonly value: number; readonly type: WgslValue }[];
  /** Operand names when not a, b, c, d (a fused kernel has any number of operands). */
  readonly names?: readonly string[];
  /** WGSL functions the expression calls (a fused kernel's steps). */
  readonly functions?: string;
}

const NAMES = ['a', 'b', 'c', 'd'];

function pushValue(p: Params, v: number, t: WgslValue): void {
  if (t === 'f32') p.f32(v);
  else p.i32(t === 'bool' ? (v ? 1 : 0) : v);
}

function paramValue(i: number, t: WgslValue): string {
  if (t === 'f32') return `bitcast<f32>(P[${i}])`;
  if (t === 'bool') return `(P[${i}] != 0u)`;
  return `bitcast<i32>(P[${i}])`;
}

export function runPointwiseGPU(k: GpuPointwise, out: Tensor, operands: readonly GpuOperand[]): void {
  const numel = out.numel;
  if (numel === 0) return;
  const nd = out.ndim;
  const params = new Params().u32(numel);
  for (const s of out.shape) params.u32(s);
  // Bindings: one per distinct storage, the output's first (read_write); inputs aliasing it read through it.
  const storages: Storage[] = [out.storage];
  const bindingOf = (s: Storage) => {
    let i = storages.indexOf(s);
    if (i < 0) i = storages.push(s) - 1;
    return i;
  };
  const tensors: { t: Tensor; binding: number }[] = [{ t: out, binding: 0 }];
  const loads: string[] = [];
  const hostSlots: { slot: number; value: number; type: WgslValue }[] = [];
  operands.forEach((o, j) => {
    if ('host' in o) {
      hostSlots.push({ slot: j, value: o.host, type: k.loads[j] });
      return;
    }
    tensors.push({ t: o, binding: bindingOf(o.storage) });
  });
  const bases: number[] = [];
  tensors.forEach(({ t }, n) => {
    bases.push(params.length);
    params.u32(t.storageOffset);
    const st = n === 0 ? t.strides : broadcastStridesFor(t.shape, t.strides, out.shape);
    for (const s of st) params.u32(s);
  });
  const hostBase = params.length;
  for (const h of hostSlots) pushValue(params, h.value, h.type);
  const scalarBase = params.length;
  for (const s of k.scalars) pushValue(params, s.value, s.type);

  let t = 1;
  let h = 0;
  operands.forEach((o, j) => {
    const name = k.names?.[j] ?? NAMES[j];
    if ('host' in o) {
      loads.push(`  let ${name} = ${paramValue(hostBase + h++, k.loads[j])};`);
      return;
    }
    const { t: tensor, binding } = tensors[t];
    loads.push(`  let ${name} = ${loadExpr(`B${binding}`, `o${t}`, tensor.dtype, k.loads[j])};`);
    t++;
  });
  k.scalars.forEach((s, i) => {
    loads.push(`  let s${i} = ${paramValue(scalarBase + i, s.type)};`);
  });

  // An int64 -> int64 copy moves both words, so values outside the i32 range survive.
  const first = operands[0];
  const store =
    k.expr === 'a' && out.dtype === 'int64' && first && !('host' in first) && first.dtype === 'int64'
      ? `B0[2u * o0] = B${tensors[1].binding}[2u * o1]; B0[2u * o0 + 1u] = B${tensors[1].binding}[2u * o1 + 1u];`
      : storeStmt('B0', 'o0', out.dtype, `(${k.expr})`, k.exprType);
  const decls = storages.map(
    (s, i) =>
      `@group(0) @binding(${i + 1}) var<storage, ${i === 0 ? 'read_write' : 'read'}> B${i}: array<${wgslStorage(s.dtype)}>;`,
  );
  const body = `${loads.join('\n')}\n  ${store}`;
  const code = `${helpersFor(body, k.functions ?? '')}
${k.functions ?? ''}
@group(0) @binding(0) var<storage, read> P: array<u32>;
${decls.join('\n')}
@compute @workgroup_size(${WORKGROUP})
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let idx = ${linearIndex()};
  if (idx >= P[0]) { return; }
${stridedOffsets(nd, bases)}
${body}
}`;
  launch({
    code,
    buffers: storages.map((s) => blockOf(s).buffer),
    params: params.array(),
    grid: gridFor(numel),
  });
}

/**
 * dst[...] = src[...] with dst's dtype (broadcasting src): the strided copy every layout change uses. int64 to
 * int64 copies both words (exact); other casts go through the compute types.
 */
export function copyGPU(dst: Tensor, src: Tensor): void {
  const load: WgslValue =
    dst.dtype === 'bool' ? 'bool' : dst.dtype === 'float32' || src.dtype === 'float32' ? 'f32' : 'i32';
  runPointwiseGPU({ expr: 'a', exprType: load, loads: [load], scalars: [] }, dst, [src]);
}
