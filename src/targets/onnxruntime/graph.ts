/**
 * The target's tensors: a value on the host (an input) or an output of an ONNX node built by an op row. A row
 * builds its node(s) from its inputs; reading an output back compiles the nodes behind it into one small ONNX
 * graph (usually a single node: a row's glue, such as a Cast or the Mul of an alpha, adds one or two), whose host
 * values (inputs and constants alike) are fed, so one session serves every call of the same structure.
 */
import type { DType } from '../../runtime/index.ts';
import { NotExpressible } from '../target.ts';
import { type AttrValue, ELEM } from './onnx_proto.ts';

type HostData = ArrayLike<number> | ArrayLike<bigint>;

/** A value on the host: a tensor the call passed, or a constant a row made. */
export interface Leaf {
  readonly kind: 'leaf';
  readonly dtype: DType;
  readonly shape: readonly number[];
  readonly data: HostData;
}

/** An ONNX node a row built: its op, its inputs (null: an optional input left out) and its attributes. */
export interface GNode {
  readonly op: string;
  readonly inputs: readonly (OrtT | null)[];
  readonly attrs: Readonly<Record<string, AttrValue>>;
  readonly outputs: number;
  /** The node's outputs once its graph ran (set by the adapter). */
  ran?: Promise<readonly Leaf[]>;
}

/** One output of a node, with its dtype and rank when the row knows them. */
export interface Out {
  readonly kind: 'out';
  readonly node: GNode;
  readonly index: number;
  readonly dtype?: DType;
  readonly rank?: number;
}

export type OrtT = Leaf | Out;

export const isOrtT = (x: unknown): x is OrtT =>
  typeof x === 'object' && x !== null && ((x as OrtT).kind === 'leaf' || (x as OrtT).kind === 'out');

export interface Meta {
  readonly dtype?: DType;
  readonly rank?: number;
}

/** A node with `n` outputs (their dtype/rank as the row knows them). */
export function nodeN(
  op: string,
  inputs: readonly (OrtT | null)[],
  attrs: Readonly<Record<string, AttrValue>> = {},
  metas: readonly Meta[] = [{}],
): Out[] {
  const node: GNode = { op, inputs, attrs, outputs: metas.length };
  return metas.map((m, index) => ({ kind: 'out', node, index, ...m }));
}

/** A single-output node. */
export const node = (
  op: string,
  inputs: readonly (OrtT | null)[],
  attrs: Readonly<Record<string, AttrValue>> = {},
  meta: Meta = {},
): Out => nodeN(op, inputs, attrs, [meta])[0];

export function dtypeOf(x: OrtT): DType {
  if (x.dtype === undefined) throw new Error(`onnxruntime row: the dtype of a ${x.kind} is not known`);
  return x.dtype;
}

export function rankOf(x: OrtT): number {
  const r = x.kind === 'leaf' ? x.shape.length : x.rank;
  if (r === undefined) throw new Error('onnxruntime row: the rank of a node output is not known');
  return r;
}

export function shapeOf(x: OrtT): readonly number[] {
  if (x.kind !== 'leaf') throw new Error('onnxruntime row: the shape of a node output is not known');
  return x.shape;
}

/** A constant fed to the graph as an input. */
export function konst(values: readonly (number | bigint)[], dtype: DType, shape?: readonly number[]): Leaf {
  const dims = shape ?? [values.length];
  if (dtype === 'int64') return { kind: 'leaf', dtype, shape: dims, data: BigInt64Array.from(values, int64) };
  if (dtype === 'float32')
    return { kind: 'leaf', dtype, shape: dims, data: Float32Array.from(values, Number) };
  if (dtype === 'float64')
    return { kind: 'leaf', dtype, shape: dims, data: Float64Array.from(values, Number) };
  if (dtype === 'int32') return { kind: 'leaf', dtype, shape: dims, data: Int32Array.from(values, Number) };
  if (dtype === 'bool')
    return { kind: 'leaf', dtype, shape: dims, data: Uint8Array.from(values, (v) => (v ? 1 : 0)) };
  if (dtype === 'uint8') return { kind: 'leaf', dtype, shape: dims, data: Uint8Array.from(values, Number) };
  if (dtype === 'int8') return { kind: 'leaf', dtype, shape: dims, data: Int8Array.from(values, Number) };
  if (dtype === 'int16') return { kind: 'leaf', dtype, shape: dims, data: Int16Array.from(values, Number) };
  throw new NotExpressible(`a ${dtype} constant`);
}

/** A number as an int64, saturated (2 ** 63 as a double is past INT64_MAX). */
const int64 = (v: number | bigint): bigint => {
  const b = BigInt(v);
  const [lo, hi] = [-(2n ** 63n), 2n ** 63n - 1n];
  return b > hi ? hi : b < lo ? lo : b;
};

/** A 0-dim constant of `dtype`. */
export const scalar = (v: number, dtype: DType): Leaf => konst([v], dtype, []);

/** An int64 vector (axes, shapes, pads, k). */
export const ints = (v: readonly number[]): Leaf => konst(v, 'int64');

/** A host value as a TENSOR attribute (ConstantOfShape's value). */
export function tensorAttr(l: Leaf): AttrValue {
  const a = l.data as unknown as ArrayBufferView;
  return {
    tensor: {
      name: 'value',
      elem: ELEM[l.dtype as keyof typeof ELEM],
      dims: [...l.shape],
      raw: new Uint8Array(a.buffer, a.byteOffset, a.byteLength),
    },
  };
}
