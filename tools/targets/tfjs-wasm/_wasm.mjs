// The wasm backend in Node: its .wasm files are read from the package's dist/ folder.
import { createRequire } from 'node:module';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import * as tf from '@tensorflow/tfjs-core';

const main = createRequire(import.meta.url).resolve('@tensorflow/tfjs-backend-wasm');
setWasmPaths(main.slice(0, main.lastIndexOf('/') + 1));
await tf.setBackend('wasm');

export { tf };
