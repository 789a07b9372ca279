/**
 * A minimal ONNX ModelProto encoder (protobuf wire format, written by hand): only the fields a single-node graph
 * needs. Field numbers are onnx.proto's (onnx/onnx.proto, IR version 8).
 */

/** ONNX TensorProto.DataType codes. */
export const ELEM = {
  float32: 1,
  uint8: 2,
  int8: 3,
  uint16: 4,
  int16: 5,
  int32: 6,
  int64: 7,
  string: 8,
  bool: 9,
  float16: 10,
  float64: 11,
  uint32: 12,
  uint64: 13,
} as const;

/** An attribute value: a number is an int unless `float` marks it; arrays likewise; a string is bytes. */
export type AttrValue =
  | number
  | string
  | readonly number[]
  | { readonly float: number }
  | { readonly floats: readonly number[] }
  | { readonly tensor: Initializer };

export interface NodeSpec {
  readonly op: string;
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  readonly attrs?: Readonly<Record<string, AttrValue>>;
  readonly domain?: string;
}

export interface ValueSpec {
  readonly name: string;
  /** 0: no type given (a graph output whose type the runtime infers). */
  readonly elem: number;
  /** The dims (null: the shape is unknown, none given). */
  readonly shape: readonly number[] | null;
}

export interface Initializer {
  readonly name: string;
  readonly elem: number;
  readonly dims: readonly number[];
  /** The values, little-endian in the element type (raw_data). */
  readonly raw: Uint8Array;
}

export interface GraphSpec {
  readonly nodes: readonly NodeSpec[];
  readonly inputs: readonly ValueSpec[];
  readonly outputs: readonly ValueSpec[];
  readonly initializers?: readonly Initializer[];
  readonly opset: number;
}

class Writer {
  readonly bytes: number[] = [];
  varint(v: number | bigint): this {
    let x = BigInt.asUintN(64, BigInt(v));
    while (x >= 0x80n) {
      this.bytes.push(Number(x & 0x7fn) | 0x80);
      x >>= 7n;
    }
    this.bytes.push(Number(x));
    return this;
  }
  tag(field: number, wire: number): this {
    return this.varint((field << 3) | wire);
  }
  int(field: number, v: number): this {
    return this.tag(field, 0).varint(v);
  }
  float(field: number, v: number): this {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, v, true);
    this.tag(field, 5).bytes.push(...b);
    return this;
  }
  raw(field: number, b: ArrayLike<number>): this {
    this.tag(field, 2).varint(b.length);
    for (let i = 0; i < b.length; i++) this.bytes.push(b[i]);
    return this;
  }
  str(field: number, s: string): this {
    return this.raw(field, new TextEncoder().encode(s));
  }
  msg(field: number, build: (w: Writer) => void): this {
    const w = new Writer();
    build(w);
    return this.raw(field, w.bytes);
  }
}

// AttributeProto.AttributeType
const A_FLOAT = 1;
const A_INT = 2;
const A_STRING = 3;
const A_TENSOR = 4;
const A_FLOATS = 6;
const A_INTS = 7;

function attribute(w: Writer, name: string, v: AttrValue): void {
  w.str(1, name);
  if (typeof v === 'number') w.int(20, A_INT).int(3, v);
  else if (typeof v === 'string') w.int(20, A_STRING).str(4, v);
  else if (Array.isArray(v)) {
    w.int(20, A_INTS);
    for (const x of v as number[]) w.int(8, x);
  } else if ('tensor' in (v as object)) {
    const tensor = (v as { tensor: Initializer }).tensor;
    w.int(20, A_TENSOR).msg(5, (x) => initializer(x, tensor));
  } else if ('float' in (v as object)) w.int(20, A_FLOAT).float(2, (v as { float: number }).float);
  else {
    w.int(20, A_FLOATS);
    for (const x of (v as { floats: number[] }).floats) w.float(7, x);
  }
}

function valueInfo(w: Writer, v: ValueSpec): void {
  w.str(1, v.name);
  if (v.elem === 0) return; // no type: the runtime infers it
  // TypeProto { tensor_type (1): Tensor { elem_type (1), shape (2): { dim (1): { dim_value (1) } } } }
  w.msg(2, (type) =>
    type.msg(1, (tt) => {
      tt.int(1, v.elem);
      const dims = v.shape;
      if (dims !== null)
        tt.msg(2, (shape) => {
          for (const n of dims) shape.msg(1, (d) => d.int(1, n));
        });
    }),
  );
}

function initializer(w: Writer, t: Initializer): void {
  for (const d of t.dims) w.int(1, d);
  w.int(2, t.elem);
  w.str(8, t.name);
  w.raw(9, t.raw);
}

/** The graph as ModelProto bytes (ir_version 8, one opset import for the default domain). */
export function encodeModel(g: GraphSpec): Uint8Array {
  const m = new Writer();
  m.int(1, 8); // ir_version
  m.str(2, 'opgate'); // producer_name
  m.msg(7, (graph) => {
    for (const n of g.nodes)
      graph.msg(1, (node) => {
        for (const i of n.inputs) node.str(1, i);
        for (const o of n.outputs) node.str(2, o);
        node.str(4, n.op);
        if (n.domain) node.str(7, n.domain);
        for (const [k, v] of Object.entries(n.attrs ?? {})) node.msg(5, (a) => attribute(a, k, v));
      });
    graph.str(2, 'g');
    for (const t of g.initializers ?? []) graph.msg(5, (w) => initializer(w, t));
    for (const v of g.inputs) graph.msg(11, (w) => valueInfo(w, v));
    for (const v of g.outputs) graph.msg(12, (w) => valueInfo(w, v));
  });
  m.msg(8, (op) => op.str(1, '').int(2, g.opset)); // opset_import
  return new Uint8Array(m.bytes);
}
