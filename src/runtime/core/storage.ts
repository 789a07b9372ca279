/**
 * A Storage is the flat memory under one or more tensors (a base and its views). It carries the version
 * counter that in-place ops bump and that autograd checks saved tensors against. Meta storages have no data.
 */
import type { DeviceType } from './device.ts';
import { DTYPE_INFO, type DType, type StorageArray } from './dtype.ts';
import { InvalidArgumentError, NotImplementedError, OutOfMemoryError } from './errors.ts';
import { checkAllocation, maxAllocationBytes } from './limits.ts';

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
    if (device === 'meta') {
      if (!Number.isSafeInteger(numel) || numel < 0) checkStorageSize(dtype, device, numel, false);
      this.data = null;
    } else if (device !== 'cpu') {
      checkStorageSize(dtype, device, numel, true);
      this.data = null;
      const memory = DEVICE_MEMORY[device];
      if (!memory)
        throw new NotImplementedError(`device '${device}' has no memory backend loaded`, {
          arg: 'device',
          got: device,
          expected: 'cpu or meta',
        });
      memory.alloc(this);
    } else if (data) {
      if (!Number.isSafeInteger(numel) || numel < 0) checkStorageSize(dtype, device, numel, false);
      this.data = data;
    } else this.data = allocate(dtype, numel);
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
    checkStorageSize(this.dtype, this.device, numel, true);
    if (this.data) {
      const bigger = allocate(this.dtype, numel);
      (bigger as { set(a: ArrayLike<number | bigint>): void }).set(this.data as ArrayLike<number | bigint>);
      this.data = bigger;
    }
    this.numel = numel;
  }

  get nbytes(): number {
    return this.numel * DTYPE_INFO[this.dtype].itemsize;
  }
}

/** A storage of `numel` elements fits the limits (core/limits.ts); meta storages only need a countable size. */
function checkStorageSize(dtype: DType, device: DeviceType, numel: number, allocates: boolean): void {
  if (!Number.isSafeInteger(numel) || numel < 0)
    throw new InvalidArgumentError(`Storage size calculation overflowed: ${numel} elements`, {
      arg: 'size',
      got: numel,
      expected: `an element count in [0, ${Number.MAX_SAFE_INTEGER}]`,
    });
  if (allocates && device !== 'meta') checkAllocation(numel, DTYPE_INFO[dtype].itemsize, undefined);
}

/**
 * A zeroed typed array of `numel` elements, checked against the limits first (one comparison on the normal path);
 * the platform refusing it anyway (the limit raised past the memory there is) is E_OUT_OF_MEMORY too.
 */
function allocate(dtype: DType, numel: number): StorageArray {
  const info = DTYPE_INFO[dtype];
  if (!(numel >= 0 && numel % 1 === 0 && numel * info.itemsize <= maxAllocationBytes()))
    checkStorageSize(dtype, 'cpu', numel, true);
  try {
    return new info.storage(numel * info.lanes);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    throw new OutOfMemoryError(`the platform could not allocate ${numel * info.itemsize} bytes`, {
      arg: 'size',
      got: `${numel} elements of ${dtype}`,
      expected: 'an allocation the platform can hold',
    });
  }
}
