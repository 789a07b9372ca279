// tfjs-wasm: tf.cumsum of a rank-0 tensor never returns (a loop inside the wasm kernel; the process spins at 100%).
// PyTorch: torch.cumsum(torch.tensor(5.), 0) = 5. The call runs in a worker thread here, so the script can report
// the hang after 5 s. Run: node tools/targets/tfjs-wasm/bug_1_cumsum_scalar_hangs.mjs
import { Worker } from 'node:worker_threads';

const code = `
const { tf } = await import(${JSON.stringify(new URL('./_wasm.mjs', import.meta.url).href)});
const r = await tf.cumsum(tf.scalar(5), 0).data();
process.stdout.write('returned ' + Array.from(r) + '\\n');
`;
const w = new Worker(code, { eval: true, type: 'module' });
const timer = setTimeout(() => {
  console.log('tf.cumsum(tf.scalar(5), 0) on wasm has not returned after 5 s; expected [5]');
  process.exit(1);
}, 5000);
w.on('exit', () => clearTimeout(timer));
