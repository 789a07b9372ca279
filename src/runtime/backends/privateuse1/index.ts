/** The registered device's memory and copies (PrivateUse1); library/device.ts's registerDevice installs it. */
export {
  copyThroughHost,
  type DeviceMemorySpec,
  hostView,
  installDeviceMemory,
  toDevice,
  writeThroughHost,
} from './memory.ts';
