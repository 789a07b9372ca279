// onnxruntime-web 1.31.1 (wasm EP): ReduceMax / ReduceMin ignore a NaN unless it is the first element, so the
// result depends on where the NaN sits: the reduction is not invariant to the order of its inputs.
// ONNX ReduceMax: "Computes the max of the input tensor's elements along the provided axes" -- a max over a set,
// order-free. PyTorch (torch.amax / torch.max) and NumPy (np.max) return NaN whenever any element is NaN.
// Run: node tools/targets/ort-wasm/bug_1_reducemax_nan.mjs
import * as ort from 'onnxruntime-web';
import { model } from './_onnx.mjs';

ort.env.wasm.numThreads = 1;
for (const op of ['ReduceMax', 'ReduceMin']) {
  const s = await ort.InferenceSession.create(
    model({ op, inputs: [['x', 1, [4]]], outputs: ['y'], attrs: { keepdims: 0 } }),
    { executionProviders: ['wasm'] },
  );
  for (const x of [
    [NaN, 1, 2, 3],
    [1, NaN, 2, 3],
    [1, 2, 3, NaN],
  ]) {
    const { y } = await s.run({ x: new ort.Tensor('float32', Float32Array.from(x), [4]) });
    console.log(
      `${op}([${x}]) = ${y.data[0]}   expected NaN (PyTorch torch.${op === 'ReduceMax' ? 'amax' : 'amin'}, numpy)`,
    );
  }
}
