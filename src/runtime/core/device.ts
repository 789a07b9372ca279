import { InvalidArgumentError } from './errors.ts';

/** Devices the runtime knows. A device string may carry an index ('webgpu:0'); only the type matters here. */
export const DEVICE_TYPES = ['cpu', 'meta', 'webgpu'] as const;
/**
 * A device type. The built-in ones are this union; a device registered from outside (registerDevice, PyTorch's
 * one PrivateUse1 slot renamed) travels in the same slots under its own name, at run time only: code that
 * indexes a per-device table asks `isRegisteredDevice` first (or reads the table with a fallback).
 */
export type DeviceType = (typeof DEVICE_TYPES)[number];

/** The registered device's name (PrivateUse1's, after renaming), or null while none is registered. */
let registered: string | null = null;

/** Names the PrivateUse1 slot (library/device.ts does, once, after checking the name). */
export function setRegisteredDevice(name: string): void {
  registered = name;
}
/** The registered device's name, or null. */
export function registeredDevice(): string | null {
  return registered;
}
/** Whether `d` is the registered (PrivateUse1) device, not a built-in one. */
export function isRegisteredDevice(d: string): boolean {
  return d === registered && registered !== null;
}
/** Every device type a device string may name now: the built-in ones, then the registered one. */
export function deviceTypes(): readonly string[] {
  return registered === null ? DEVICE_TYPES : [...DEVICE_TYPES, registered];
}

export function parseDevice(d: string, op?: string): DeviceType {
  const type = typeof d === 'string' ? d.split(':')[0] : '';
  if (!(DEVICE_TYPES as readonly string[]).includes(type) && (registered === null || type !== registered)) {
    const known = deviceTypes();
    throw new InvalidArgumentError(
      `Expected one of ${known.join(', ')} device type at start of device string: ${String(d)}`,
      { op, arg: 'device', got: typeof d === 'symbol' ? 'a symbol' : d, expected: known.join(' | ') },
    );
  }
  return type as DeviceType;
}
