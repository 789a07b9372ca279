/**
 * The webgpu device: one Dawn instance, adapter and GPUDevice per process. `initWebGPU()` acquires them once
 * (async, like every WebGPU request); kernels then use `gpu()` synchronously. The object `create()` returns is
 * kept on globalThis for the life of the process: if it is garbage-collected, Dawn crashes.
 */
/// <reference types="@webgpu/types" />
import { NoAdapterError } from '../../core/index.ts';

export interface WebGPUInfo {
  /** Dawn backend and feature level, e.g. 'opengles/compatibility'. */
  readonly backend: string;
  readonly vendor: string;
  readonly architecture: string;
  readonly description: string;
  readonly features: readonly string[];
  readonly maxWorkgroupSize: number;
}

export const NO_ADAPTER_MESSAGE = 'webgpu: no adapter — see README';

interface GpuState {
  readonly device: GPUDevice;
  readonly info: WebGPUInfo;
}

let state: GpuState | null = null;
let pending: Promise<GpuState | null> | null = null;
let lastFailure = '';

/**
 * Which Dawn backend to ask for: OPGATE_WEBGPU_BACKEND (e.g. 'vulkan' on a machine with a GPU) or, by default,
 * OpenGL ES on Mesa's llvmpipe in compatibility mode — the software path CI uses (README, "WebGPU").
 */
function backendChoice(): { backend: string; featureLevel: 'compatibility' | 'core' } {
  const backend = process.env.OPGATE_WEBGPU_BACKEND ?? 'opengles';
  return { backend, featureLevel: backend === 'opengles' ? 'compatibility' : 'core' };
}

async function acquire(): Promise<GpuState | null> {
  const { backend, featureLevel } = backendChoice();
  // EGL must not look for a display server on a headless machine.
  process.env.EGL_PLATFORM ??= 'surfaceless';
  let mod: typeof import('webgpu');
  try {
    mod = await import('webgpu');
  } catch (e) {
    lastFailure = `the 'webgpu' package did not load: ${(e as Error).message}`;
    return null;
  }
  Object.assign(globalThis, mod.globals);
  const instance = mod.create([`backend=${backend}`]);
  (globalThis as Record<string, unknown>).__opgateDawn = instance;
  const adapter = await instance.requestAdapter({ featureLevel });
  if (!adapter) {
    lastFailure = `Dawn found no ${backend} adapter (${featureLevel})`;
    return null;
  }
  const features = [...adapter.features] as string[];
  const wanted = features.filter((f) => f === 'shader-f16') as GPUFeatureName[];
  const device = await adapter.requestDevice({ requiredFeatures: wanted });
  device.addEventListener('uncapturederror', (ev) => {
    // A validation error is a bug in a generated kernel: make it loud rather than silently wrong.
    console.error(`webgpu: uncaptured error: ${(ev as GPUUncapturedErrorEvent).error.message}`);
  });
  const a = adapter.info;
  return {
    device,
    info: {
      backend: `${backend}/${featureLevel}`,
      vendor: a.vendor,
      architecture: a.architecture,
      description: a.description,
      features,
      maxWorkgroupSize: device.limits.maxComputeInvocationsPerWorkgroup,
    },
  };
}

/** Acquires the device once; resolves to null (and `webgpuUnavailableReason()` says why) when there is none. */
export async function initWebGPU(): Promise<WebGPUInfo | null> {
  if (state) return state.info;
  pending ??= acquire().catch((e: Error) => {
    lastFailure = e.message;
    return null;
  });
  state = await pending;
  return state?.info ?? null;
}

export function webgpuInfo(): WebGPUInfo | null {
  return state?.info ?? null;
}

export function webgpuUnavailableReason(): string {
  return state ? '' : `${NO_ADAPTER_MESSAGE}${lastFailure ? ` (${lastFailure})` : ''}`;
}

/** The GPUDevice; throws E_NO_ADAPTER when `initWebGPU()` has not found one. */
export function gpu(op = 'webgpu'): GPUDevice {
  if (state) return state.device;
  throw new NoAdapterError(
    `${NO_ADAPTER_MESSAGE}${pending ? '' : ' (await initWebGPU() before using the webgpu device)'}`,
    { op, got: lastFailure || 'no initialised adapter', expected: 'an adapter' },
  );
}

/** Resolves when every kernel queued so far has finished (torch.cuda.synchronize()). */
export async function synchronizeWebGPU(): Promise<void> {
  if (!state) return;
  flushPending?.();
  await state.device.queue.onSubmittedWorkDone();
}

let flushPending: (() => void) | null = null;
/** queue.ts registers its flush here (device.ts is below it and cannot import it). */
export function onSynchronize(flush: () => void): void {
  flushPending = flush;
}
