/**
 * scatter on webgpu, deterministic without atomics: one thread per 1-D line of the index along `dim`. A line
 * only reads its own src line and only writes its own output line (the coordinates off `dim` are shared), so
 * lines are independent, and within a line the index elements are applied in order, exactly like the cpu
 * loop: with duplicate indices the last write wins, and reduce='add' / 'multiply' accumulate in index order.
 * An index outside [0, size) is skipped (CUDA: a device assert; the cpu raises E_INDEX_OUT_OF_RANGE).
 */
import type { DType, Tensor } from '../../core/index.ts';
import { Bindings, dims, indexLoad, kernelSource, onDevice, pushOperand, rawCopy } from './bind.ts';
import { gridFor, launch, Params } from './launch.ts';
import { copyGPU } from './pointwise.ts';
import { computeValue, stridedOffsets } from './wgsl.ts';

export type ScatterReduce = 'none' | 'add' | 'multiply';

/** out[t] = out[t] (op) src[s] in out's dtype, wrapping like the cpu's typed-array stores. */
function combine(O: string, t: string, S: string, s: string, dtype: DType, reduce: ScatterReduce): string {
  if (reduce === 'none') return rawCopy(O, t, S, s, dtype);
  const e = `${O}[${t}] ${reduce === 'add' ? '+' : '*'} ${S}[${s}]`;
  const v = dtype === 'uint8' ? `(${e}) & 255u` : dtype === 'bool' ? `select(0u, 1u, (${e}) != 0u)` : e;
  return `${O}[${t}] = ${v};`;
}

/**
 * Scatters `src` (a tensor of out's dtype, read at its strides over the index's shape; a scalar value is a
 * 0-dim tensor with all-zero strides) into `out` along `dim`, after copying self into out (unless in place).
 */
export function scatterGPU(
  out: Tensor,
  self: Tensor,
  index: Tensor,
  src: Tensor,
  srcStrides: readonly number[],
  dim: number,
  reduce: ScatterReduce,
): void {
  if (reduce !== 'none') computeValue(out.dtype, 'scatter');
  if (out !== self) copyGPU(out, onDevice(self));
  if (index.numel === 0 || out.numel === 0) return;
  index = onDevice(index);
  src = onDevice(src);
  const ix = dims(index);
  const o = dims(out);
  const k = ix.shape[dim];
  const lines = index.numel / k;
  const lineShape = ix.shape.map((n, d) => (d === dim ? 1 : n));
  const p = new Params().u32(lines);
  for (const n of lineShape) p.u32(n);
  const bases = [
    pushOperand(p, index.storageOffset, ix.strides),
    pushOperand(p, out.storageOffset, o.strides),
    pushOperand(p, src.storageOffset, srcStrides),
  ];
  const x = p.length;
  p.u32(k).u32(o.shape[dim]).u32(ix.strides[dim]).u32(o.strides[dim]).u32(srcStrides[dim]);
  const b = new Bindings(out.storage);
  const [O, I, S] = [b.of(out.storage), b.of(index.storage), b.of(src.storage)];
  const body = `${stridedOffsets(lineShape.length, bases)}
  for (var i = 0u; i < P[${x}]; i++) {
    ${indexLoad(I, `o0 + i * P[${x + 2}]`, index.dtype, `P[${x + 1}]`)}
    if (!ok) { continue; }
    ${combine(O, `o1 + u32(iv) * P[${x + 3}]`, S, `o2 + i * P[${x + 4}]`, out.dtype, reduce)}
  }`;
  launch({ code: kernelSource(b, body), buffers: b.buffers(), params: p.array(), grid: gridFor(lines) });
}
