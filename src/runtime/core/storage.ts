/**
 * A Storage is the flat memory under one or more tensors (a base and its views). It carries the version
 * counter that in-place ops bump and that autograd checks saved tensors against. Meta storages have no data.
 */
import type { DeviceType } from './device.ts';
import { DTYPE_INFO, type DType, type StorageArray } from './dtype.ts';

let nextStorageId = 1;

export class Storage {
  readonly id = nextStorageId++;
  readonly dtype: DType;
  readonly device: DeviceType;
  /** Capacity in logical elements of `dtype`. */
  readonly numel: number;
  /** The data (cpu); null on meta. Complex dtypes hold 2 lanes per element. */
  data: StorageArray | null;
  version = 0;

  constructor(dtype: DType, device: DeviceType, numel: number, data?: StorageArray) {
    this.dtype = dtype;
    this.device = device;
    this.numel = numel;
    if (device === 'meta') this.data = null;
    else this.data = data ?? new DTYPE_INFO[dtype].storage(numel * DTYPE_INFO[dtype].lanes);
  }

  get nbytes(): number {
    return this.numel * DTYPE_INFO[this.dtype].itemsize;
  }
}
