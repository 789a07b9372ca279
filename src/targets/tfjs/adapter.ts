/**
 * TensorFlow.js (@tensorflow/tfjs-core) as a target, on its cpu backend (plain JavaScript) or its wasm backend
 * (XNNPACK compiled to WebAssembly): the same op rows, two targets. tfjs tensors hold float32, int32 and bool
 * (complex64 and string aside); PyTorch's int64 index tensors go in as int32, which holds their values.
 */
import type * as TF from '@tensorflow/tfjs-core';
import type { DType } from '../../runtime/index.ts';
import { type HostTensor, NotExpressible, type TargetAdapter } from '../target.ts';

type R = typeof TF;

const DTYPES: Record<string, DType> = { float32: 'float32', int32: 'int32', bool: 'bool' };

export const TFJS_PACKAGES = ['@tensorflow/tfjs-core@4.22.0'];

export function tfjsAdapter(backend: 'cpu' | 'wasm'): TargetAdapter<R, TF.Tensor> {
  return {
    name: `tfjs-${backend}`,
    packages: [...TFJS_PACKAGES, `@tensorflow/tfjs-backend-${backend}@4.22.0`],
    dtypes: ['float32', 'int32', 'bool'],
    async load() {
      const tf = await import('@tensorflow/tfjs-core');
      if (backend === 'cpu') await import('@tensorflow/tfjs-backend-cpu');
      else {
        const wasm = await import('@tensorflow/tfjs-backend-wasm');
        // In Node the backend reads its .wasm files from the package's own dist/ folder.
        const { createRequire } = await import('node:module');
        const main = createRequire(import.meta.url).resolve('@tensorflow/tfjs-backend-wasm');
        wasm.setWasmPaths(main.slice(0, main.lastIndexOf('/') + 1));
      }
      if (!(await tf.setBackend(backend))) throw new Error(`tfjs: the ${backend} backend did not initialise`);
      // Every call's tensors (inputs, intermediates, outputs) live in one scope, ended after the call (release).
      tf.engine().startScope();
      return tf;
    },
    fromHost(tf, h: HostTensor) {
      const shape = [...h.shape];
      if (h.dtype === 'float32' || h.dtype === 'int32' || h.dtype === 'bool')
        return tf.tensor(h.data as ArrayLike<number> as Float32Array, shape, h.dtype);
      // Index tensors: int64 values that fit int32 are what tfjs indexes with.
      if (h.dtype === 'int64') {
        const v = Int32Array.from(h.data as ArrayLike<bigint>, (x) => Number(x));
        if (v.some((x, i) => BigInt(x) !== (h.data as ArrayLike<bigint>)[i]))
          throw new NotExpressible('an int64 tensor beyond int32');
        return tf.tensor(v, shape, 'int32');
      }
      throw new NotExpressible(`tfjs has no ${h.dtype} tensors`);
    },
    async toHost(_tf, x) {
      const dtype = DTYPES[x.dtype];
      if (!dtype) throw new NotExpressible(`a tfjs ${x.dtype} output`);
      return { dtype, shape: [...x.shape], data: (await x.data()) as ArrayLike<number> };
    },
    isTensor: (tf, x): x is TF.Tensor => x instanceof tf.Tensor,
    async activate(tf) {
      if (tf.getBackend() === backend) return;
      // The other tfjs target's scope ends with its backend; this one's starts with this.
      tf.engine().endScope();
      await tf.setBackend(backend);
      tf.engine().startScope();
    },
    release(tf) {
      tf.engine().endScope();
      tf.engine().startScope();
    },
  };
}
