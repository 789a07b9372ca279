// jax-js 0.1.25: np.round of an int32 array changes odd integers (it should return them unchanged).
// Run: node tools/targets/jax-js/bug_3_round_int.mjs
import { init, numpy as np } from '@jax-js/jax';

await init('wasm');
const x = np.array([3, 7, -3, 12], { dtype: np.int32 });
console.log('np.round(int32 [3, 7, -3, 12]) got:', Array.from(await np.round(x).data()));
console.log('expected (jnp.round / np.round / torch.round): [3, 7, -3, 12], an integer is already round');
