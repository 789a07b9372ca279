/** Custom ops from outside the runtime's tree (torch.library's define / impl / registerAutograd / registerFake). */

export { type DeviceSpec, deviceDTypes, RESERVED_DEVICE_NAMES, registerDevice } from './device.ts';
export {
  type AutogradContext,
  type AutogradOptions,
  type Backward,
  customOpNames,
  define,
  type ImplTarget,
  impl,
  type KernelFn,
  RESERVED_NAMESPACES,
  registerAutograd,
  registerFake,
} from './library.ts';
