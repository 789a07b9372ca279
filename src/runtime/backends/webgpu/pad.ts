/**
 * Reflection, replication and circular padding on webgpu: one thread per output element, which reads the input
 * element its coordinates map to (per dim: `a` the shift, `n` the input size, `c0` and `m` the window a circular
 * pad wraps in). Both operands are read at their own strides and storage offsets. Unpadded dims map i to i.
 */
import type { Tensor } from '../../core/index.ts';
import { Bindings, kernelSource, onDevice, pushOperand, rawCopy } from './bind.ts';
import { gridFor, launch, Params } from './launch.ts';

export type PadMode = 'reflect' | 'replicate' | 'circular';

/** Per dim of the output: the input index of output index `i` is `c0 + map(i - a)` (see `padSource`). */
export interface PadDim {
  readonly a: number;
  readonly n: number;
  readonly c0: number;
  readonly m: number;
}

/** WGSL for the source index `j` (i32) of coordinate `c` along a dim whose words start at P[w]. */
function sourceIndex(mode: PadMode, w: number): string {
  const [a, n, c0, m] = [0, 1, 2, 3].map((k) => `bitcast<i32>(P[${w + k}])`);
  if (mode === 'reflect') return `var j = abs(i32(c) - ${a}); j = (${n} - 1) - abs((${n} - 1) - j);`;
  if (mode === 'replicate') return `let j = clamp(i32(c) - ${a}, 0, ${n} - 1);`;
  return `let j = ${c0} + imod_py(i32(c) - ${a}, ${m});`;
}

export function padGPU(out: Tensor, self: Tensor, mode: PadMode, dims: readonly PadDim[]): void {
  const numel = out.numel;
  if (numel === 0) return;
  self = onDevice(self);
  const nd = out.ndim;
  const p = new Params().u32(numel);
  for (const n of out.shape) p.u32(n);
  const ob = pushOperand(p, out.storageOffset, out.strides);
  const sb = pushOperand(p, self.storageOffset, self.strides);
  const words = p.length;
  for (const d of dims) p.i32(d.a).i32(d.n).i32(d.c0).i32(d.m);
  const b = new Bindings(out.storage);
  const [O, S] = [b.of(out.storage), b.of(self.storage)];
  const lines = [`  var o0 = P[${ob}]; var s = P[${sb}]; var r = idx;`];
  for (let d = nd - 1; d >= 0; d--)
    lines.push(
      `  { let c = r % P[${1 + d}]; r = r / P[${1 + d}]; o0 += c * P[${ob + 1 + d}]; ${sourceIndex(mode, words + 4 * d)} s += u32(j) * P[${sb + 1 + d}]; }`,
    );
  lines.push(`  ${rawCopy(O, 'o0', S, 's', self.dtype)}`);
  launch({
    code: kernelSource(b, lines.join('\n')),
    buffers: b.buffers(),
    params: p.array(),
    grid: gridFor(numel),
  });
}
