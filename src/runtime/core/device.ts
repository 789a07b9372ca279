/** Devices the runtime knows. A device string may carry an index ('webgpu:0'); only the type matters here. */
export const DEVICE_TYPES = ['cpu', 'meta', 'webgpu'] as const;
export type DeviceType = (typeof DEVICE_TYPES)[number];

export function parseDevice(d: string): DeviceType {
  const type = d.split(':')[0];
  if (!(DEVICE_TYPES as readonly string[]).includes(type)) {
    throw new TypeError(
      `Expected one of ${DEVICE_TYPES.join(', ')} device type at start of device string: ${d}`,
    );
  }
  return type as DeviceType;
}
