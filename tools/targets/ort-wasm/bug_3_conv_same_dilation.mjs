// onnxruntime-web 1.31.1 (wasm EP): Conv with auto_pad='SAME_UPPER' (or SAME_LOWER) and a dilation > 1 is refused
// at run time ("Dilation not supported for AutoPadType::SAME_UPPER or SAME_LOWER"). The ONNX Conv spec defines
// SAME_* padding for any dilation (the output is ceil(input / stride); the padding follows from the dilated
// kernel), and the same conv with the explicit pads that SAME_UPPER means runs fine. PyTorch's
// conv1d(x, w, padding='same', dilation=2) runs.
// Run: node tools/targets/ort-wasm/bug_3_conv_same_dilation.mjs
import * as ort from 'onnxruntime-web';
import { model } from './_onnx.mjs';

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
