// jax-js 0.1.25: a reduction over an axis of length 0 returns stale memory instead of the reduction's identity.
// Run: node tools/targets/jax-js/bug_1_empty_reduction.mjs
import { init, numpy as np } from '@jax-js/jax';

await init('wasm');
// Leave some values in a freed buffer of the wasm device (any earlier computation does).
await np
  .array(new Float32Array([34.9, 1, 2, 3]))
  .mul(1)
  .data();

const x = np.zeros([0, 4]); // no rows
console.log('np.sum(zeros([0, 4]), 0)  got:', Array.from(await np.sum(x.ref, 0).data()));
console.log('np.prod(zeros([0, 4]), 0) got:', Array.from(await np.prod(x, 0).data()));
console.log('expected (jnp.sum / np.sum / torch.sum): [0, 0, 0, 0]; prod: [1, 1, 1, 1]');
