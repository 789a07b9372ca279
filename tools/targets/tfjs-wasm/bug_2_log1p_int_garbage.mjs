// tfjs-wasm: tf.log1p of an int32 tensor logs "Unsupported dtype" and returns uninitialised memory as its result
// (e.g. [25472, 25472, 92520]) instead of refusing or computing log1p (PyTorch: float32 [0.6931, 1.0986, -inf]).
// Run: node tools/targets/tfjs-wasm/bug_2_log1p_int_garbage.mjs
import { tf } from './_wasm.mjs';

const r = tf.log1p(tf.tensor([1, 2, -1], [3], 'int32'));
console.log(
  `tf.log1p(int32 [1, 2, -1]) on wasm = ${r.dtype} [${Array.from(await r.data())}]; expected float32 [0.6931, 1.0986, -Infinity] or an error`,
);
