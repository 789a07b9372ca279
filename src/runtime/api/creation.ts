/**
 * `tensor(data, {dtype, device, requiresGrad})`: builds a tensor from nested JS arrays. Dtype inference follows
 * the documented scalar default: all booleans -> bool; all integer numbers / bigints -> int64; any other
 * number -> the default float dtype; a complex Scalar -> complex64. Pass `dtype` to choose explicitly.
 */

import { numberWriter } from '../backends/cpu/index.ts';
import {
  DTYPE_INFO,
  type DType,
  getDefaultDType,
  InvalidArgumentError,
  parseDevice,
  Scalar,
  ShapeMismatchError,
  Tensor,
  toComplexDType,
} from '../core/index.ts';
import { callOp } from '../dispatch/index.ts';

export type NestedData = number | bigint | boolean | Scalar | readonly NestedData[];

export interface TensorOptions {
  dtype?: DType;
  device?: string;
  requiresGrad?: boolean;
}

function shapeOf(data: NestedData, op: string): number[] {
  if (!Array.isArray(data)) return [];
  const inner = data.length > 0 ? shapeOf(data[0], op) : [];
  for (const d of data) {
    const s = shapeOf(d, op);
    if (s.length !== inner.length || s.some((x, i) => x !== inner[i])) {
      throw new ShapeMismatchError('expected a rectangular nested sequence', {
        op,
        arg: 'data',
        got: s,
        expected: inner,
      });
    }
  }
  return [data.length, ...inner];
}

function flatten(data: NestedData, out: (number | bigint | boolean | Scalar)[]): void {
  if (Array.isArray(data)) for (const d of data) flatten(d, out);
  else out.push(data as number | bigint | boolean | Scalar);
}

function inferDType(values: readonly (number | bigint | boolean | Scalar)[]): DType {
  let kind = 0; // 0 bool, 1 int, 2 float, 3 complex
  if (values.length === 0) return getDefaultDType();
  for (const v of values) {
    const k =
      typeof v === 'boolean'
        ? 0
        : typeof v === 'bigint'
          ? 1
          : typeof v === 'number'
            ? Number.isInteger(v)
              ? 1
              : 2
            : v.kind === 'bool'
              ? 0
              : v.kind === 'int'
                ? 1
                : v.kind === 'float'
                  ? 2
                  : 3;
    kind = Math.max(kind, k);
  }
  return (['bool', 'int64', getDefaultDType(), toComplexDType(getDefaultDType())] as DType[])[kind];
}

export function tensor(data: NestedData, options: TensorOptions = {}): Tensor {
  const shape = shapeOf(data, 'tensor');
  const values: (number | bigint | boolean | Scalar)[] = [];
  flatten(data, values);
  const dtype = options.dtype ?? inferDType(values);
  if (!DTYPE_INFO[dtype])
    throw new InvalidArgumentError('unknown dtype', { op: 'tensor', arg: 'dtype', got: dtype });
  let t = Tensor.empty(shape, dtype, 'cpu');
  const arr = t.storage.data!;
  const write = numberWriter(dtype);
  const complex = DTYPE_INFO[dtype].kind === 'complex';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (dtype === 'int64' && (typeof v === 'bigint' || (v instanceof Scalar && v.kind === 'int'))) {
      (arr as BigInt64Array)[i] = BigInt.asIntN(64, typeof v === 'bigint' ? v : v.toBigInt());
    } else if (complex && v instanceof Scalar) {
      arr[2 * i] = v.toNumber();
      arr[2 * i + 1] = v.imag;
    } else {
      write(arr, i, v instanceof Scalar ? v.toNumber() : typeof v === 'boolean' ? (v ? 1 : 0) : Number(v));
    }
  }
  const device = options.device ? parseDevice(options.device) : 'cpu';
  if (device !== 'cpu') t = callOp('to', [t, device]) as Tensor;
  if (options.requiresGrad) t.requiresGrad_(true);
  return t;
}

/** A tensor viewing an existing typed array of the dtype's storage type (no copy). */
export function fromArray(
  data: Tensor['storage']['data'] & object,
  shape: readonly number[],
  dtype: DType,
): Tensor {
  const t = Tensor.empty(shape, dtype, 'cpu');
  const need = t.storage.data!.length;
  if (data.length < need)
    throw new ShapeMismatchError('array too small for shape', {
      op: 'fromArray',
      arg: 'data',
      got: data.length,
      expected: need,
    });
  t.storage.data = data;
  return t;
}
