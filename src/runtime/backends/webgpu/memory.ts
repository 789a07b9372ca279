/**
 * webgpu storages: a caching-allocator block per Storage, one 32-bit word per element (float32 as f32, int32
 * as i32, bool and uint8 widened to u32). Uploads are queued writes; reading back is async (`readStorage`).
 */
/// <reference types="@webgpu/types" />
import {
  DTYPE_INFO,
  type DType,
  DTypeUnsupportedError,
  registerDeviceMemory,
  Storage,
  type StorageArray,
  Tensor,
} from '../../core/index.ts';
import { type Block, CachingAllocator } from './allocator.ts';
import { gpu } from './device.ts';
import { flush } from './queue.ts';

/**
 * WGSL element type of each dtype the webgpu device stores. int64 is stored exactly as two i32 words (low,
 * high) so that index tensors, argmax results and copies work; int64 arithmetic is refused.
 */
export type WgslStorage = 'f32' | 'i32' | 'u32';
export const WEBGPU_STORAGE: Partial<Record<DType, WgslStorage>> = {
  float32: 'f32',
  int32: 'i32',
  int64: 'i32',
  uint8: 'u32',
  bool: 'u32',
};
/** 32-bit words per element. */
export const wordsPer = (dtype: DType): number => (dtype === 'int64' ? 2 : 1);
export const WEBGPU_DTYPES = Object.keys(WEBGPU_STORAGE) as DType[];

export function wgslStorage(dtype: DType, op = 'webgpu'): WgslStorage {
  const s = WEBGPU_STORAGE[dtype];
  if (s) return s;
  throw new DTypeUnsupportedError(
    `"${op}" not implemented for '${DTYPE_INFO[dtype].torchName}' on webgpu (no ${dtype} in WGSL; like MPS, float64, float16 and complex are unsupported)`,
    { op, arg: 'dtype', got: dtype, expected: WEBGPU_DTYPES.join('/') },
  );
}

export const allocator = new CachingAllocator(() => gpu());
const release = new FinalizationRegistry<Block>((block) => allocator.free(block));

export function blockOf(s: Storage): Block {
  return s.handle as Block;
}

function attach(s: Storage, numel: number): void {
  const block = allocator.allocate(numel * 4 * wordsPer(s.dtype));
  s.handle = block;
  release.register(s, block, s);
}

registerDeviceMemory('webgpu', {
  alloc(s) {
    wgslStorage(s.dtype, 'empty');
    attach(s, s.numel);
  },
  grow(s, numel) {
    flush();
    const old = blockOf(s);
    release.unregister(s);
    attach(s, numel);
    const enc = gpu().createCommandEncoder();
    enc.copyBufferToBuffer(old.buffer, 0, blockOf(s).buffer, 0, s.numel * 4 * wordsPer(s.dtype));
    gpu().queue.submit([enc.finish()]);
    allocator.free(old);
  },
});

/**
 * The words to upload, always a fresh array: Dawn's writeBuffer may read the source at submit time rather
 * than at the call, so a cpu tensor written after its upload must not share memory with it.
 */
function widened(dtype: DType, data: StorageArray): Float32Array | Int32Array | Uint32Array {
  if (data instanceof Float32Array || data instanceof Int32Array) return data.slice();
  if (data instanceof BigInt64Array) return new Int32Array(data.slice().buffer);
  const w = new Uint32Array(data.length);
  w.set(data as Uint8Array);
  if (dtype === 'bool') for (let i = 0; i < w.length; i++) w[i] = w[i] ? 1 : 0;
  return w;
}

/** Queues a write of a cpu storage's whole contents into a webgpu storage of the same dtype and size. */
export function uploadStorage(dst: Storage, src: Storage): void {
  // The block may have been freed (by GC) under a pending command: that command must run before this write.
  flush();
  const words = widened(src.dtype, src.data!);
  if (words.length)
    gpu().queue.writeBuffer(blockOf(dst).buffer, 0, words.buffer, words.byteOffset, words.byteLength);
}

/** The storage's contents as a cpu TypedArray of its dtype, once all queued work on it is done. */
export async function readStorage(s: Storage): Promise<StorageArray> {
  const out = new DTYPE_INFO[s.dtype].storage(s.numel) as StorageArray;
  const bytes = s.numel * 4 * wordsPer(s.dtype);
  if (bytes === 0) return out;
  const device = gpu();
  flush();
  const staging = device.createBuffer({
    size: bytes,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  const enc = device.createCommandEncoder();
  enc.copyBufferToBuffer(blockOf(s).buffer, 0, staging, 0, bytes);
  device.queue.submit([enc.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const mapped = staging.getMappedRange();
  if (out instanceof Float32Array) out.set(new Float32Array(mapped));
  else if (out instanceof Int32Array) out.set(new Int32Array(mapped));
  else if (out instanceof BigInt64Array) out.set(new BigInt64Array(mapped));
  else (out as Uint8Array).set(new Uint32Array(mapped));
  staging.unmap();
  staging.destroy();
  return out;
}

/** A webgpu tensor with `t`'s sizes, strides and offset over a copy of its whole (cpu) storage. */
export function uploadTensor(t: Tensor, cache?: Map<Storage, Storage>): Tensor {
  let s = cache?.get(t.storage);
  if (!s) {
    s = new Storage(t.dtype, 'webgpu', t.storage.numel);
    uploadStorage(s, t.storage);
    cache?.set(t.storage, s);
  }
  return new Tensor(s, t.shape, t.strides, t.storageOffset);
}

/** A cpu tensor with `t`'s sizes, strides and offset over a copy of its whole (webgpu) storage. */
export async function downloadTensor(t: Tensor, cache?: Map<Storage, Promise<Storage>>): Promise<Tensor> {
  let p = cache?.get(t.storage);
  if (!p) {
    p = readStorage(t.storage).then((data) => new Storage(t.dtype, 'cpu', t.storage.numel, data));
    cache?.set(t.storage, p);
  }
  return new Tensor(await p, t.shape, t.strides, t.storageOffset);
}
