/**
 * argmax/argmin and max/min along a dim with indices: one workgroup per output element, (value, index) pairs
 * folded in shared memory. Like PyTorch's CPU: NaN beats every number, the first NaN and the first of equal
 * extremes win (lowest index). The index counts the folded elements in row-major order, so folding every dim
 * gives the flat index. Indices are int64 results (two words).
 */
import { Tensor } from '../../core/index.ts';
import { alignedStrides, foldParams } from './fold_layout.ts';
import { gridFor, launch, Params } from './launch.ts';
import { copyGPU } from './pointwise.ts';
import {
  bindings,
  kernelHelpers,
  REDUCE_MAIN,
  REDUCE_WORKGROUP,
  sharesStorage,
  strideLoop,
  treeFold,
} from './reduce_wgsl.ts';
import { computeValue, loadExpr, storeStmt } from './wgsl.ts';

export type Extreme = 'max' | 'min';

/** Whether (xv, xi) should replace (bv, bi); index 0xffffffff marks an invocation that saw no element. */
function betterFn(type: 'f32' | 'i32', which: Extreme): string {
  const cmp = which === 'max' ? '>' : '<';
  const nan =
    type === 'f32'
      ? `let xn = is_nan(xv); let bn = is_nan(bv); if (bn) { return xn && xi < bi; } if (xn) { return true; }`
      : '';
  return `fn better(xv: ${type}, xi: u32, bv: ${type}, bi: u32) -> bool {
  if (xi == 0xffffffffu) { return false; }
  if (bi == 0xffffffffu) { return true; }
  ${nan}
  if (xv ${cmp} bv) { return true; }
  return xv == bv && xi < bi;
}`;
}

/** Writes the extreme's index into `indices` (int64) and, when given, its value into `values`. */
export function runArgReduceGPU(
  which: Extreme,
  input: Tensor,
  reduced: readonly boolean[],
  values: Tensor | null,
  indices: Tensor,
  op: string,
): void {
  const type = computeValue(input.dtype, op) === 'f32' ? 'f32' : 'i32';
  if (indices.numel === 0) return;
  const written = values ? [values, indices] : [indices];
  if (sharesStorage(written, [input]) || (values && values.storage === indices.storage)) {
    const tv = values && Tensor.empty(values.shape, values.dtype, 'webgpu');
    const ti = Tensor.empty(indices.shape, indices.dtype, 'webgpu');
    runArgReduceGPU(which, input, reduced, tv, ti, op);
    if (values && tv) copyGPU(values, tv);
    copyGPU(indices, ti);
    return;
  }
  const p = new Params();
  const outs = written.map((t) => ({ offset: t.storageOffset, strides: alignedStrides(t, reduced) }));
  const layout = foldParams(p, input.shape, reduced, [
    { offset: input.storageOffset, strides: input.strides },
    ...outs,
  ]);
  const { decls, buffers } = bindings(written, [input]);
  const X = `B${written.length + 1}`;
  const names = values ? ['xo', 'vo', 'io'] : ['xo', 'io'];
  const iB = values ? 'B2' : 'B1';
  const storeValue = values ? storeStmt('B1', 'vo', values.dtype, 'sv[0]', type) : '';
  const element = `${layout.innerOffsets('j', [0], ['xo'], ['o'])}
        let x = ${loadExpr(X, 'o', input.dtype, type)};
        if (better(x, j, bv, bi)) { bv = x; bi = j; }`;
  const body = `
  let g = wid.x + wid.y * nwg.x;
  let live = g < P[${layout.outerWord}];
${layout.outerOffsets('g', names)}
  var bv: ${type} = ${type === 'f32' ? '0.0' : '0'};
  var bi = 0xffffffffu;
  if (live) {
${strideLoop(`P[${layout.innerWord}]`, element)}
  }
  sv[lid] = bv;
  si[lid] = bi;
${treeFold('if (better(sv[lid + s], si[lid + s], sv[lid], si[lid])) { sv[lid] = sv[lid + s]; si[lid] = si[lid + s]; }')}
  if (live && lid == 0u) {
    ${storeValue}
    ${storeStmt(iB, 'io', 'int64', 'i32(si[0])', 'i32')}
  }`;
  const better = betterFn(type, which);
  const code = `${kernelHelpers(body + better)}
${better}
@group(0) @binding(0) var<storage, read> P: array<u32>;
${decls}
var<workgroup> sv: array<${type}, ${REDUCE_WORKGROUP}>;
var<workgroup> si: array<u32, ${REDUCE_WORKGROUP}>;
${REDUCE_MAIN} {${body}
}`;
  launch({ code, buffers, params: p.array(), grid: gridFor(layout.outer, 1) });
}
