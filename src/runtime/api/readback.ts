/**
 * Reading values back: `t.tolist()` (nested, sync on cpu), `await t.toArray()` (flat, logical order; async so
 * that async devices fit the same API), `t.item()`. int64 reads as bigint, bool as boolean, complex as [re, im].
 */

import { logicalOffsets, numberReader } from '../backends/cpu/index.ts';
import { hostView } from '../backends/privateuse1/index.ts';
import { downloadTensor } from '../backends/webgpu/index.ts';
import { readDuringTrace } from '../compile/index.ts';
import {
  checkReadback,
  DTYPE_INFO,
  InvalidArgumentError,
  isRegisteredDevice,
  NotImplementedError,
  SyncReadbackError,
  Tensor,
} from '../core/index.ts';

export type Element = number | bigint | boolean | [number, number];
export type Nested = Element | Nested[];

/** Values in logical (row-major) order. */
export function flatValues(t: Tensor): Element[] {
  readDuringTrace(t, 'tolist');
  if (t.device === 'meta') {
    throw new NotImplementedError('Cannot read values of a meta tensor; it has no data', {
      op: 'tolist',
      arg: 'self',
      got: 'meta',
      expected: 'cpu',
    });
  }
  if (t.device === 'webgpu') {
    throw new SyncReadbackError(
      'webgpu data cannot be read synchronously; use `await t.toArray()` or `await t.cpuAsync()`',
      { op: 'tolist', arg: 'self', got: 'webgpu', expected: 'cpu' },
    );
  }
  checkReadback(t.numel, 'tolist');
  // A registered device's data is read through its toCpu (synchronous, as its kernels are).
  if (isRegisteredDevice(t.device)) return flatValues(hostView(t));
  const data = t.storage.data!;
  const offs = logicalOffsets(t.shape, t.strides, t.storageOffset);
  const out: Element[] = new Array(offs.length);
  const kind = DTYPE_INFO[t.dtype].kind;
  const read = numberReader(t.dtype);
  for (let i = 0; i < offs.length; i++) {
    const o = offs[i];
    if (t.dtype === 'int64') out[i] = data[o] as bigint;
    else if (kind === 'bool') out[i] = data[o] !== 0;
    else if (kind === 'complex') out[i] = [data[2 * o] as number, data[2 * o + 1] as number];
    else out[i] = read(data, o);
  }
  return out;
}

function nest(values: Element[], shape: readonly number[], start: number, dim: number): Nested {
  if (dim === shape.length) return values[start];
  const stride = shape.slice(dim + 1).reduce((a, b) => a * b, 1);
  return Array.from({ length: shape[dim] }, (_, i) => nest(values, shape, start + i * stride, dim + 1));
}

declare module '../core/tensor.ts' {
  interface Tensor {
    tolist(): Nested;
    toArray(): Promise<Element[]>;
    /** A cpu copy with the same sizes, strides and offset, once queued device work is done (`.cpu()` awaited). */
    cpuAsync(): Promise<Tensor>;
    item(): Element;
  }
}

export function installReadback(): void {
  const proto = Tensor.prototype;
  proto.tolist = function (this: Tensor) {
    // The nested lists count too: an empty [3, 1e9, 0] has no elements but would build 3e9 empty lists.
    let lists = 0;
    let prefix = 1;
    for (const s of this.shape.slice(0, -1)) lists += prefix *= s;
    checkReadback(lists, 'tolist');
    return nest(flatValues(this), this.shape, 0, 0);
  };
  proto.toArray = async function (this: Tensor) {
    return flatValues(await toHost(this));
  };
  proto.cpuAsync = function (this: Tensor) {
    return toHost(this);
  };
  proto.item = function (this: Tensor) {
    readDuringTrace(this, 'item');
    if (this.numel !== 1) {
      throw new InvalidArgumentError(`a Tensor with ${this.numel} elements cannot be converted to Scalar`, {
        op: 'item',
        arg: 'self',
        got: this.numel,
        expected: 1,
      });
    }
    return flatValues(this)[0];
  };
}

/** `t` itself when it is on cpu (or meta), else a cpu copy with the same layout read back from the device. */
export async function toHost(t: Tensor): Promise<Tensor> {
  readDuringTrace(t, 'toArray');
  if (t.device === 'webgpu') return downloadTensor(t);
  return isRegisteredDevice(t.device) ? hostView(t) : t;
}
