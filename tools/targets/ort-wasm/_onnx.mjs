// A minimal ONNX ModelProto encoder (protobuf wire format), enough for one node: what the ort-wasm bug scripts
// build their single-node graphs with, so each script uses only onnxruntime-web's public API besides it.
const te = new TextEncoder();
const varint = (v) => {
  const o = [];
  let x = BigInt.asUintN(64, BigInt(v));
  while (x >= 0x80n) {
    o.push(Number(x & 0x7fn) | 0x80);
    x >>= 7n;
  }
  o.push(Number(x));
  return o;
};
const key = (f, w) => varint((f << 3) | w);
const int = (f, v) => [...key(f, 0), ...varint(v)];
const bytes = (f, b) => [...key(f, 2), ...varint(b.length), ...b];
const str = (f, s) => bytes(f, [...te.encode(s)]);
const f32 = (f, v) => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setFloat32(0, v, true);
  return [...key(f, 5), ...b];
};
// attrs: { name: int | [ints] | { f: float } | string }
const attr = (name, v) =>
  typeof v === 'number'
    ? [...str(1, name), ...int(20, 2), ...int(3, v)]
    : typeof v === 'string'
      ? [...str(1, name), ...int(20, 3), ...str(4, v)]
      : Array.isArray(v)
        ? [...str(1, name), ...int(20, 7), ...v.flatMap((x) => int(8, x))]
        : [...str(1, name), ...int(20, 1), ...f32(2, v.f)];
// ValueInfo with elem type (1 float, 7 int64) and fixed dims; elem 0: untyped output.
const value = (name, elem, dims) => [
  ...str(1, name),
  ...(elem
    ? bytes(
        2,
        bytes(1, [
          ...int(1, elem),
          ...bytes(
            2,
            dims.flatMap((d) => bytes(1, int(1, d))),
          ),
        ]),
      )
    : []),
];
export function model({ op, inputs, outputs, attrs = {}, opset = 21 }) {
  const node = [
    ...inputs.flatMap(([n]) => str(1, n)),
    ...outputs.flatMap((n) => str(2, n)),
    ...str(4, op),
    ...Object.entries(attrs).flatMap(([k, v]) => bytes(5, attr(k, v))),
  ];
  const graph = [
    ...bytes(1, node),
    ...str(2, 'g'),
    ...inputs.flatMap(([n, e, d]) => bytes(11, value(n, e, d))),
    ...outputs.flatMap((n) => bytes(12, value(n, 0, []))),
  ];
  return new Uint8Array([...int(1, 8), ...bytes(7, graph), ...bytes(8, [...str(1, ''), ...int(2, opset)])]);
}
