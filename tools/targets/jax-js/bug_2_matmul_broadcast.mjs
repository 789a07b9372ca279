// jax-js 0.1.25: np.matmul of a matrix with a stack of matrices puts the batch dim in the wrong place.
// Run: node tools/targets/jax-js/bug_2_matmul_broadcast.mjs
import { init, numpy as np } from '@jax-js/jax';

await init('wasm');
const a = np.arange(12).reshape([3, 4]); // (3, 4)
const b = np.ones([2, 4, 5]); // (2, 4, 5)
const c = np.matmul(a, b);
console.log('np.matmul((3, 4), (2, 4, 5)) got shape:', JSON.stringify(c.shape));
console.log('expected (jnp.matmul / np.matmul / torch.matmul): [2,3,5] (a broadcast over the batch dim)');
c.dispose();
