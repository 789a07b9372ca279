/**
 * Reduction kernels: one workgroup per output element. Each invocation folds a strided share of the element's
 * inputs (read at the input's own strides and offset), then the workgroup folds the partial values in shared
 * memory as a tree and invocation 0 stores the result at the output's strides and offset.
 *
 * Accumulators: f32, i32 (wraps like the integer dtypes), or i64 = exact 64-bit two's complement held as
 * vec2<u32> (low, high) words, so integer sums and products into int64 match the cpu bit for bit.
 */
import type { DType, Tensor } from '../../core/index.ts';
import { alignedStrides, type FoldLayout, foldParams } from './fold_layout.ts';
import { gridFor, launch, Params } from './launch.ts';
import {
  ACC_TYPE,
  bindings,
  type GpuAcc,
  type GpuLoad,
  kernelHelpers,
  loadAs,
  REDUCE_MAIN,
  REDUCE_WORKGROUP,
  scalarDecls,
  storeAs,
  strideLoop,
  treeFold,
} from './reduce_wgsl.ts';
import type { WgslValue } from './wgsl.ts';

export type GpuFold = 'sum' | 'prod' | 'max' | 'min' | 'and' | 'or';

export interface GpuReduce {
  readonly load: GpuLoad;
  /** WGSL over the loaded element `x` (and `m`, the aux value; scalars `s0`, ...) giving the folded value. */
  readonly map?: string;
  readonly acc: GpuAcc;
  readonly fold: GpuFold;
  /** WGSL over the folded `acc` (and `m`, `s0`, ...) giving the stored value; absent: `acc` itself. */
  readonly finish?: { readonly expr: string; readonly type: WgslValue };
  /** f32 scalars `s0`, `s1`, ... */
  readonly scalars?: readonly number[];
}

const IDENTITY: Record<GpuAcc, Partial<Record<GpuFold, string>>> = {
  f32: { sum: '0.0', prod: '1.0', max: '-f_inf()', min: 'f_inf()' },
  i32: { sum: '0', prod: '1', max: 'bitcast<i32>(0x80000000u)', min: '2147483647', and: '1', or: '0' },
  i64: { sum: 'vec2<u32>(0u, 0u)', prod: 'vec2<u32>(1u, 0u)' },
};

const COMBINE: Record<GpuAcc, Partial<Record<GpuFold, string>>> = {
  f32: { sum: 'a + b', prod: 'a * b', max: 'nan_max(a, b)', min: 'nan_min(a, b)' },
  i32: { sum: 'a + b', prod: 'a * b', max: 'max(a, b)', min: 'min(a, b)', and: 'min(a, b)', or: 'max(a, b)' },
  i64: { sum: 'add64(a, b)', prod: 'mul64(a, b)' },
};

/**
 * out[...] = finish(fold over the `reduced` dims of map(input)), written at out's strides (out has the
 * reduced dims either removed or kept as size 1). `aux`, when given, is a contiguous float32 tensor with one
 * value `m` per output element (in row-major order of the kept dims), e.g. a mean computed by a first pass.
 */
export function runReduceGPU(
  k: GpuReduce,
  input: Tensor,
  reduced: readonly boolean[],
  out: Tensor,
  aux?: Tensor,
): void {
  if (out.numel === 0) return;
  const p = new Params();
  const layout = foldParams(p, input.shape, reduced, [
    { offset: input.storageOffset, strides: input.strides },
    { offset: out.storageOffset, strides: alignedStrides(out, reduced) },
  ]);
  const scalarBase = p.length;
  for (const s of k.scalars ?? []) p.f32(s);
  const { decls, buffers } = bindings([out], aux ? [input, aux] : [input]);
  launch({
    code: reduceCode(k, layout, input.dtype, out.dtype, decls, scalarBase, aux !== undefined),
    buffers,
    params: p.array(),
    grid: gridFor(layout.outer, 1),
  });
}

function reduceCode(
  k: GpuReduce,
  layout: FoldLayout,
  inDType: DType,
  outDType: DType,
  decls: string,
  scalarBase: number,
  hasAux: boolean,
): string {
  const T = ACC_TYPE[k.acc];
  const combine = COMBINE[k.acc][k.fold];
  const identity = IDENTITY[k.acc][k.fold];
  if (!combine || !identity) throw new Error(`webgpu reduce: no ${k.fold} over ${k.acc}`);
  const m = hasAux ? '    let m = B3[g];' : '';
  const finish = k.finish ?? { expr: 'acc', type: k.acc };
  const element = `${layout.innerOffsets('j', [0], ['xo'], ['o'])}
        let x = ${loadAs('B2', 'o', inDType, k.load)};
        acc = fold(acc, ${k.map ?? 'x'});`;
  const body = `
  let g = wid.x + wid.y * nwg.x;
  let live = g < P[${layout.outerWord}];
${layout.outerOffsets('g', ['xo', 'yo'])}
${scalarDecls(scalarBase, k.scalars?.length ?? 0)}
  var acc: ${T} = ${identity};
  if (live) {
${m}
${strideLoop(`P[${layout.innerWord}]`, element)}
  }
  sv[lid] = acc;
${treeFold('sv[lid] = fold(sv[lid], sv[lid + s]);')}
  if (live && lid == 0u) {
${m}
    let acc = sv[0];
    ${storeAs('B1', 'yo', outDType, `(${finish.expr})`, finish.type)}
  }`;
  const fold = `fn fold(a: ${T}, b: ${T}) -> ${T} { return ${combine}; }`;
  return `${kernelHelpers(body + fold)}
${fold}
@group(0) @binding(0) var<storage, read> P: array<u32>;
${decls}
var<workgroup> sv: array<${T}, ${REDUCE_WORKGROUP}>;
${REDUCE_MAIN} {${body}
}`;
}
