import { InvalidArgumentError } from './errors.ts';

/** Devices the runtime knows. A device string may carry an index ('webgpu:0'); only the type matters here. */
export const DEVICE_TYPES = ['cpu', 'meta', 'webgpu'] as const;
export type DeviceType = (typeof DEVICE_TYPES)[number];

export function parseDevice(d: string, op?: string): DeviceType {
  const type = typeof d === 'string' ? d.split(':')[0] : '';
  if (!(DEVICE_TYPES as readonly string[]).includes(type)) {
    throw new InvalidArgumentError(
      `Expected one of ${DEVICE_TYPES.join(', ')} device type at start of device string: ${String(d)}`,
      { op, arg: 'device', got: typeof d === 'symbol' ? 'a symbol' : d, expected: DEVICE_TYPES.join(' | ') },
    );
  }
  return type as DeviceType;
}
