// onnxruntime-web 1.31.1 (wasm EP): LRN refuses an even `size` when the session is created
// ("size_ % 2 == 1 was false"). The ONNX LRN spec allows any size >= 1 and defines the window for even sizes
// explicitly: square_sum[n, c] sums over c' in [max(0, c - floor((size - 1) / 2)), min(C - 1, c + ceil((size - 1) / 2))].
// PyTorch's torch.nn.functional.local_response_norm(x, size=2) runs too.
// Run: node tools/targets/ort-wasm/bug_2_lrn_even_size.mjs
import * as ort from 'onnxruntime-web';
import { model } from './_onnx.mjs';

ort.env.wasm.numThreads = 1;
// x: N=1, C=2, 1x1: with size=2 the spec's window for c=0 is channels [0, 1], for c=1 channel [1].
const x = new ort.Tensor('float32', Float32Array.from([1, 2]), [1, 2, 1, 1]);
const [alpha, beta, bias, size] = [1, 1, 1, 2];
const expected = [1 / (bias + (alpha / size) * (1 + 4)) ** beta, 2 / (bias + (alpha / size) * 4) ** beta];
try {
  const s = await ort.InferenceSession.create(
    model({
      op: 'LRN',
      inputs: [['x', 1, [1, 2, 1, 1]]],
      outputs: ['y'],
      attrs: { size, alpha: { f: alpha }, beta: { f: beta }, bias: { f: bias } },
    }),
    { executionProviders: ['wasm'], logSeverityLevel: 3 },
  );
  const { y } = await s.run({ x });
  console.log('LRN(size=2) =', Array.from(y.data), ' expected (ONNX spec formula):', expected);
} catch (e) {
  console.log('LRN(size=2) refused:', String(e.message).replace(/\/mnt\S*\//, '.../'));
  console.log('expected (ONNX spec formula):', expected);
}
