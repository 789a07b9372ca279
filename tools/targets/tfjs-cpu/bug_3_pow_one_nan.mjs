// tfjs-cpu: tf.pow(1, x) is NaN for x = NaN, Infinity and -Infinity (JavaScript's Math.pow), where tfjs's own wasm
// backend, C's pow (IEEE 754: pow(1, y) = 1 for every y) and PyTorch (torch.pow(1., nan) = 1) give 1: the same tfjs
// program gives different values on its two cpu backends. Run: node tools/targets/tfjs-cpu/bug_3_pow_one_nan.mjs
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';

await tf.setBackend('cpu');
const got = Array.from(await tf.pow(tf.scalar(1), tf.tensor([Number.NaN, Infinity, -Infinity, 2])).data());
console.log(
  `tf.pow(1, [NaN, Infinity, -Infinity, 2]) on cpu = [${got}]; expected [1, 1, 1, 1] (PyTorch, C pow, tfjs-wasm)`,
);
process.exitCode = got.every((v) => v === 1) ? 0 : 1;
