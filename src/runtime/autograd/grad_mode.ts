/**
 * Grad modes as thread-local dispatch state: noGrad and inferenceMode exclude the Autograd keys when the key set
 * is composed (PyTorch's AutoGradMode / InferenceMode guards); enableGrad lifts that exclusion.
 */
import {
  DispatchKey,
  DispatchKeySet,
  localExcluded,
  replaceExcludedKeys,
  withExcludedKeys,
} from '../dispatch/index.ts';

export const AUTOGRAD_KEYS = DispatchKeySet.of(DispatchKey.Autograd, DispatchKey.ADInplaceOrView);

export function isGradEnabled(): boolean {
  return !localExcluded().has(DispatchKey.Autograd);
}

/** Runs `body` with gradient recording off (torch.no_grad). */
export function noGrad<T>(body: () => T): T {
  return withExcludedKeys(AUTOGRAD_KEYS, body);
}

/** Runs `body` with gradient recording on, even inside noGrad (torch.enable_grad). */
export function enableGrad<T>(body: () => T): T {
  return replaceExcludedKeys(localExcluded().minus(AUTOGRAD_KEYS), body);
}

/** Runs `body` with recording on or off. */
export function setGradEnabled<T>(enabled: boolean, body: () => T): T {
  return enabled ? enableGrad(body) : noGrad(body);
}

let inference = false;

export function isInferenceMode(): boolean {
  return inference;
}

/** torch.inference_mode: recording off, like noGrad (no view/version tracking is skipped here). */
export function inferenceMode<T>(body: () => T): T {
  const prev = inference;
  inference = true;
  try {
    return noGrad(body);
  } finally {
    inference = prev;
  }
}
