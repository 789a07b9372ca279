/**
 * A caching buffer allocator, after PyTorch's CUDACachingAllocator: freed blocks go back to a pool keyed by
 * size class and are reused instead of being destroyed, so steady-state ops allocate no GPU memory. Small
 * requests (≤ 1 MiB) round up to 512 B, large ones to 2 MiB. `reserved` counts every buffer the pool holds,
 * `allocated` the blocks now owned by live storages. Storages give their block back when they are garbage
 * collected; WebGPU runs one queue in submission order, so a reused block cannot race earlier work on it.
 */
/// <reference types="@webgpu/types" />

export interface Block {
  readonly buffer: GPUBuffer;
  readonly size: number;
}

export interface AllocatorStats {
  /** Bytes in blocks owned by live storages (rounded to size classes). */
  allocatedBytes: number;
  /** Bytes of all GPU buffers the allocator holds (in use + cached). */
  reservedBytes: number;
  /** Bytes the callers asked for (before rounding). */
  requestedBytes: number;
  peakAllocatedBytes: number;
  peakReservedBytes: number;
  /** Allocations served from the cache / by creating a buffer. */
  cacheHits: number;
  cacheMisses: number;
  /** Blocks returned to the pool. */
  frees: number;
}

const SMALL_LIMIT = 1 << 20;
const SMALL_ROUND = 512;
const LARGE_ROUND = 2 << 20;

export function sizeClass(bytes: number): number {
  const b = Math.max(bytes, 4);
  const round = b <= SMALL_LIMIT ? SMALL_ROUND : LARGE_ROUND;
  return Math.ceil(b / round) * round;
}

export class CachingAllocator {
  private readonly pool = new Map<number, GPUBuffer[]>();
  private readonly requested = new WeakMap<Block, number>();
  readonly stats: AllocatorStats = {
    allocatedBytes: 0,
    reservedBytes: 0,
    requestedBytes: 0,
    peakAllocatedBytes: 0,
    peakReservedBytes: 0,
    cacheHits: 0,
    cacheMisses: 0,
    frees: 0,
  };
  private readonly device: () => GPUDevice;

  constructor(device: () => GPUDevice) {
    this.device = device;
  }

  allocate(bytes: number): Block {
    const size = sizeClass(bytes);
    const cached = this.pool.get(size)?.pop();
    let buffer: GPUBuffer;
    if (cached) {
      buffer = cached;
      this.stats.cacheHits++;
    } else {
      buffer = this.device().createBuffer({
        size,
        usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
      });
      this.stats.cacheMisses++;
      this.stats.reservedBytes += size;
      this.stats.peakReservedBytes = Math.max(this.stats.peakReservedBytes, this.stats.reservedBytes);
    }
    const block: Block = { buffer, size };
    this.requested.set(block, bytes);
    this.stats.allocatedBytes += size;
    this.stats.requestedBytes += bytes;
    this.stats.peakAllocatedBytes = Math.max(this.stats.peakAllocatedBytes, this.stats.allocatedBytes);
    return block;
  }

  free(block: Block): void {
    let list = this.pool.get(block.size);
    if (!list) {
      list = [];
      this.pool.set(block.size, list);
    }
    list.push(block.buffer);
    this.stats.allocatedBytes -= block.size;
    this.stats.requestedBytes -= this.requested.get(block) ?? 0;
    this.stats.frees++;
  }

  /** Destroys every cached (unused) buffer, like torch.cuda.empty_cache(). */
  emptyCache(): void {
    for (const list of this.pool.values()) {
      for (const b of list) {
        this.stats.reservedBytes -= b.size;
        b.destroy();
      }
    }
    this.pool.clear();
  }

  cachedBlocks(): number {
    let n = 0;
    for (const list of this.pool.values()) n += list.length;
    return n;
  }
}
