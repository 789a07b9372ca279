// tfjs-cpu: tf.cumsum of a rank-0 tensor returns 0 instead of the value (PyTorch: torch.cumsum(torch.tensor(5.), 0) = 5;
// NumPy: np.cumsum(5.0) = [5.]). Run: node tools/targets/tfjs-cpu/bug_1_cumsum_scalar.mjs
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';

await tf.setBackend('cpu');
const got = Array.from(await tf.cumsum(tf.scalar(5), 0).data());
console.log(`tf.cumsum(tf.scalar(5), 0) on cpu = [${got}]; expected [5]`);
process.exitCode = got[0] === 5 ? 0 : 1;
