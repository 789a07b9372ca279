/**
 * Pieces shared by the index-driven kernels (gather, scatter, masked_fill, sort): one binding per distinct
 * storage (the written one first, read_write; an input aliasing it reads through it), raw element moves that
 * keep int64's two words, the bounds-checked load of an index element, and the kernel skeleton.
 */
/// <reference types="@webgpu/types" />
import type { DType, Storage, Tensor } from '../../core/index.ts';
import { linearIndex, type Params, WORKGROUP } from './launch.ts';
import { blockOf, uploadTensor, wgslStorage } from './memory.ts';
import { helpersFor } from './wgsl.ts';

export class Bindings {
  private readonly storages: Storage[];
  private readonly written: number;
  /** `written` (distinct storages) are bound read_write first. */
  constructor(...written: Storage[]) {
    this.storages = [...written];
    this.written = written.length;
  }
  /** The WGSL name of the binding holding `s` (`B0` is the first written storage). */
  of(s: Storage): string {
    let i = this.storages.indexOf(s);
    if (i < 0) i = this.storages.push(s) - 1;
    return `B${i}`;
  }
  decls(): string {
    return this.storages
      .map(
        (s, i) =>
          `@group(0) @binding(${i + 1}) var<storage, ${i < this.written ? 'read_write' : 'read'}> B${i}: array<${wgslStorage(s.dtype)}>;`,
      )
      .join('\n');
  }
  buffers(): GPUBuffer[] {
    return this.storages.map((s) => blockOf(s).buffer);
  }
}

/** A tensor the kernel can bind: a cpu operand (a 0-dim tensor joining a webgpu op) is uploaded. */
export function onDevice(t: Tensor): Tensor {
  return t.device === 'cpu' ? uploadTensor(t) : t;
}

/** Sizes and strides with a 0-dim tensor seen as 1-D of size 1. */
export const dims = (t: Tensor) =>
  t.ndim === 0 ? { shape: [1], strides: [1] } : { shape: [...t.shape], strides: [...t.strides] };

/** Pushes an operand's storage offset and strides (the layout `stridedOffsets` reads); returns its base word. */
export function pushOperand(p: Params, offset: number, strides: readonly number[]): number {
  const base = p.length;
  p.u32(offset);
  for (const s of strides) p.u32(s);
  return base;
}

/** Element `so` of `S` copied bit for bit into element `dO` of `D` (both of `dtype`; int64 moves two words). */
export function rawCopy(D: string, dO: string, S: string, so: string, dtype: DType): string {
  if (dtype !== 'int64') return `${D}[${dO}] = ${S}[${so}];`;
  return `${D}[2u * (${dO})] = ${S}[2u * (${so})]; ${D}[2u * (${dO}) + 1u] = ${S}[2u * (${so}) + 1u];`;
}

/** The statement writing the dtype's zero into element `o` of `D`. */
export function zeroStmt(D: string, o: string, dtype: DType): string {
  const zero = { f32: '0.0', i32: '0', u32: '0u' }[wgslStorage(dtype)];
  if (dtype !== 'int64') return `${D}[${o}] = ${zero};`;
  return `${D}[2u * (${o})] = 0; ${D}[2u * (${o}) + 1u] = 0;`;
}

/**
 * Declares `iv: i32` (the index element at `o` of `B`, int64 or int32) and `ok: bool` (it lies in [0, size)).
 * An int64 whose high word is not its low word's sign extension is outside the i32 range, so out of range.
 */
export function indexLoad(B: string, o: string, dtype: DType, size: string): string {
  const fits =
    dtype === 'int64'
      ? `let iv = ${B}[2u * (${o})]; let fits = ${B}[2u * (${o}) + 1u] == (iv >> 31u);`
      : `let iv = ${B}[${o}]; let fits = true;`;
  return `${fits} let ok = fits && iv >= 0 && u32(iv) < ${size};`;
}

/** A one-thread-per-item kernel: `P[0]` is the item count; `fns` are extra WGSL functions. */
export function kernelSource(b: Bindings, body: string, fns = ''): string {
  return `${helpersFor(body, fns)}
${fns}
@group(0) @binding(0) var<storage, read> P: array<u32>;
${b.decls()}
@compute @workgroup_size(${WORKGROUP})
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let idx = ${linearIndex()};
  if (idx >= P[0]) { return; }
${body}
}`;
}
