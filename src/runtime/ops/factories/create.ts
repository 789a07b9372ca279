/**
 * What the factories share: the tensor a factory creates (device, dtype, strides of a *_like, filled or zeroed), the
 * Scalar a fill stores per dtype (fillTensor, also for fill_ and eye's diagonal), and the Python factory options.
 */

import { runPointwise } from '../../backends/cpu/index.ts';
import { writeThroughHost } from '../../backends/privateuse1/index.ts';
import { fillGPU } from '../../backends/webgpu/index.ts';
import {
  channelsLastStrides,
  checkNewTensor,
  contiguousStrides,
  type DeviceType,
  DTYPE_INFO,
  type DType,
  InvalidArgumentError,
  int,
  isNonOverlappingAndDense,
  isRegisteredDevice,
  parseDevice,
  pointwiseOutputStrides,
  type Scalar,
  Tensor,
} from '../../core/index.ts';
import type { BoundArgs } from '../../dispatch/index.ts';
import { asScalar, scalarTo } from '../op_helpers.ts';

export const tags = { family: 'factory' } as const;
export const OPTS = 'ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None';

function deviceOf(a: BoundArgs, op: string, fallback: DeviceType = 'cpu'): DeviceType {
  return a.device ? parseDevice(a.device as string, op) : fallback;
}

/**
 * A Scalar argument's value. python_arg_parser binds a 0-dim tensor to a Scalar parameter and reads it with
 * item(), which a tensor without host data (meta, webgpu) cannot do.
 */
export function scalarArg(v: unknown, op: string, arg: string): Scalar {
  if (v instanceof Tensor && v.storage.data === null)
    throw new InvalidArgumentError(`cannot read the value of a ${v.device} tensor as a Scalar (item())`, {
      op,
      arg,
      got: `a ${v.device} tensor`,
      expected: 'a number, a Scalar or a cpu tensor',
    });
  return asScalar(v as Scalar | Tensor);
}

const fillReal = (k: unknown) => k;
const fillComplex = (re: number, im: number) => [re, im];

/** The value a Scalar stores into a tensor of `dtype`, in the compute domain of that dtype. */
function fillValue(s: Scalar, dtype: DType): unknown {
  const info = DTYPE_INFO[dtype];
  // checked_convert: NaN / ±Infinity have no integral value (PyTorch raises the same message).
  if (info.kind === 'int' && !Number.isFinite(s.toNumber()))
    throw new InvalidArgumentError(`value cannot be converted to type ${info.torchName} without overflow`, {
      arg: 'value',
      got: s.toString(),
      expected: `a finite value for ${dtype}`,
    });
  const dom = info.domain;
  if (dom === 'big') return s.toBigInt();
  if (dom === 'complex') return [s.toNumber(), s.imag];
  return s.toNumber();
}

export function fillTensor(t: Tensor, s: Scalar): void {
  if (t.device === 'meta' || t.numel === 0) return;
  if (t.device === 'webgpu') {
    fillGPU(t, storageWords(s, t.dtype));
    return;
  }
  if (isRegisteredDevice(t.device)) {
    writeThroughHost(t, (host) => fillTensor(host, s));
    return;
  }
  const v = fillValue(s, t.dtype);
  const complex = Array.isArray(v);
  runPointwise(
    {
      fn: complex ? fillComplex : fillReal,
      targets: [],
      value: t.dtype,
      scalars: [v],
      scalarDomainComplex: complex,
    },
    t,
    [],
  );
}

/**
 * The storage words of `s` stored as `dtype` on webgpu (int64: low, high), converted exactly as the cpu fill
 * converts it (by filling a one-element cpu tensor).
 */
function storageWords(s: Scalar, dtype: DType): number[] {
  const host = Tensor.empty([1], dtype, 'cpu');
  fillTensor(host, s);
  const v = host.storage.data![0];
  if (typeof v === 'bigint') return [Number(BigInt.asUintN(32, v)), Number(BigInt.asUintN(32, v >> 32n))];
  if (dtype === 'float32') return [new Uint32Array(Float32Array.of(v as number).buffer)[0]];
  return [v as number];
}

/**
 * A new tensor of `size` on the args' device; `fill` fills it, `zero` asks for zeros (cpu memory starts zeroed,
 * webgpu blocks come from a caching allocator and are filled explicitly).
 */
/**
 * fill_out's `value.to<scalar_t>()`: c10's checked conversion refuses a value outside the dtype's range (int8
 * 128, 127.5, float16 65520.0); bool takes any value (nonzero is True). Meta tensors convert nothing.
 */
export function checkFill(s: Scalar, dtype: DType, op: string, arg: string): void {
  if (dtype !== 'bool') scalarTo(s, dtype, op, arg);
}

export function create(
  size: readonly number[],
  a: BoundArgs,
  op: string,
  dtype: DType,
  fill: Scalar | null,
  like?: Tensor,
  zero = false,
): Tensor {
  const device = deviceOf(a, op, like?.device ?? 'cpu');
  checkNewTensor(size, DTYPE_INFO[dtype].itemsize, device, op);
  const t = Tensor.empty(
    size,
    dtype,
    device,
    like ? likeStrides(like, a.memory_format as string | null | undefined) : contiguousStrides(size),
  );
  if (fill && device !== 'meta') checkFill(fill, dtype, op, 'fill_value');
  if (fill) fillTensor(t, fill);
  else if (zero && t.device === 'webgpu') fillTensor(t, int(0));
  return t;
}

/**
 * empty_like's layout: preserve_format (the default) keeps the strides of a dense, non-overlapping input and
 * otherwise lays the result out densely in the input's dim order (infer_dense_strides, as TensorIterator does).
 */
function likeStrides(like: Tensor, memoryFormat: string | null | undefined): readonly number[] {
  if (memoryFormat === 'contiguous_format') return contiguousStrides(like.shape);
  if (memoryFormat === 'channels_last') return channelsLastStrides(like.shape);
  if (isNonOverlappingAndDense(like.shape, like.strides)) return like.strides;
  return pointwiseOutputStrides(like.shape, [like]);
}
