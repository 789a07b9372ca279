/**
 * cumsum / cumprod along one dim, reading the input and writing the output at their own strides.
 * Accumulators as in reduce.ts (i64 = exact int64 words). Short lines: one invocation scans a whole line.
 * Long lines: one workgroup per line, each invocation owning a contiguous chunk: chunk totals, a scan of the
 * totals in shared memory, then each chunk rescanned from its prefix (llvmpipe's loop budget, see
 * reduce_wgsl.ts, caps one invocation's line at 65535 elements, and long lines deserve the parallelism).
 */
import type { Tensor } from '../../core/index.ts';
import { type FoldLayout, foldParams } from './fold_layout.ts';
import { gridFor, launch, linearIndex, Params, WORKGROUP } from './launch.ts';
import {
  ACC_TYPE,
  bindings,
  type GpuAcc,
  type GpuLoad,
  kernelHelpers,
  loadAs,
  REDUCE_MAIN,
  REDUCE_WORKGROUP,
  storeAs,
} from './reduce_wgsl.ts';

export interface GpuScan {
  readonly load: GpuLoad;
  readonly acc: GpuAcc;
  readonly fold: 'sum' | 'prod';
}

/** Lines up to this length are scanned by one invocation each. */
const SEQUENTIAL_MAX = 1024;

const START: Record<GpuAcc, Record<GpuScan['fold'], string>> = {
  f32: { sum: '0.0', prod: '1.0' },
  i32: { sum: '0', prod: '1' },
  i64: { sum: 'vec2<u32>(0u, 0u)', prod: 'vec2<u32>(1u, 0u)' },
};

function combine(acc: GpuAcc, fold: GpuScan['fold'], a: string, b: string): string {
  if (acc === 'i64') return fold === 'sum' ? `add64(${a}, ${b})` : `mul64(${a}, ${b})`;
  return fold === 'sum' ? `${a} + ${b}` : `${a} * ${b}`;
}

/** out = running fold of `input` along `dim` (out has input's shape, any strides). */
export function runScanGPU(k: GpuScan, input: Tensor, dim: number, out: Tensor): void {
  if (out.numel === 0) return;
  const p = new Params();
  const folded = input.shape.map((_, d) => d === dim);
  const layout = foldParams(p, input.shape, folded, [
    { offset: input.storageOffset, strides: input.strides },
    { offset: out.storageOffset, strides: out.strides },
  ]);
  const { decls, buffers } = bindings([out], [input]);
  const sequential = layout.inner <= SEQUENTIAL_MAX;
  const body = sequential ? sequentialBody(k, layout, input, out) : blockedBody(k, layout, input, out);
  const head = `${kernelHelpers(body)}
@group(0) @binding(0) var<storage, read> P: array<u32>;
${decls}`;
  const code = sequential
    ? `${head}
@compute @workgroup_size(${WORKGROUP})
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {${body}
}`
    : `${head}
var<workgroup> sv: array<${ACC_TYPE[k.acc]}, ${REDUCE_WORKGROUP}>;
${REDUCE_MAIN} {${body}
}`;
  launch({
    code,
    buffers,
    params: p.array(),
    grid: sequential ? gridFor(layout.outer) : gridFor(layout.outer, 1),
  });
}

/** Scans elements [b, e) of the line from `a`, storing each running value when `store`. */
function chunk(k: GpuScan, layout: FoldLayout, input: Tensor, out: Tensor, store: boolean): string {
  return `    for (var j = b; j < e; j = j + 1u) {
${layout.innerOffsets('j', [0, 1], ['xo', 'yo'], ['o', 'q'])}
      let x = ${loadAs('B2', 'o', input.dtype, k.load)};
      a = ${combine(k.acc, k.fold, 'a', 'x')};
      ${store ? storeAs('B1', 'q', out.dtype, 'a', k.acc) : ''}
    }`;
}

function sequentialBody(k: GpuScan, layout: FoldLayout, input: Tensor, out: Tensor): string {
  return `
  let g = ${linearIndex()};
  if (g >= P[${layout.outerWord}]) { return; }
${layout.outerOffsets('g', ['xo', 'yo'])}
  let b = 0u;
  let e = P[${layout.innerWord}];
  var a = ${START[k.acc][k.fold]};
${chunk(k, layout, input, out, true)}`;
}

function blockedBody(k: GpuScan, layout: FoldLayout, input: Tensor, out: Tensor): string {
  const start = START[k.acc][k.fold];
  // Inclusive Hillis-Steele scan of the chunk totals, unrolled (read, barrier, write, barrier per step).
  const steps: string[] = [];
  for (let d = 1; d < REDUCE_WORKGROUP; d *= 2) {
    steps.push(
      `  { var v = sv[lid]; if (lid >= ${d}u) { v = ${combine(k.acc, k.fold, `sv[lid - ${d}u]`, 'v')}; } workgroupBarrier(); sv[lid] = v; workgroupBarrier(); }`,
    );
  }
  return `
  let g = wid.x + wid.y * nwg.x;
  let live = g < P[${layout.outerWord}];
${layout.outerOffsets('g', ['xo', 'yo'])}
  let n = P[${layout.innerWord}];
  let len = (n + ${REDUCE_WORKGROUP - 1}u) / ${REDUCE_WORKGROUP}u;
  let b = min(n, lid * len);
  let e = min(n, b + len);
  var a = ${start};
  if (live) {
${chunk(k, layout, input, out, false)}
  }
  sv[lid] = a;
  workgroupBarrier();
${steps.join('\n')}
  a = ${start};
  if (lid > 0u) { a = sv[lid - 1u]; }
  if (live) {
${chunk(k, layout, input, out, true)}
  }`;
}
