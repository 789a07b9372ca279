/**
 * A Storage is the flat memory under one or more tensors (a base and its views). It carries the version
 * counter that in-place ops bump and that autograd checks saved tensors against. Meta storages have no data.
 */
import type { DeviceType } from './device.ts';
import { DTYPE_INFO, type DType, type StorageArray } from './dtype.ts';

let nextStorageId = 1;

/**
 * A device whose memory is not a TypedArray (webgpu) registers how its storages allocate and grow; core cannot
 * import backends, so the backend installs this hook when it loads.
 */
export interface DeviceMemory {
  alloc(storage: Storage): void;
  grow(storage: Storage, numel: number): void;
}
const DEVICE_MEMORY: Partial<Record<DeviceType, DeviceMemory>> = {};

export function registerDeviceMemory(device: DeviceType, memory: DeviceMemory): void {
  DEVICE_MEMORY[device] = memory;
}

export class Storage {
  readonly id = nextStorageId++;
  readonly dtype: DType;
  readonly device: DeviceType;
  /** Capacity in logical elements of `dtype` (grows only through `grow`, like a StorageImpl's realloc). */
  numel: number;
  /** The data (cpu); null on meta. Complex dtypes hold 2 lanes per element. */
  data: StorageArray | null;
  version = 0;
  /** The device allocation (a webgpu buffer block) when the device is not cpu/meta. */
  handle: unknown = null;

  constructor(dtype: DType, device: DeviceType, numel: number, data?: StorageArray) {
    this.dtype = dtype;
    this.device = device;
    this.numel = numel;
    if (device === 'meta') this.data = null;
    else if (device !== 'cpu') {
      this.data = null;
      const memory = DEVICE_MEMORY[device];
      if (!memory) throw new Error(`device '${device}' has no memory backend loaded`);
      memory.alloc(this);
    } else this.data = data ?? new DTYPE_INFO[dtype].storage(numel * DTYPE_INFO[dtype].lanes);
  }

  /** Reallocates to hold `numel` elements, keeping the existing contents; every view sees the new memory. */
  grow(numel: number): void {
    if (numel <= this.numel) return;
    const memory = DEVICE_MEMORY[this.device];
    if (memory) {
      memory.grow(this, numel);
      this.numel = numel;
      return;
    }
    if (this.data) {
      const bigger = new DTYPE_INFO[this.dtype].storage(numel * DTYPE_INFO[this.dtype].lanes);
      (bigger as { set(a: ArrayLike<number | bigint>): void }).set(this.data as ArrayLike<number | bigint>);
      this.data = bigger;
    }
    this.numel = numel;
  }

  get nbytes(): number {
    return this.numel * DTYPE_INFO[this.dtype].itemsize;
  }
}
