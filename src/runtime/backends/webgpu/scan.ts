/**
 * cumsum / cumprod along one dim: one invocation per line scans it sequentially, reading the input and
 * writing the output at their own strides. Accumulators as in reduce.ts (i64 = exact int64 words).
 */
import { Tensor } from '../../core/index.ts';
import { foldParams } from './fold_layout.ts';
import { gridFor, launch, linearIndex, Params, WORKGROUP } from './launch.ts';
import { copyGPU } from './pointwise.ts';
import { bindings, type GpuAcc, type GpuLoad, kernelHelpers, loadAs, storeAs } from './reduce.ts';

export interface GpuScan {
  readonly load: GpuLoad;
  readonly acc: GpuAcc;
  readonly fold: 'sum' | 'prod';
}

const START: Record<GpuAcc, Record<GpuScan['fold'], string>> = {
  f32: { sum: '0.0', prod: '1.0' },
  i32: { sum: '0', prod: '1' },
  i64: { sum: 'vec2<u32>(0u, 0u)', prod: 'vec2<u32>(1u, 0u)' },
};

function step(acc: GpuAcc, fold: GpuScan['fold']): string {
  if (acc === 'i64') return fold === 'sum' ? 'add64(a, x)' : 'mul64(a, x)';
  return fold === 'sum' ? 'a + x' : 'a * x';
}

/** out = running fold of `input` along `dim` (out has input's shape, any strides). */
export function runScanGPU(k: GpuScan, input: Tensor, dim: number, out: Tensor): void {
  if (out.numel === 0) return;
  if (out.storage === input.storage) {
    const tmp = Tensor.empty(out.shape, out.dtype, 'webgpu');
    runScanGPU(k, input, dim, tmp);
    copyGPU(out, tmp);
    return;
  }
  const p = new Params();
  const folded = input.shape.map((_, d) => d === dim);
  const layout = foldParams(p, input.shape, folded, [
    { offset: input.storageOffset, strides: input.strides },
    { offset: out.storageOffset, strides: out.strides },
  ]);
  const { decls, buffers } = bindings([out], [input]);
  const body = `
  let g = ${linearIndex()};
  if (g >= P[${layout.outerWord}]) { return; }
${layout.outerOffsets('g', ['xo', 'yo'])}
  var a = ${START[k.acc][k.fold]};
  for (var j = 0u; j < P[${layout.innerWord}]; j = j + 1u) {
${layout.innerOffsets('j', [0, 1], ['xo', 'yo'], ['o', 'q'])}
    let x = ${loadAs('B2', 'o', input.dtype, k.load)};
    a = ${step(k.acc, k.fold)};
    ${storeAs('B1', 'q', out.dtype, 'a', k.acc)}
  }`;
  const code = `${kernelHelpers(body)}
@group(0) @binding(0) var<storage, read> P: array<u32>;
${decls}
@compute @workgroup_size(${WORKGROUP})
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {${body}
}`;
  launch({ code, buffers, params: p.array(), grid: gridFor(layout.outer) });
}
