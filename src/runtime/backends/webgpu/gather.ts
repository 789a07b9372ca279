/**
 * gather / index_select and masked_fill on webgpu: one thread per output element, every operand read at its
 * own strides and storage offset. A GPU kernel cannot raise, so an index outside [0, size) (CUDA: a device
 * assert) writes the dtype's zero instead of raising E_INDEX_OUT_OF_RANGE like the cpu.
 */
import { broadcastStridesFor, type DType, type Tensor } from '../../core/index.ts';
import { Bindings, dims, indexLoad, kernelSource, onDevice, pushOperand, rawCopy, zeroStmt } from './bind.ts';
import { gridFor, launch, Params } from './launch.ts';
import { wgslStorage } from './memory.ts';
import { convert, loadExpr, stridedOffsets, toStorage, type WgslValue } from './wgsl.ts';

/**
 * out[p] = self[p with p[dim] := index'[p]], where index' is `index` read with `indexStrides` over out's
 * shape (gather: index's own strides; index_select: its one stride on `dim`, 0 elsewhere).
 */
export function gatherGPU(
  out: Tensor,
  self: Tensor,
  index: Tensor,
  dim: number,
  indexStrides: readonly number[],
): void {
  const numel = out.numel;
  if (numel === 0) return;
  self = onDevice(self);
  index = onDevice(index);
  const o = dims(out);
  const s = dims(self);
  const p = new Params().u32(numel);
  for (const n of o.shape) p.u32(n);
  const selfStrides = s.strides.map((st, d) => (d === dim ? 0 : st));
  const bases = [
    pushOperand(p, out.storageOffset, o.strides),
    pushOperand(p, index.storageOffset, indexStrides),
    pushOperand(p, self.storageOffset, selfStrides),
  ];
  const extra = p.length;
  p.u32(s.shape[dim]).u32(s.strides[dim]);
  const b = new Bindings(out.storage);
  const [O, I, S] = [b.of(out.storage), b.of(index.storage), b.of(self.storage)];
  const body = `${stridedOffsets(o.shape.length, bases)}
  ${indexLoad(I, 'o1', index.dtype, `P[${extra}]`)}
  if (ok) { ${rawCopy(O, 'o0', S, `o2 + u32(iv) * P[${extra + 1}]`, self.dtype)} } else { ${zeroStmt(O, 'o0', out.dtype)} }`;
  launch({ code: kernelSource(b, body), buffers: b.buffers(), params: p.array(), grid: gridFor(numel) });
}

/** The type a dtype's elements move through when converted (int64 through its low word). */
const via = (d: DType): WgslValue => (d === 'float32' ? 'f32' : d === 'bool' ? 'bool' : 'i32');

/** Element `o` of `B` (of dtype `from`) stored into element `dO` of `D` (of dtype `to`), cast like a copy. */
function castCopy(D: string, dO: string, to: DType, B: string, o: string, from: DType): string {
  if (from === to) return rawCopy(D, dO, B, o, to);
  const v = loadExpr(B, o, from, via(to));
  return to === 'int64'
    ? `{ let v = ${convert(v, via(to), 'i32')}; ${D}[2u * (${dO})] = v; ${D}[2u * (${dO}) + 1u] = select(0, -1, v < 0); }`
    : `${D}[${dO}] = ${toStorage(v, via(to), to)};`;
}

/**
 * out = where(mask, value, self) with mask and self broadcast to out's shape. `value` is a 0-dim tensor: the
 * cpu caller converts a host value to self's dtype first; a webgpu value is converted here, to self's dtype
 * and then to out's (out= may have another dtype).
 */
export function maskedFillGPU(out: Tensor, self: Tensor, mask: Tensor, value: Tensor): void {
  const numel = out.numel;
  if (numel === 0) return;
  [self, mask, value] = [onDevice(self), onDevice(mask), onDevice(value)];
  const p = new Params().u32(numel);
  for (const n of out.shape) p.u32(n);
  const bases = [
    pushOperand(p, out.storageOffset, out.strides),
    pushOperand(p, mask.storageOffset, broadcastStridesFor(mask.shape, mask.strides, out.shape)),
    pushOperand(p, self.storageOffset, broadcastStridesFor(self.shape, self.strides, out.shape)),
  ];
  const vOff = p.length;
  p.u32(value.storageOffset);
  const b = new Bindings(out.storage);
  const [O, M, S, V] = [b.of(out.storage), b.of(mask.storage), b.of(self.storage), b.of(value.storage)];
  const sd = self.dtype;
  let fill: string;
  if (value.dtype === sd) fill = castCopy(O, 'o0', out.dtype, V, `P[${vOff}]`, sd);
  else {
    // value -> self's dtype (a storage word of it) -> out's dtype.
    const word = toStorage(loadExpr(V, `P[${vOff}]`, value.dtype, via(sd)), via(sd), sd);
    const w = sd === 'int64' ? 'i32' : wgslStorage(sd);
    const v = convert(word, w, via(out.dtype));
    fill =
      out.dtype === 'int64'
        ? `{ let v = ${convert(v, via(out.dtype), 'i32')}; ${O}[2u * o0] = v; ${O}[2u * o0 + 1u] = select(0, -1, v < 0); }`
        : `${O}[o0] = ${toStorage(v, via(out.dtype), out.dtype)};`;
  }
  const body = `${stridedOffsets(out.ndim, bases)}
  if (${loadExpr(M, 'o1', mask.dtype, 'bool')}) { ${fill} } else { ${castCopy(O, 'o0', out.dtype, S, 'o2', sd)} }`;
  launch({ code: kernelSource(b, body), buffers: b.buffers(), params: p.array(), grid: gridFor(numel) });
}
