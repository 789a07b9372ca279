/**
 * jax-js (@jax-js/jax) as a target, on its wasm device (kernels compiled to WebAssembly, the one backend it runs
 * in Node: webgpu and webgl need a browser). Its arrays hold float32, float64, int32 and bool (and uint32, which
 * PyTorch 1.13 has no dtype for; float16 needs a Float16Array, which Node 20 lacks, and wasm has no float16 casts).
 * PyTorch's int64 index tensors go in as int32, which holds their values. jax-js arrays are reference-counted with
 * move semantics (every function consumes its array arguments): the rows pass `.ref`s of the inputs, the adapter
 * frees the inputs after each call, and reading an output back (`data()`) consumes it.
 */
import type * as JAX from '@jax-js/jax';
import type { DType } from '../../runtime/index.ts';
import { type HostTensor, NotExpressible, type TargetAdapter } from '../target.ts';

type R = typeof JAX;
type A = JAX.numpy.Array;

export const JAX_PACKAGES = ['@jax-js/jax@0.1.25'];

/**
 * Makes a float64 array from a Float64Array. jax-js 0.1.25's `array()` tests `data instanceof Float16Array` before
 * it reaches the Float64Array case, which throws a ReferenceError where Float16Array does not exist (Node < 24): for
 * that one synchronous call a class with no instances stands in for it (nothing else runs meanwhile).
 */
function float64Array(jax: R, data: Float64Array, shape: number[]): A {
  const g = globalThis as Record<string, unknown>;
  if ('Float16Array' in g) return jax.numpy.array(data, { shape, dtype: jax.numpy.float64 });
  g.Float16Array = class Float16Array {};
  try {
    return jax.numpy.array(data, { shape, dtype: jax.numpy.float64 });
  } finally {
    delete g.Float16Array;
  }
}

function int32Of(h: HostTensor): Int32Array {
  if (h.dtype !== 'int64') return Int32Array.from(h.data as ArrayLike<number>);
  const src = h.data as ArrayLike<bigint>;
  const v = Int32Array.from(src, (x) => Number(x));
  if (v.some((x, i) => BigInt(x) !== src[i])) throw new NotExpressible('an int64 tensor beyond int32');
  return v;
}

export function jaxAdapter(): TargetAdapter<R, A> {
  // The arrays made for the current call (its inputs): each keeps the reference it was made with until release().
  const made: A[] = [];
  return {
    name: 'jax-js',
    packages: JAX_PACKAGES,
    dtypes: ['float32', 'float64', 'int32', 'bool'],
    async load() {
      const jax = await import('@jax-js/jax');
      // init() with no argument also probes webgpu, which reads `navigator` (absent in Node 20): ask for wasm only.
      const got = await jax.init('wasm');
      if (!got.includes('wasm')) throw new Error('jax-js: the wasm device did not initialise');
      jax.defaultDevice('wasm');
      return jax;
    },
    fromHost(jax, h: HostTensor) {
      const np = jax.numpy;
      const shape = [...h.shape];
      const dtype = h.dtype === 'int64' ? 'int32' : h.dtype;
      if (dtype !== 'float32' && dtype !== 'float64' && dtype !== 'int32' && dtype !== 'bool')
        throw new NotExpressible(`jax-js has no ${h.dtype} arrays`);
      let x: A;
      // jax-js cannot make an array of no elements from data (tools/targets/jax-js/README.md): zeros() can.
      if (h.data.length === 0) x = np.zeros(shape, { dtype: dtype as JAX.DType });
      else if (dtype === 'float32') x = np.array(Float32Array.from(h.data as ArrayLike<number>), { shape });
      else if (dtype === 'float64')
        x = float64Array(jax, Float64Array.from(h.data as ArrayLike<number>), shape);
      else x = np.array(int32Of(h), { shape, dtype: dtype as JAX.DType });
      made.push(x);
      return x;
    },
    async toHost(_jax, x) {
      const shape = [...x.shape];
      const dtype = x.dtype as string;
      if (dtype !== 'float32' && dtype !== 'float64' && dtype !== 'int32' && dtype !== 'bool') {
        x.dispose();
        throw new NotExpressible(`a jax-js ${dtype} output`);
      }
      // data() realises the array and consumes the reference the row returned.
      const data = await x.data();
      return {
        dtype: dtype as DType,
        shape,
        data: dtype === 'bool' ? Uint8Array.from(data as Int32Array) : (data as ArrayLike<number>),
      };
    },
    isTensor: (jax, x): x is A => x instanceof jax.numpy.Array,
    release() {
      for (const x of made.splice(0)) if (x.refCount > 0) x.dispose();
    },
  };
}
