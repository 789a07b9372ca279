/**
 * scatter: src / value overloads, the deprecated reduce='add'|'multiply' forms, their in-place variants and
 * out= overloads. The output starts as a copy of self (skipped in place); then each index element writes
 * (or reduces) its src element / value into the output along `dim`. On webgpu (backends/webgpu scatter.ts) one
 * thread per index line applies the same writes in the same order, so duplicate indices resolve like the cpu;
 * an out-of-range index is skipped there (the E_INDEX_OUT_OF_RANGE check reads index values: cpu-only). On cpu
 * every check runs before the first write, so a raising scatter_ / scatter(out=) leaves self / out untouched.
 */

import { copyInto, elementCopier, forEachLine } from '../../backends/cpu/index.ts';
import { scatterGPU } from '../../backends/webgpu/index.ts';
import {
  bf16BitsToNumber,
  contiguousStrides,
  DTYPE_INFO,
  type DType,
  DTypeUnsupportedError,
  f16BitsToNumber,
  InvalidArgumentError,
  numberToBf16Bits,
  numberToF16Bits,
  type Scalar,
  ShapeMismatchError,
  type StorageArray,
  Tensor,
  wrapDim,
} from '../../core/index.ts';
import { type ApiDecl, type BoundArgs, operatorTable } from '../../dispatch/index.ts';
import {
  asScalar,
  checkIndexLines,
  defineOut,
  type ElementValue,
  indexReader,
  nonEmptyShape,
  scalarTo,
} from '../op_helpers.ts';
import { defineStructured, type OutSpec } from '../structured.ts';

const tags = { family: 'index' };

type Reduce = 'none' | 'add' | 'multiply';

/**
 * The src tensor, or null for the value overloads. A Python number passed as `src` arrives as a wrapped-number
 * tensor (the binder tries scatter.src first); PyTorch's parser would have picked scatter.value, so it is one.
 */
function srcOf(args: BoundArgs): Tensor | null {
  const src = args.src;
  return src instanceof Tensor && !src.isWrappedNumber ? src : null;
}
const scatterValue = (args: BoundArgs): Scalar => asScalar((args.value ?? args.src) as Scalar | Tensor);

function reduceOf(args: BoundArgs, op: string): Reduce {
  const r = args.reduce as string | undefined;
  if (r === undefined) return 'none';
  if (r === 'add' || r === 'multiply') return r;
  throw new InvalidArgumentError('reduce argument must be either add or multiply.', {
    op,
    arg: 'reduce',
    got: r,
    expected: 'add or multiply',
  });
}

/** scatter_meta_impl: dtype checks, scatter_shape_check, reduce validation; the output is self-shaped. */
function scatterMeta(args: BoundArgs, op: string): OutSpec {
  const self = args.self as Tensor;
  const index = args.index as Tensor;
  const src = srcOf(args);
  const dim = wrapDim(args.dim as number, self.ndim, op);
  if (index.numel !== 0 && index.dtype !== 'int64') {
    throw new DTypeUnsupportedError('scatter(): Expected dtype int64 for index', {
      op,
      arg: 'index',
      got: index.dtype,
      expected: 'int64',
    });
  }
  if (src && src.dtype !== self.dtype) {
    throw new DTypeUnsupportedError('scatter(): Expected self.dtype to be equal to src.dtype', {
      op,
      arg: 'src',
      got: src.dtype,
      expected: self.dtype,
    });
  }
  if (index.numel !== 0) {
    const s = nonEmptyShape(self).shape;
    const ix = nonEmptyShape(index).shape;
    if (s.length !== ix.length) {
      throw new ShapeMismatchError('Index tensor must have the same number of dimensions as self tensor', {
        op,
        arg: 'index',
        got: index.ndim,
        expected: self.ndim,
      });
    }
    let wrong = ix.some((n, d) => d !== dim && n > s[d]);
    if (src) {
      const sr = nonEmptyShape(src).shape;
      wrong ||= ix.some((n, d) => n > (sr[d] ?? 1));
      if (sr.length !== ix.length) {
        throw new ShapeMismatchError('Index tensor must have the same number of dimensions as src tensor', {
          op,
          arg: 'src',
          got: src.ndim,
          expected: index.ndim,
        });
      }
    }
    if (wrong) {
      const tail = src ? ` and to be smaller size than src [${src.shape.join(', ')}]` : '';
      throw new ShapeMismatchError(
        `Expected index [${index.shape.join(', ')}] to be smaller than self [${self.shape.join(', ')}] apart from dimension ${dim}${tail}`,
        {
          op,
          arg: 'index',
          got: [...index.shape],
          expected: `<= [${self.shape.join(', ')}] apart from dim ${dim}`,
        },
      );
    }
  }
  reduceOf(args, op);
  return { shape: self.shape, dtype: self.dtype, strides: contiguousStrides(self.shape) };
}

/** out[t] = combine(out[t], src element or value), per compute domain of the dtype. */
type Combine = (a: StorageArray, t: number, b: StorageArray | null, s: number) => void;

function combiner(reduce: Reduce, t: Tensor, value: ElementValue | null): Combine {
  const dtype = t.dtype;
  const kind = DTYPE_INFO[dtype].kind;
  if (reduce === 'none') {
    if (value === null) return elementCopier(dtype) as Combine;
    if (Array.isArray(value)) {
      return (a, i) => {
        a[2 * i] = value[0];
        a[2 * i + 1] = value[1];
      };
    }
    const stored = storedValue(t, value);
    return (a, i) => {
      a[i] = stored;
    };
  }
  const add = reduce === 'add';
  if (kind === 'complex') {
    const v = value as [number, number] | null;
    return (a, i, b, s) => {
      const [br, bi] = v ?? [b![2 * s] as number, b![2 * s + 1] as number];
      const [ar, ai] = [a[2 * i] as number, a[2 * i + 1] as number];
      a[2 * i] = add ? ar + br : ar * br - ai * bi;
      a[2 * i + 1] = add ? ai + bi : ar * bi + ai * br;
    };
  }
  if (dtype === 'int64') {
    const v = value as bigint | null;
    return (a, i, b, s) => {
      const x = v ?? (b![s] as bigint);
      a[i] = add ? (a[i] as bigint) + x : (a[i] as bigint) * x;
    };
  }
  // Stores into the typed array wrap ints and round float32; float16/bfloat16 go through their bit codecs.
  const read = DTYPE_INFO[dtype].storage === Uint16Array ? halfCodec(dtype) : null;
  const intLike = kind !== 'float';
  const op = add ? (x: number, y: number) => x + y : intLike ? Math.imul : (x: number, y: number) => x * y;
  const v = value as number | null;
  if (read) {
    return (a, i, b, s) => {
      a[i] = read.encode(op(read.decode(a[i] as number), v ?? read.decode(b![s] as number)));
    };
  }
  if (dtype === 'bool') {
    return (a, i, b, s) => {
      a[i] = op(a[i] as number, v ?? (b![s] as number)) !== 0 ? 1 : 0;
    };
  }
  return (a, i, b, s) => {
    a[i] = op(a[i] as number, v ?? (b![s] as number));
  };
}

function halfCodec(dtype: string) {
  return dtype === 'float16'
    ? { decode: f16BitsToNumber, encode: numberToF16Bits }
    : { decode: bf16BitsToNumber, encode: numberToBf16Bits };
}

/** The raw array element that represents `value` in the tensor's storage (half types as bit patterns). */
function storedValue(t: Tensor, value: ElementValue): number | bigint {
  if (t.dtype === 'float16') return numberToF16Bits(value as number);
  if (t.dtype === 'bfloat16') return numberToBf16Bits(value as number);
  return value as number | bigint;
}

function scatterImpl(args: BoundArgs, out: Tensor, op: string): void {
  const self = args.self as Tensor;
  const index = args.index as Tensor;
  const src = srcOf(args);
  const dim = wrapDim(args.dim as number, self.ndim);
  const reduce = reduceOf(args, op);
  if (index.numel === 0) {
    // PyTorch converts the value only when there is something to scatter.
    if (out !== self) copyInto(out, self);
    return;
  }
  // Every check (the value's conversion, the index range) before the first write, self's copy included.
  const value = src ? null : scalarTo(scatterValue(args), out.dtype, op);
  const o = nonEmptyShape(out);
  const size = o.shape[dim];
  checkIndexLines(index, dim, size, op);
  if (out !== self) copyInto(out, self);
  const combine = combiner(reduce, out, value);
  const ix = nonEmptyShape(index);
  const sr = src ? nonEmptyShape(src) : { shape: ix.shape, strides: ix.shape.map(() => 0) };
  const read = indexReader(index);
  const a = out.storage.data!;
  const b = src ? src.storage.data! : null;
  const [od, id, sd] = [o.strides[dim], ix.strides[dim], sr.strides[dim]];
  forEachLine(
    ix.shape,
    dim,
    [ix.strides, o.strides, sr.strides],
    [index.storageOffset, out.storageOffset, src?.storageOffset ?? 0],
    (offs) => {
      for (let i = 0; i < ix.shape[dim]; i++)
        combine(a, offs[1] + read(offs[0] + i * id) * od, b, offs[2] + i * sd);
    },
  );
}

/** The webgpu scatter: a scalar value travels as an uploaded 0-dim tensor of out's dtype, read with stride 0. */
function scatterWebGPU(args: BoundArgs, out: Tensor, op: string): void {
  const self = args.self as Tensor;
  const index = args.index as Tensor;
  const src = srcOf(args);
  const dim = wrapDim(args.dim as number, self.ndim);
  const reduce = reduceOf(args, op);
  const ix = nonEmptyShape(index);
  const [from, strides] = src
    ? [src, nonEmptyShape(src).strides]
    : [hostElement(scalarTo(scatterValue(args), out.dtype, op), out.dtype), ix.shape.map(() => 0)];
  scatterGPU(out, self, index, from, strides, dim, reduce);
}

/** A 0-dim cpu tensor of `dtype` holding `value` (already converted to the dtype's domain). */
export function hostElement(value: ElementValue, dtype: DType): Tensor {
  const t = Tensor.empty([], dtype, 'cpu');
  (t.storage.data as unknown as ElementValue[])[0] = value;
  return t;
}

/** The Python variants of the ops registered here (native_functions.yaml's `variants`; see dispatch/variants.ts). */
export const SCATTER_API = {
  scatter: 'function, method',
  scatter_: 'method',
} as const satisfies ApiDecl;

export function registerScatter(): void {
  const overloads = [
    ['src', 'Tensor src', ''],
    ['value', 'Scalar value', ''],
    ['reduce', 'Tensor src', ', *, str reduce'],
    ['value_reduce', 'Scalar value', ', *, str reduce'],
  ] as const;
  for (const [name, last, tail] of overloads) {
    const params = `Tensor self, int dim, Tensor index, ${last}${tail}`;
    defineStructured({
      schema: `scatter.${name}(${params}) -> Tensor`,
      tags,
      inplace: true,
      out: false,
      meta: scatterMeta,
      impl: { cpu: scatterImpl, webgpu: scatterWebGPU },
    });
    const outParams = tail ? `${params}, Tensor(a!) out` : `${params}, *, Tensor(a!) out`;
    defineOut(
      `scatter.${name}_out(${outParams}) -> Tensor(a!)`,
      tags,
      scatterMeta,
      { cpu: scatterImpl, webgpu: scatterWebGPU },
      'exact',
    );
  }
  operatorTable.declare(SCATTER_API);
}
