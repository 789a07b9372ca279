/**
 * The registered device's memory (PyTorch's PrivateUse1 allocator and copies): a storage's `handle` is whatever
 * the device's `allocate` returned, and data crosses to and from cpu through the device's `toCpu` / `fromCpu`,
 * always a whole storage at a time, so views (sizes, strides, offsets) and aliasing survive a move. Writes from the
 * runtime (a copy into a strided view, a fill) read the storage to the host, write there and hand it back.
 */

import {
  DTYPE_INFO,
  type DType,
  InvalidArgumentError,
  registerDeviceMemory,
  Storage,
  type StorageArray,
  Tensor,
} from '../../core/index.ts';
import { copyInto } from '../cpu/index.ts';

/** How the registered device keeps memory (library/device.ts checks a spec before installing it). */
export interface DeviceMemorySpec {
  /** A new allocation of `numel` zeroed elements of `dtype`: the storage's handle. */
  readonly allocate: (dtype: DType, numel: number) => unknown;
  /** The handle's contents as a cpu storage array: DTYPE_INFO[dtype].storage of numel × lanes elements. */
  readonly toCpu: (handle: unknown, dtype: DType, numel: number) => StorageArray;
  /** A handle holding `data` (a cpu storage array of `dtype`, numel × lanes elements). */
  readonly fromCpu: (data: StorageArray, dtype: DType) => unknown;
}

let memory: { readonly device: string; readonly spec: DeviceMemorySpec } | null = null;

/** Installs the device's memory: its storages allocate, grow, upload and read back through `spec`. */
export function installDeviceMemory(device: string, spec: DeviceMemorySpec): void {
  memory = { device, spec };
  registerDeviceMemory(device as Storage['device'], {
    alloc: (s) => {
      s.handle = spec.allocate(s.dtype, s.numel);
    },
    grow: (s, numel) => {
      const bigger = new DTYPE_INFO[s.dtype].storage(numel * DTYPE_INFO[s.dtype].lanes);
      (bigger as { set(a: ArrayLike<number | bigint>): void }).set(hostData(s) as ArrayLike<number | bigint>);
      s.handle = spec.fromCpu(bigger, s.dtype);
    },
  });
}

function spec(s: Storage): DeviceMemorySpec {
  if (memory === null || s.device !== memory.device)
    throw new InvalidArgumentError('the storage is not on the registered device', {
      arg: 'device',
      got: s.device,
      expected: memory?.device ?? 'a registered device (registerDevice)',
    });
  return memory.spec;
}

/** A cpu copy of a device storage's whole contents, checked to be the array its dtype stores. */
function hostData(s: Storage): StorageArray {
  const info = DTYPE_INFO[s.dtype];
  const data = spec(s).toCpu(s.handle, s.dtype, s.numel);
  if (!(data instanceof info.storage) || data.length !== s.numel * info.lanes)
    throw new InvalidArgumentError("the device's toCpu returned the wrong array", {
      op: 'toCpu',
      arg: 'returns',
      got: `${(data as object)?.constructor?.name ?? typeof data} of ${(data as { length?: number })?.length}`,
      expected: `${info.storage.name} of ${s.numel * info.lanes} (${s.numel} ${s.dtype} elements)`,
    });
  return data;
}

/** A cpu tensor with `t`'s sizes, strides and offset over a copy of its whole device storage. */
export function hostView(t: Tensor, cache?: Map<Storage, Storage>): Tensor {
  let s = cache?.get(t.storage);
  if (!s) {
    s = new Storage(t.dtype, 'cpu', t.storage.numel, hostData(t.storage));
    cache?.set(t.storage, s);
  }
  return new Tensor(s, t.shape, t.strides, t.storageOffset);
}

/** `t` (cpu) on the registered device: same sizes, strides and offset, its whole storage copied. */
export function toDevice(t: Tensor, device: string, cache?: Map<Storage, Storage>): Tensor {
  let s = cache?.get(t.storage);
  if (!s) {
    s = new Storage(t.dtype, device as Storage['device'], t.storage.numel);
    s.handle = spec(s).fromCpu(t.storage.data!.slice() as StorageArray, t.dtype);
    cache?.set(t.storage, s);
  }
  return new Tensor(s, t.shape, t.strides, t.storageOffset);
}

/** Runs `write` on a host view of device tensor `t`, then hands the storage back to the device. */
export function writeThroughHost(t: Tensor, write: (host: Tensor) => void): void {
  const host = hostView(t);
  write(host);
  t.storage.handle = spec(t.storage).fromCpu(host.storage.data!, t.dtype);
}

/** dst = src where either is on the registered device (the other on cpu or the same device). */
export function copyThroughHost(dst: Tensor, src: Tensor): void {
  const from = src.device === 'cpu' ? src : hostView(src);
  if (dst.device === 'cpu') copyInto(dst, from);
  else writeThroughHost(dst, (host) => copyInto(host, from));
}
