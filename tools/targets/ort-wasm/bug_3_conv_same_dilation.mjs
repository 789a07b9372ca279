// onnxruntime-web 1.31.1 (wasm EP): Conv with auto_pad='SAME_UPPER' (or SAME_LOWER) and a dilation > 1 is refused
// at run time ("Dilation not supported for AutoPadType::SAME_UPPER or SAME_LOWER"). The ONNX Conv spec defines
// SAME_* padding for any dilation (the output is ceil(input / stride); the padding follows from the dilated
// kernel), and the same conv with the explicit pads that SAME_UPPER means runs fine. PyTorch's
// conv1d(x, w, padding='same', dilation=2) runs.
// Run: node tools/targets/ort-wasm/bug_3_conv_same_dilation.mjs
import * as ort from 'onnxruntime-web';

// --- a minimal ONNX ModelProto encoder (protobuf wire format), enough for one node ---
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
function model({ op, inputs, outputs, attrs = {}, opset = 21 }) {
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
// ---
ort.env.wasm.numThreads = 1;
const x = new ort.Tensor('float32', Float32Array.from([1, 2, 3, 4, 5]), [1, 1, 5]);
const w = new ort.Tensor('float32', Float32Array.from([1, 10]), [1, 1, 2]);
const conv = async (attrs) => {
  const s = await ort.InferenceSession.create(
    model({
      op: 'Conv',
      inputs: [
        ['x', 1, [1, 1, 5]],
        ['w', 1, [1, 1, 2]],
      ],
      outputs: ['y'],
      attrs,
    }),
    { executionProviders: ['wasm'], logSeverityLevel: 3 },
  );
  return Array.from((await s.run({ x, w })).y.data);
};
// dilation 2, kernel 2: the dilated kernel spans 3, so SAME_UPPER pads 1 at the start and 1 at the end.
console.log('explicit pads [1, 1]       :', await conv({ dilations: [2], pads: [1, 1] }));
try {
  console.log("auto_pad 'SAME_UPPER'      :", await conv({ dilations: [2], auto_pad: 'SAME_UPPER' }));
} catch (e) {
  console.log("auto_pad 'SAME_UPPER' refused:", String(e.message).split('Status Message: ')[1] ?? e.message);
}
console.log("expected (PyTorch conv1d(x, w, padding='same', dilation=2)): [ 20, 31, 42, 53, 4 ]");
