// jax-js 0.1.25: argmax/argmin of an array holding NaN returns an index past the end of the axis.
// Run: node tools/targets/jax-js/bug_4_argmax_nan.mjs
import { init, numpy as np } from '@jax-js/jax';

await init('wasm');
const x = np.array(new Float32Array([1, Number.NaN, 3]));
console.log('np.argmax([1, NaN, 3]) got:', (await np.argmax(x.ref).data())[0]);
console.log('np.argmin([1, NaN, 3]) got:', (await np.argmin(x).data())[0]);
console.log(
  'expected (jnp.argmax / np.argmax / torch.argmax): 1 for both (the first NaN); the axis has length 3',
);
