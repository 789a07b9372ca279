/**
 * Dispatch keys and the DispatchKeySet bitset. A higher bit has higher priority: wrapper keys (Tracer,
 * Autograd, ADInplaceOrView) sit above the backend keys and redispatch after doing their work.
 */
import type { DeviceType } from '../core/index.ts';

export const DispatchKey = {
  CPU: 0,
  Meta: 1,
  WebGPU: 2,
  /** The one backend key for a device registered from outside (registerDevice), as in PyTorch. */
  PrivateUse1: 3,
  ADInplaceOrView: 8,
  Autograd: 9,
  Tracer: 10,
} as const;
export type DispatchKey = (typeof DispatchKey)[keyof typeof DispatchKey];

export const KEY_NAMES: Record<DispatchKey, string> = {
  [DispatchKey.CPU]: 'CPU',
  [DispatchKey.Meta]: 'Meta',
  [DispatchKey.WebGPU]: 'WebGPU',
  [DispatchKey.PrivateUse1]: 'PrivateUse1',
  [DispatchKey.ADInplaceOrView]: 'ADInplaceOrView',
  [DispatchKey.Autograd]: 'Autograd',
  [DispatchKey.Tracer]: 'Tracer',
};

export const BACKEND_KEYS: readonly DispatchKey[] = [
  DispatchKey.CPU,
  DispatchKey.Meta,
  DispatchKey.WebGPU,
  DispatchKey.PrivateUse1,
];

/** A tensor's backend key by its device; a registered device joins it (mapPrivateUse1), so dispatch reads one table. */
export const DEVICE_KEY: Record<DeviceType, DispatchKey> = {
  cpu: DispatchKey.CPU,
  meta: DispatchKey.Meta,
  webgpu: DispatchKey.WebGPU,
};

/** PyTorch's rename_privateuse1_backend: tensors on `device` dispatch to the PrivateUse1 key. */
export function mapPrivateUse1(device: string): void {
  (DEVICE_KEY as Record<string, DispatchKey>)[device] = DispatchKey.PrivateUse1;
}

export const isBackendKey = (k: DispatchKey): boolean => k < DispatchKey.ADInplaceOrView;

/** An immutable set of dispatch keys held in the bits of one number. */
export class DispatchKeySet {
  static readonly EMPTY = new DispatchKeySet(0);
  readonly bits: number;

  constructor(bits: number) {
    this.bits = bits;
  }
  static of(...keys: DispatchKey[]): DispatchKeySet {
    let b = 0;
    for (const k of keys) b |= 1 << k;
    return new DispatchKeySet(b);
  }
  has(k: DispatchKey): boolean {
    return (this.bits & (1 << k)) !== 0;
  }
  add(k: DispatchKey): DispatchKeySet {
    return new DispatchKeySet(this.bits | (1 << k));
  }
  remove(k: DispatchKey): DispatchKeySet {
    return new DispatchKeySet(this.bits & ~(1 << k));
  }
  union(o: DispatchKeySet): DispatchKeySet {
    return new DispatchKeySet(this.bits | o.bits);
  }
  minus(o: DispatchKeySet): DispatchKeySet {
    return new DispatchKeySet(this.bits & ~o.bits);
  }
  isEmpty(): boolean {
    return this.bits === 0;
  }
  /** The highest-priority key, or null for the empty set. */
  highest(): DispatchKey | null {
    return this.bits === 0 ? null : ((31 - Math.clz32(this.bits)) as DispatchKey);
  }
  keys(): DispatchKey[] {
    const out: DispatchKey[] = [];
    for (let b = 31; b >= 0; b--) if (this.bits & (1 << b)) out.push(b as DispatchKey);
    return out;
  }
  toString(): string {
    return `DispatchKeySet(${this.keys()
      .map((k) => KEY_NAMES[k])
      .join(', ')})`;
  }
}

/** Keys every tensor carries besides its backend key (PyTorch adds Autograd/ADInplaceOrView to all tensors). */
export const TENSOR_WRAPPER_KEYS = DispatchKeySet.of(DispatchKey.ADInplaceOrView, DispatchKey.Autograd);

/**
 * Thread-local include/exclude sets (JS runs one thread per isolate, so module state is thread-local).
 * Guards restore the previous state even when the body throws.
 */
const tls = { included: DispatchKeySet.EMPTY, excluded: DispatchKeySet.EMPTY };

export function localIncluded(): DispatchKeySet {
  return tls.included;
}
export function localExcluded(): DispatchKeySet {
  return tls.excluded;
}

export function withExcludedKeys<T>(keys: DispatchKeySet, body: () => T): T {
  const prev = tls.excluded;
  tls.excluded = prev.union(keys);
  try {
    return body();
  } finally {
    tls.excluded = prev;
  }
}

/** Runs `body` with exactly `keys` excluded (enable_grad inside no_grad removes an exclusion). */
export function replaceExcludedKeys<T>(keys: DispatchKeySet, body: () => T): T {
  const prev = tls.excluded;
  tls.excluded = keys;
  try {
    return body();
  } finally {
    tls.excluded = prev;
  }
}

export function withIncludedKeys<T>(keys: DispatchKeySet, body: () => T): T {
  const prev = tls.included;
  tls.included = prev.union(keys);
  try {
    return body();
  } finally {
    tls.included = prev;
  }
}
