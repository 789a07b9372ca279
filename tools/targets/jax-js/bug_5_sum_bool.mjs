// jax-js 0.1.25: np.sum (and np.prod) of a bool array returns a bool, not the count.
// Run: node tools/targets/jax-js/bug_5_sum_bool.mjs
import { init, numpy as np } from '@jax-js/jax';

await init('wasm');
const mask = np.array([true, true, false]);
const s = np.sum(mask.ref);
console.log('np.sum([true, true, false]) got:', s.dtype, Array.from(await s.data()));
const p = np.prod(mask);
console.log('np.prod([true, true, false]) got:', p.dtype, Array.from(await p.data()));
console.log('expected: jnp.sum -> int32 2 (jnp.prod -> int32 0); np.sum -> int64 2; torch.sum -> int64 2');
