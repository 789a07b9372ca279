/**
 * Resampling (the upsample ops) on webgpu: one thread per output element, which sums its taps over
 * every spatial dim (the outer dim's loop around the inner one's, as the cpu kernel nests them), reading the input
 * at its own strides and storage offset. The per-dim tap tables (CSR starts, input offsets, f32 weights) travel in
 * the parameter words, their base words at fixed slots, so one shader serves every size of a rank.
 */
import type { Tensor } from '../../core/index.ts';
import { Bindings, kernelSource, onDevice, pushOperand } from './bind.ts';
import { gridFor, launch, Params } from './launch.ts';
import { loadExpr, storeStmt, stridedOffsets } from './wgsl.ts';

/** One spatial dim's taps: output o reads index[start[o] .. start[o + 1]) with the matching weights. */
export interface GpuTaps {
  readonly start: Int32Array;
  readonly index: Int32Array;
  readonly weight: Float64Array;
}

export function resampleGPU(x: Tensor, out: Tensor, taps: readonly GpuTaps[]): void {
  const numel = out.numel;
  if (numel === 0) return;
  x = onDevice(x);
  const nd = out.ndim;
  const k = taps.length;
  const p = new Params().u32(numel);
  for (const n of out.shape) p.u32(n);
  const bases = [
    pushOperand(p, out.storageOffset, out.strides),
    // The input's batch and channel strides only: the taps add the spatial offsets.
    pushOperand(
      p,
      x.storageOffset,
      x.strides.map((s, d) => (d < 2 ? s : 0)),
    ),
  ];
  // Slot 3d, 3d + 1, 3d + 2: where dim d's starts, input offsets and weights begin.
  const slots = p.length;
  const tables: number[] = [];
  let at = slots + 3 * k;
  taps.forEach((tp) => {
    tables.push(at, at + tp.start.length, at + tp.start.length + tp.index.length);
    at += tp.start.length + 2 * tp.index.length;
  });
  for (const w of tables) p.u32(w);
  taps.forEach((tp, d) => {
    const stride = x.strides[d + 2];
    for (const s of tp.start) p.u32(s);
    for (const i of tp.index) p.u32(i * stride);
    for (const w of tp.weight) p.f32(w);
  });
  const b = new Bindings(out.storage);
  const [O, X] = [b.of(out.storage), b.of(x.storage)];
  const coords = ['  var rr = idx;'];
  for (let d = nd - 1; d >= 2; d--) coords.push(`  let q${d - 2} = rr % P[${1 + d}]; rr = rr / P[${1 + d}];`);
  const loop = (d: number): string => {
    const [S, I, W] = [0, 1, 2].map((j) => `P[${slots + 3 * d + j}]`);
    const from = d === 0 ? 'o1' : `at${d - 1}`;
    const step =
      d + 1 === k
        ? `a${d} += bitcast<f32>(P[${W} + j${d}]) * ${loadExpr(X, `at${d}`, x.dtype, 'f32')};`
        : `${loop(d + 1)}\n    a${d} += bitcast<f32>(P[${W} + j${d}]) * a${d + 1};`;
    return `var a${d}: f32 = 0.0;
  for (var j${d} = P[${S} + q${d}]; j${d} < P[${S} + q${d} + 1u]; j${d}++) {
    let at${d} = ${from} + P[${I} + j${d}];
    ${step}
  }`;
  };
  const body = `${stridedOffsets(nd, bases)}
${coords.join('\n')}
  ${loop(0)}
  ${storeStmt(O, 'o0', out.dtype, 'a0', 'f32')}`;
  launch({ code: kernelSource(b, body), buffers: b.buffers(), params: p.array(), grid: gridFor(numel) });
}
