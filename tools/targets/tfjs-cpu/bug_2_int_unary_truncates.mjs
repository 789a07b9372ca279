// tfjs-cpu: asin, acos, atan, sinh, expm1, log1p and reciprocal of an int32 tensor return int32, their real results
// truncated toward zero (asin(2) is NaN, given as 0; sinh(2) = 3.63, given as 3), while sin, cos, exp and sqrt refuse
// int32 inputs. PyTorch promotes integer inputs of these ops to float32. Run: node tools/targets/tfjs-cpu/bug_2_int_unary_truncates.mjs
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';

await tf.setBackend('cpu');
const x = tf.tensor([1, 2, -1], [3], 'int32');
let wrong = 0;
for (const [f, fn, want] of [
  ['asin', tf.asin, [Math.asin(1), Number.NaN, Math.asin(-1)]],
  ['sinh', tf.sinh, [Math.sinh(1), Math.sinh(2), Math.sinh(-1)]],
  ['reciprocal', tf.reciprocal, [1, 0.5, -1]],
]) {
  const r = fn(x);
  const got = Array.from(await r.data());
  console.log(
    `tf.${f}(int32 [1, 2, -1]) = ${r.dtype} [${got}]; expected float32 [${want.map((v) => v.toFixed(4))}]`,
  );
  if (r.dtype === 'int32') wrong++;
}
try {
  tf.sin(x);
} catch (e) {
  console.log(`while tf.sin(int32) refuses: ${e.message}`);
}
process.exitCode = wrong ? 1 : 0;
