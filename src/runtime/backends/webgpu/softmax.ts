/**
 * softmax / log_softmax along one dim: one workgroup per row. The row's max and sum of exp(x - max) are
 * folded in shared memory, then every invocation writes its share of the row at the output's strides. Like
 * PyTorch the max is not masked: a NaN, a +inf or an all -inf row gives NaN for softmax.
 */
import type { Tensor } from '../../core/index.ts';
import { foldParams } from './fold_layout.ts';
import { gridFor, launch, Params } from './launch.ts';
import {
  bindings,
  kernelHelpers,
  REDUCE_MAIN,
  REDUCE_WORKGROUP,
  strideLoop,
  treeFold,
} from './reduce_wgsl.ts';
import { loadExpr, storeStmt } from './wgsl.ts';

export type SoftmaxKind = 'softmax' | 'log_softmax';

/** out = softmax(input) along `dim` (input loaded as f32; out has input's shape, any strides and dtype). */
export function runSoftmaxGPU(kind: SoftmaxKind, input: Tensor, dim: number, out: Tensor): void {
  if (out.numel === 0) return;
  const p = new Params();
  const folded = input.shape.map((_, d) => d === dim);
  const layout = foldParams(p, input.shape, folded, [
    { offset: input.storageOffset, strides: input.strides },
    { offset: out.storageOffset, strides: out.strides },
  ]);
  const { decls, buffers } = bindings([out], [input]);
  const loop = (inner: string, names: string[]) => {
    const offsets = layout.innerOffsets(
      'j',
      names.map((_, i) => i),
      ['xo', 'yo'],
      names,
    );
    const element = `${offsets}\n        let x = ${loadExpr('B2', 'o', input.dtype, 'f32')};\n        ${inner}`;
    return `\n  if (live) {\n${strideLoop('n', element)}\n  }`;
  };
  const value = kind === 'softmax' ? 'exp(x - mx) / total' : 'x - mx - log(total)';
  const body = `
  let g = wid.x + wid.y * nwg.x;
  let live = g < P[${layout.outerWord}];
  let n = P[${layout.innerWord}];
${layout.outerOffsets('g', ['xo', 'yo'])}
  var m = -f_inf();${loop('m = nan_max(m, x);', ['o'])}
  sv[lid] = m;
${treeFold('sv[lid] = nan_max(sv[lid], sv[lid + s]);')}
  let mx = sv[0];
  workgroupBarrier();
  var sum = 0.0;${loop('sum = sum + exp(x - mx);', ['o'])}
  sv[lid] = sum;
${treeFold('sv[lid] = sv[lid] + sv[lid + s];')}
  let total = sv[0];${loop(storeStmt('B1', 'q', out.dtype, `(${value})`, 'f32'), ['o', 'q'])}`;
  const code = `${kernelHelpers(body)}
@group(0) @binding(0) var<storage, read> P: array<u32>;
${decls}
var<workgroup> sv: array<f32, ${REDUCE_WORKGROUP}>;
${REDUCE_MAIN} {${body}
}`;
  launch({ code, buffers, params: p.array(), grid: gridFor(layout.outer, 1) });
}
