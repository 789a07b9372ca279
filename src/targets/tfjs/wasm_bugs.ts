/**
 * tfjs-wasm kernels that, given a dtype they do not implement, print "Unsupported dtype" and return memory they
 * never wrote (tools/targets/tfjs-wasm/bug_2_log1p_int_garbage.mjs): their values change from run to run, so
 * comparing them would make flaky findings. They are not called on those dtypes; each such call is a [known-bug]
 * departure. Found by calling every mapped unary and binary kernel with int32 and bool inputs on the wasm backend
 * (tfjs 4.22.0).
 */
import type * as TF from '@tensorflow/tfjs-core';
import { KnownBug } from '../target.ts';

const BOOL = [
  'abs',
  'neg',
  'sign',
  'square',
  'exp',
  'expm1',
  'log1p',
  'asin',
  'acos',
  'atan',
  'sinh',
  'round',
  'relu',
  'relu6',
  'selu',
  'logSigmoid',
  'softplus',
  'step',
  'atan2',
  'mod',
  'floorDiv',
];
const BROKEN: Readonly<Record<string, readonly string[]>> = {
  bool: BOOL,
  int32: ['log1p'],
};

/** Throws KnownBug when `fn` on the wasm backend would get a tensor of a dtype its kernel does not implement. */
export function wasmKernelBug(tf: typeof TF, fn: string, operands: readonly unknown[]): void {
  if (tf.getBackend() !== 'wasm') return;
  for (const x of operands)
    if (x instanceof tf.Tensor && BROKEN[x.dtype]?.includes(fn))
      throw new KnownBug(
        `the wasm kernel of tf.${fn} has no ${x.dtype} implementation and returns unwritten memory (tools/targets/tfjs-wasm/bug_2_log1p_int_garbage.mjs)`,
      );
}
