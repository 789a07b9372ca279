// tfjs-wasm: tf.reciprocal of an int32 tensor returns float bit patterns read as integers: reciprocal(1) is
// 2139095040 (0x7F800000, the bits of +Infinity), and asin(2) is -2147483648. PyTorch: float32 [1, 0.5, -1].
// Run: node tools/targets/tfjs-wasm/bug_3_reciprocal_int_bits.mjs
import { tf } from './_wasm.mjs';

const x = tf.tensor([1, 2, -1], [3], 'int32');
const r = tf.reciprocal(x);
const got = Array.from(await r.data());
console.log(`tf.reciprocal(int32 [1, 2, -1]) on wasm = ${r.dtype} [${got}]; expected float32 [1, 0.5, -1]`);
const a = tf.asin(x);
console.log(
  `tf.asin(int32 [1, 2, -1]) on wasm = ${a.dtype} [${Array.from(await a.data())}]; expected float32 [1.5708, NaN, -1.5708]`,
);
process.exitCode = got[0] === 1 ? 0 : 1;
