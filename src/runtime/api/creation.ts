/**
 * `tensor(data, {dtype, device, requiresGrad})`: builds a tensor from nested JS arrays. Dtype inference follows
 * the documented scalar default (core/scalar.ts): all booleans -> bool; all int numbers / bigints -> int64; any
 * other number -> the default float dtype; a complex Scalar -> complex64. Pass `dtype` to choose explicitly.
 * Data must be rectangular, at most 128 deep (torch.tensor's MAX_DIMS) and numeric: a string, null, object or
 * function anywhere is E_INVALID_ARGUMENT naming its path (`data[1][0]`).
 */

import { numberWriter } from '../backends/cpu/index.ts';
import {
  checkedNumel,
  checkSizes,
  contiguousStrides,
  DTYPE_INFO,
  type DType,
  getDefaultDType,
  InvalidArgumentError,
  isDType,
  isIntNumber,
  MAX_TENSOR_DATA_DIMS,
  parseDevice,
  Scalar,
  ShapeMismatchError,
  Storage,
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

type Leaf = number | bigint | boolean | Scalar;

const isLeaf = (v: unknown): v is Leaf =>
  typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean' || v instanceof Scalar;

const pathOf = (idx: readonly number[]): string => `data${idx.map((i) => `[${i - 1}]`).join('')}`;

function kindName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `a sequence of length ${v.length}`;
  if (v instanceof Tensor) return 'a Tensor (use clone() or stack())';
  if (typeof v === 'object') return `an object (${Object.prototype.toString.call(v).slice(8, -1)})`;
  return typeof v === 'string' ? `a string '${v.length > 20 ? `${v.slice(0, 20)}...` : v}'` : typeof v;
}

function badElement(v: unknown, idx: readonly number[]): InvalidArgumentError {
  return new InvalidArgumentError(`Could not infer dtype of ${kindName(v)} at ${pathOf(idx)}`, {
    op: 'tensor',
    arg: 'data',
    got: `${kindName(v)} at ${pathOf(idx)}`,
    expected: 'a number, bigint, boolean, Scalar or a nested sequence of them',
  });
}

/** The shape the first element at each depth implies (PyTorch's compute_sizes); collect() checks the rest. */
function inferShape(data: unknown): number[] {
  const shape: number[] = [];
  let d = data;
  while (Array.isArray(d)) {
    if (shape.length >= MAX_TENSOR_DATA_DIMS)
      throw new InvalidArgumentError(`too many dimensions (more than ${MAX_TENSOR_DATA_DIMS})`, {
        op: 'tensor',
        arg: 'data',
        got: `nesting deeper than ${MAX_TENSOR_DATA_DIMS}`,
        expected: `at most ${MAX_TENSOR_DATA_DIMS} dimensions`,
      });
    shape.push(d.length);
    if (d.length === 0) break;
    d = d[0];
  }
  return shape;
}

/**
 * The leaves of `data` in row-major order, checking every sequence against `shape` (ragged data is
 * E_SHAPE_MISMATCH) and every leaf (anything but a number, bigint, boolean or Scalar is E_INVALID_ARGUMENT).
 * Iterative with an explicit stack: each node is visited once, whatever the depth.
 */
function collect(data: unknown, shape: readonly number[]): Leaf[] {
  if (shape.length === 0) {
    if (!isLeaf(data)) throw badElement(data, []);
    return [data];
  }
  const out: Leaf[] = [];
  const nodes: unknown[][] = [data as unknown[]];
  const idx: number[] = [0];
  while (nodes.length > 0) {
    const depth = nodes.length - 1;
    const node = nodes[depth];
    const i = idx[depth];
    if (i === node.length) {
      nodes.pop();
      idx.pop();
      continue;
    }
    idx[depth] = i + 1;
    const child = node[i];
    if (depth + 1 < shape.length) {
      if (!Array.isArray(child) || child.length !== shape[depth + 1]) {
        if (!Array.isArray(child) && !isLeaf(child)) throw badElement(child, idx);
        throw new ShapeMismatchError(
          `expected sequence of length ${shape[depth + 1]} at dim ${depth + 1} (got ${Array.isArray(child) ? child.length : 'a scalar'}) at ${pathOf(idx)}`,
          {
            op: 'tensor',
            arg: 'data',
            got: `${kindName(child)} at ${pathOf(idx)}`,
            expected: `a sequence of length ${shape[depth + 1]}`,
          },
        );
      }
      nodes.push(child);
      idx.push(0);
    } else if (isLeaf(child)) out.push(child);
    else if (Array.isArray(child))
      throw new ShapeMismatchError(
        `expected a scalar at dim ${depth + 1}, got a sequence at ${pathOf(idx)}`,
        {
          op: 'tensor',
          arg: 'data',
          got: `${kindName(child)} at ${pathOf(idx)}`,
          expected: 'a scalar (the data is not rectangular)',
        },
      );
    else throw badElement(child, idx);
  }
  return out;
}

function inferDType(values: readonly Leaf[]): DType {
  let kind = 0; // 0 bool, 1 int, 2 float, 3 complex
  if (values.length === 0) return getDefaultDType();
  for (const v of values) {
    const k =
      typeof v === 'boolean'
        ? 0
        : typeof v === 'bigint'
          ? 1
          : typeof v === 'number'
            ? isIntNumber(v)
              ? 1
              : 2
            : SCALAR_KIND_RANK[v.kind];
    if (k > kind) kind = k;
  }
  return (['bool', 'int64', getDefaultDType(), toComplexDType(getDefaultDType())] as DType[])[kind];
}

const SCALAR_KIND_RANK = { bool: 0, int: 1, float: 2, complex: 3 } as const;

function checkOptions(options: unknown): TensorOptions {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || Array.isArray(options) || options instanceof Tensor)
    throw new InvalidArgumentError('options must be an object {dtype, device, requiresGrad}', {
      op: 'tensor',
      arg: 'options',
      got: kindName(options),
      expected: 'an object',
    });
  const o = options as TensorOptions;
  if (o.dtype !== undefined && o.dtype !== null && !isDType(o.dtype))
    throw new InvalidArgumentError('unknown dtype', {
      op: 'tensor',
      arg: 'dtype',
      got: typeof o.dtype === 'string' ? o.dtype : kindName(o.dtype),
      expected: 'a dtype name',
    });
  if (o.requiresGrad !== undefined && typeof o.requiresGrad !== 'boolean')
    throw new InvalidArgumentError('requiresGrad must be a boolean', {
      op: 'tensor',
      arg: 'requiresGrad',
      got: kindName(o.requiresGrad),
      expected: 'a boolean',
    });
  return o;
}

export function tensor(data: NestedData, options: TensorOptions = {}): Tensor {
  const opts = checkOptions(options);
  const device =
    opts.device !== undefined && opts.device !== null ? parseDevice(opts.device, 'tensor') : 'cpu';
  const shape = inferShape(data);
  const values = collect(data, shape);
  const dtype = opts.dtype ?? inferDType(values);
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
  if (device !== 'cpu') t = callOp('to', [t, device]) as Tensor;
  if (opts.requiresGrad) t.requiresGrad_(true);
  return t;
}

/** A tensor viewing an existing typed array of the dtype's storage type (no copy). */
export function fromArray(
  data: Tensor['storage']['data'] & object,
  shape: readonly number[],
  dtype: DType,
): Tensor {
  const op = 'fromArray';
  if (!isDType(dtype))
    throw new InvalidArgumentError('unknown dtype', { op, arg: 'dtype', got: kindName(dtype) });
  if (!Array.isArray(shape))
    throw new InvalidArgumentError('shape must be an array of sizes', {
      op,
      arg: 'shape',
      got: kindName(shape),
    });
  checkSizes(shape, op, 'shape');
  const numel = checkedNumel(shape, op, 'shape');
  const info = DTYPE_INFO[dtype];
  if (!(data instanceof info.storage))
    throw new InvalidArgumentError(`${dtype} data must be a ${info.storage.name}`, {
      op,
      arg: 'data',
      got: kindName(data),
      expected: info.storage.name,
    });
  const need = numel * info.lanes;
  if (data.length < need)
    throw new ShapeMismatchError('array too small for shape', {
      op,
      arg: 'data',
      got: data.length,
      expected: need,
    });
  return new Tensor(new Storage(dtype, 'cpu', numel, data), [...shape], contiguousStrides(shape), 0);
}
