/**
 * Shared by the webgpu unit tests (not a test file itself): acquires the device once per worker and compares a
 * webgpu op result with the cpu result of the same call on the same inputs, layouts included.
 */
import { describe, expect } from 'vitest';
import {
  initWebGPU,
  Tensor,
  toHost,
  uploadTensor,
  webgpuUnavailableReason,
} from '../../src/runtime/index.ts';

export const WEBGPU = await initWebGPU();
/** `describe` that runs only with an adapter; without one the suite reports the README pointer as its reason. */
export const describeWebGPU = WEBGPU ? describe : describe.skip;
export const NO_WEBGPU = webgpuUnavailableReason();

/** Deep-maps tensors in an argument list. */
export function mapTensors(x: unknown, f: (t: Tensor) => Tensor): unknown {
  if (x instanceof Tensor) return f(x);
  if (Array.isArray(x)) return x.map((v) => mapTensors(v, f));
  if (x && typeof x === 'object' && x.constructor === Object)
    return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, mapTensors(v, f)]));
  return x;
}

/** The same cpu tensors on webgpu, layout (sizes, strides, offset) and aliasing kept. */
export function onWebGPU<T>(args: T): T {
  const cache = new Map();
  return mapTensors(args, (t) =>
    t.device === 'cpu' && !t.isWrappedNumber && t.ndim > 0 ? uploadTensor(t, cache) : t,
  ) as T;
}

/** Reads every webgpu tensor in `x` back to cpu (same layout). */
export async function readBack(x: unknown): Promise<unknown> {
  if (x instanceof Tensor) return toHost(x);
  if (Array.isArray(x)) return Promise.all(x.map(readBack));
  return x;
}

/** Values of a cpu tensor in logical order, as numbers (int64 as Number, bool as 0/1). */
export function values(t: Tensor): number[] {
  return ([t.tolist()] as unknown[]).flat(Number.POSITIVE_INFINITY).map((v) => Number(v));
}

/**
 * Runs `fn` on cpu and on webgpu copies of `args`, and expects equal shapes and dtypes, and values within
 * atol = rtol = 1e-3 for floats (exact for integers and bool); NaN only matches NaN.
 */
export async function expectSameAsCpu(fn: (...a: unknown[]) => unknown, args: unknown[]): Promise<void> {
  const onGpu = onWebGPU(args);
  const cpu = fn(...args);
  const gpu = await readBack(fn(...onGpu));
  const a = (Array.isArray(cpu) ? cpu : [cpu]) as Tensor[];
  const b = (Array.isArray(gpu) ? gpu : [gpu]) as Tensor[];
  expect(b.length).toBe(a.length);
  a.forEach((x, i) => {
    const y = b[i];
    expect(y.shape).toEqual(x.shape);
    expect(y.dtype).toBe(x.dtype);
    const xv = values(x);
    const yv = values(y);
    const float = x.dtype.startsWith('float');
    xv.forEach((e, j) => {
      const g = yv[j];
      if (Number.isNaN(e)) expect(g, `element ${j}`).toBeNaN();
      else if (!float || !Number.isFinite(e)) expect(g, `element ${j}`).toBe(e);
      else
        expect(Math.abs(g - e), `element ${j}: ${g} vs ${e}`).toBeLessThanOrEqual(1e-3 + 1e-3 * Math.abs(e));
    });
  });
}
