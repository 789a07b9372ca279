/**
 * Tensor = TensorImpl: a strided view (sizes, strides, storage offset) over a shared Storage. Torch-like
 * methods (add, view, sum, ...) are installed by the public API layer; this class holds only the metadata.
 */
import type { DeviceType } from './device.ts';
import { DTYPE_INFO, type DType } from './dtype.ts';
import { DimOutOfRangeError, InvalidArgumentError } from './errors.ts';
import { checkedNumel, checkNewTensor, checkSizes } from './limits.ts';
import { contiguousStrides, isContiguousLayout, numelOf, type Shape, wrapDim } from './shape.ts';
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
    // Sizes first: contiguousStrides and storageSpan of a NaN or huge size would build a nonsense storage (the
    // Storage then checks the allocation limit).
    if (!validShape(shape)) checkNewTensor(shape, DTYPE_INFO[dtype].itemsize, device, undefined);
    const st = strides ?? contiguousStrides(shape);
    const storage = new Storage(dtype, device, storageSpan(shape, st));
    return new Tensor(storage, [...shape], [...st], 0);
  }

  /** Points this tensor at new memory/metadata (resize_ and out= resizing). */
  setStrided(storage: Storage, shape: Shape, strides: readonly number[], storageOffset: number): void {
    checkLayout(shape, strides, storageOffset);
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
    return this.shape[metaDim(dim, this.ndim, 'size')];
  }
  stride(): readonly number[];
  stride(dim: number): number;
  stride(dim?: number): number | readonly number[] {
    if (dim === undefined) return this._strides;
    return this._strides[metaDim(dim, this.ndim, 'stride')];
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

/** size(d) / stride(d): a wrapped dim; a 0-d tensor has none (PyTorch raises IndexError for any d). */
function metaDim(dim: number, ndim: number, op: string): number {
  if (ndim === 0)
    throw new DimOutOfRangeError('dimension specified as 0 but tensor has no dimensions', {
      op,
      arg: 'dim',
      got: typeof dim === 'number' ? dim : typeof dim,
      expected: 'a tensor with at least 1 dimension',
    });
  return wrapDim(dim, ndim, op);
}

/**
 * A re-pointed tensor's sizes are non-negative safe integers with a countable numel, its strides safe integers
 * and its offset a non-negative safe integer. The constructor does not check (it runs for every view, and the
 * perf gate counts its instructions): the view ops validate the sizes they take from their arguments.
 */
function checkLayout(shape: Shape, strides: readonly number[], offset: number): void {
  let ok =
    validShape(shape) && typeof offset === 'number' && offset >= 0 && offset <= MAX_SAFE && offset % 1 === 0;
  for (let i = 0; ok && i < strides.length; i++) {
    const st = strides[i];
    ok = typeof st === 'number' && st <= MAX_SAFE && st >= -MAX_SAFE && st % 1 === 0;
  }
  if (!ok) layoutError(shape, strides, offset);
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** Sizes that are integers in [0, 2^53 - 1] with a numel JS counts exactly (core/limits.ts explains failures). */
function validShape(shape: Shape): boolean {
  let n = 1;
  for (let i = 0; i < shape.length; i++) {
    const s = shape[i];
    if (!(typeof s === 'number' && s >= 0 && s <= MAX_SAFE && s % 1 === 0)) return false;
    n *= s;
  }
  return n <= MAX_SAFE || shape.includes(0);
}

/** Explains a layout checkLayout refused (the op is named by the dispatcher as the error leaves it). */
function layoutError(shape: Shape, strides: readonly number[], offset: number): never {
  const op = undefined;
  checkSizes(shape, op);
  checkedNumel(shape, op);
  if (!strides.every((st) => Number.isSafeInteger(st)))
    throw new InvalidArgumentError('strides must be safe integers', {
      op,
      arg: 'stride',
      got: strides.map(String),
      expected: 'integer strides',
    });
  throw new InvalidArgumentError(`storage offset must be a non-negative integer, got ${String(offset)}`, {
    op,
    arg: 'storage_offset',
    got: String(offset),
    expected: '>= 0',
  });
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
