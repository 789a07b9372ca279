/** copy_, clone, contiguous and to: the ops that move data between layouts, dtypes and devices. */

import { copyInto } from '../../backends/cpu/index.ts';
import { copyThroughHost } from '../../backends/privateuse1/index.ts';
import { copyGPU, uploadTensor } from '../../backends/webgpu/index.ts';
import {
  channelsLastStrides,
  contiguousStrides,
  type DType,
  expandStrides,
  InvalidArgumentError,
  isRegisteredDevice,
  NotImplementedError,
  parseDevice,
  pointwiseOutputStrides,
  SyncReadbackError,
  sameShape,
  storageSpan,
  Tensor,
} from '../../core/index.ts';
import { type ApiDecl, operatorTable } from '../../dispatch/index.ts';
import { defineOp } from '../structured.ts';
import { assertNoInternalOverlap, assertNoPartialOverlap } from '../write_checks.ts';
import { makeView } from './views.ts';

function stridesFor(t: Tensor, memoryFormat: string | null): readonly number[] {
  if (memoryFormat === 'channels_last') return channelsLastStrides(t.shape);
  if (memoryFormat === 'contiguous_format') return contiguousStrides(t.shape);
  // preserve_format: keep a dense layout's strides order, like PyTorch's empty_like.
  return pointwiseOutputStrides(t.shape, [t]);
}

/**
 * dst = src (cast to dst's dtype, src broadcast to dst's shape) across devices. cpu -> webgpu casts on the
 * host, queues an upload and copies strided on the GPU; webgpu -> cpu cannot be synchronous.
 */
export function copyAcross(dst: Tensor, src: Tensor, op: string): void {
  if (dst.device === 'cpu' && src.device === 'cpu') {
    copyInto(dst, src);
    return;
  }
  if (dst.device === 'webgpu') {
    let from = src;
    if (src.device === 'cpu') {
      const host = Tensor.empty(src.shape, dst.dtype, 'cpu');
      copyInto(host, src);
      from = uploadTensor(host);
    }
    copyGPU(dst, from);
    return;
  }
  // A registered device (registerDevice) copies through its toCpu / fromCpu, to and from cpu or itself.
  if ((isRegisteredDevice(dst.device) || isRegisteredDevice(src.device)) && src.device !== 'webgpu') {
    copyThroughHost(dst, src);
    return;
  }
  throw new SyncReadbackError(
    'webgpu data cannot be read synchronously; use `await t.cpuAsync()` or `await t.toArray()`',
    { op, arg: 'src', got: `${src.device} -> ${dst.device}`, expected: 'an awaited readback' },
  );
}

/** A fresh tensor with `src`'s values, on `device`, of `dtype`, laid out by `memoryFormat`. */
function copyTo(src: Tensor, dtype: DType, device: Tensor['device'], memoryFormat: string | null): Tensor {
  if (src.device === 'meta' && device !== 'meta') {
    throw new NotImplementedError('Cannot copy out of meta tensor; no data!', {
      op: 'to',
      arg: 'device',
      got: device,
      expected: 'meta',
    });
  }
  const out = Tensor.empty(src.shape, dtype, device, stridesFor(src, memoryFormat));
  if (device !== 'meta') copyAcross(out, src, 'to');
  return out;
}

/** The Python variants of the ops registered here (native_functions.yaml's `variants`; see dispatch/variants.ts). */
export const COPY_API = {
  contiguous: 'function, method',
  clone: 'function, method',
  copy_: 'method',
  resize_: 'method',
  to: 'method',
} as const satisfies ApiDecl;

export function registerCopies(): void {
  defineOp({
    schema: 'copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)',
    tags: { family: 'pointwise' },
    composite: (a) => {
      const self = a.self as Tensor;
      const src = a.src as Tensor;
      assertNoInternalOverlap(self, 'copy_');
      assertNoPartialOverlap(self, src, 'copy_', 'src');
      const expanded = makeView(
        src,
        self.shape,
        expandStrides(src.shape, src.strides, self.shape, 'copy_'),
        src.storageOffset,
      );
      if (self.device !== 'meta') {
        if (src.device === 'meta') {
          throw new NotImplementedError('Cannot copy out of meta tensor; no data!', {
            op: 'copy_',
            arg: 'src',
            got: 'meta',
            expected: self.device,
          });
        }
        // A source overlapping the destination is copied through a temporary, like at::copy_.
        const source =
          src.storage === self.storage
            ? copyTo(expanded, src.dtype, src.device, 'contiguous_format')
            : expanded;
        copyAcross(self, source, 'copy_');
      }
      self.bumpVersion();
      return self;
    },
  });
  defineOp({
    schema: 'clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor',
    tags: { family: 'view' },
    composite: (a) => {
      const t = a.self as Tensor;
      return copyTo(t, t.dtype, t.device, (a.memory_format as string | null) ?? 'preserve_format');
    },
  });
  defineOp({
    schema: 'contiguous(Tensor(a) self, *, MemoryFormat memory_format=contiguous_format) -> Tensor(a)',
    tags: { family: 'view' },
    composite: (a) => {
      const t = a.self as Tensor;
      const fmt = a.memory_format as string;
      const want = fmt === 'channels_last' ? channelsLastStrides(t.shape) : contiguousStrides(t.shape);
      const already =
        fmt === 'channels_last'
          ? t.shape.every((s, i) => s === 1 || t.strides[i] === want[i])
          : t.isContiguous();
      if (already) return t;
      return copyTo(t, t.dtype, t.device, fmt);
    },
  });
  const to = (t: Tensor, device: string | null, dtype: DType | null, copy: boolean, fmt: string | null) => {
    const dev = device === null ? t.device : parseDevice(device);
    const dt = dtype ?? t.dtype;
    if (!copy && dev === t.device && dt === t.dtype && (fmt === null || fmt === 'preserve_format')) return t;
    return copyTo(t, dt, dev, fmt ?? 'preserve_format');
  };
  defineOp({
    schema:
      'to.dtype(Tensor(a) self, ScalarType dtype, bool non_blocking=False, bool copy=False, *, MemoryFormat? memory_format=None) -> Tensor(a)',
    tags: { family: 'view' },
    composite: (a) =>
      to(a.self as Tensor, null, a.dtype as DType, a.copy as boolean, a.memory_format as string | null),
  });
  defineOp({
    schema:
      'to.device(Tensor(a) self, Device device, ScalarType? dtype=None, bool non_blocking=False, bool copy=False, *, MemoryFormat? memory_format=None) -> Tensor(a)',
    tags: { family: 'view' },
    composite: (a) =>
      to(
        a.self as Tensor,
        a.device as string,
        a.dtype as DType | null,
        a.copy as boolean,
        a.memory_format as string | null,
      ),
  });
  defineOp({
    schema: 'resize_(Tensor(a!) self, SymInt[] size, *, MemoryFormat? memory_format=None) -> Tensor(a!)',
    tags: { family: 'shape' },
    composite: (a) => {
      const self = a.self as Tensor;
      const size = a.size as number[];
      if (size.some((s) => s < 0))
        throw new InvalidArgumentError('Trying to create tensor with negative dimension', {
          op: 'resize_',
          arg: 'size',
          got: size,
        });
      // Same sizes: nothing changes (strides included). Otherwise contiguous strides over the same storage,
      // grown in place (keeping its contents) when too small, as TensorImpl resize + StorageImpl realloc do.
      if (sameShape(size, self.shape)) return self;
      const strides = contiguousStrides(size);
      self.storage.grow(self.storageOffset + storageSpan(size, strides));
      self.setStrided(self.storage, size, strides, self.storageOffset);
      return self;
    },
  });
  operatorTable.declare(COPY_API);
}
