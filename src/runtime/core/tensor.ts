/**
 * Tensor = TensorImpl: a strided view (sizes, strides, storage offset) over a shared Storage. Torch-like
 * methods (add, view, sum, ...) are installed by the public API layer; this class holds only the metadata.
 */
import type { DeviceType } from './device.ts';
import { DTYPE_INFO, type DType } from './dtype.ts';
import { contiguousStrides, isContiguousLayout, numelOf, type Shape } from './shape.ts';
import { Storage } from './storage.ts';

/**
 * Autograd fields, owned by the autograd layer (core only carries them): the node that produced this tensor and
 * which of its outputs it is, the accumulated `.grad`, the leaf's AccumulateGrad node and tensor hooks.
 */
export interface AutogradMeta {
  gradFn: unknown;
  outputNr: number;
  grad: Tensor | null;
  retainsGrad: boolean;
  /** The AccumulateGrad node of a leaf (created on first use, shared by every graph the leaf enters). */
  accumulator: unknown;
  hooks: ((grad: Tensor) => Tensor | undefined)[];
}

export class Tensor {
  // Mutable only through setStrided (resize_/out= resizing, like TensorImpl::set_sizes_and_strides).
  storage: Storage;
  shape: readonly number[];
  private _strides: readonly number[];
  storageOffset: number;
  readonly dtype: DType;
  /** The tensor this one is a view of (null for a base); the base of a view's base is flattened. */
  readonly base: Tensor | null;
  /** A Python number turned into a 0-dim tensor for promotion (PyTorch's "wrapped number"). */
  isWrappedNumber = false;
  requiresGrad = false;
  autograd: AutogradMeta | null = null;

  constructor(
    storage: Storage,
    shape: Shape,
    strides: readonly number[],
    storageOffset: number,
    base: Tensor | null = null,
  ) {
    this.storage = storage;
    this.shape = shape;
    this._strides = strides;
    this.storageOffset = storageOffset;
    this.dtype = storage.dtype;
    this.base = base === null ? null : (base.base ?? base);
  }

  static empty(shape: Shape, dtype: DType, device: DeviceType, strides?: readonly number[]): Tensor {
    const st = strides ?? contiguousStrides(shape);
    const storage = new Storage(dtype, device, storageSpan(shape, st));
    return new Tensor(storage, [...shape], [...st], 0);
  }

  /** Points this tensor at new memory/metadata (resize_ and out= resizing). */
  setStrided(storage: Storage, shape: Shape, strides: readonly number[], storageOffset: number): void {
    this.storage = storage;
    this.shape = [...shape];
    this._strides = [...strides];
    this.storageOffset = storageOffset;
  }

  get device(): DeviceType {
    return this.storage.device;
  }
  get ndim(): number {
    return this.shape.length;
  }
  dim(): number {
    return this.shape.length;
  }
  get numel(): number {
    return numelOf(this.shape);
  }
  get itemsize(): number {
    return DTYPE_INFO[this.dtype].itemsize;
  }
  /** PyTorch's `size()`; `size(d)` wraps negative dims. */
  size(dim?: number): number | readonly number[] {
    if (dim === undefined) return this.shape;
    return this.shape[dim < 0 ? dim + this.shape.length : dim];
  }
  stride(): readonly number[];
  stride(dim: number): number;
  stride(dim?: number): number | readonly number[] {
    if (dim === undefined) return this._strides;
    return this._strides[dim < 0 ? dim + this._strides.length : dim];
  }
  get strides(): readonly number[] {
    return this._strides;
  }
  isContiguous(): boolean {
    return isContiguousLayout(this.shape, this._strides);
  }
  /** Version counter shared by all views of the storage; bumped by every in-place op. */
  get version(): number {
    return this.storage.version;
  }
  bumpVersion(): void {
    this.storage.version++;
  }
  get isMeta(): boolean {
    return this.storage.device === 'meta';
  }
  toString(): string {
    return `Tensor(shape=[${this.shape.join(', ')}], dtype=${this.dtype}, device=${this.device})`;
  }
}

/** Elements of storage a strided tensor spans (0 for an empty tensor). */
export function storageSpan(shape: Shape, strides: readonly number[]): number {
  let max = 0;
  for (let i = 0; i < shape.length; i++) {
    if (shape[i] === 0) return 0;
    max += (shape[i] - 1) * strides[i];
  }
  return max + 1;
}
