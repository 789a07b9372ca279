/**
 * registerDevice: a device from outside the runtime's tree, PyTorch's PrivateUse1 path (one backend slot, renamed
 * as rename_privateuse1_backend does). The device brings its memory (allocate, copies to and from cpu) and kernels;
 * the runtime gives it what is generic over memory: factories, views, `.to()`, copies and readback. Any other op
 * without a kernel for it raises E_NOT_IMPLEMENTED naming the op and the device, as PyTorch's "Could not run
 * 'aten::add.Tensor' with arguments from the 'PrivateUse1' backend" does.
 */
import { type DeviceMemorySpec, installDeviceMemory } from '../backends/privateuse1/index.ts';
import {
  DEVICE_TYPES,
  DTYPES,
  type DType,
  DuplicateDeviceError,
  InvalidArgumentError,
  isDType,
  ReservedDeviceError,
  registeredDevice,
  setRegisteredDevice,
} from '../core/index.ts';
import { mapPrivateUse1 } from '../dispatch/index.ts';
import { deviceKernelEntry, impl, type KernelFn } from './library.ts';

export interface DeviceSpec extends DeviceMemorySpec {
  /** The dtypes the device computes (default: all); the matrix reports the others unsupported on it. */
  readonly dtypes?: readonly DType[];
  /** Kernels by op: each is `library.impl(name, device, kernel)` (a custom op, or a built-in overload). */
  readonly kernels?: Readonly<Record<string, KernelFn>>;
}

/** Device types PyTorch has (c10's DeviceType): a device of that name would pose as one of them. */
export const RESERVED_DEVICE_NAMES: readonly string[] = [
  ...DEVICE_TYPES,
  'cuda',
  'mps',
  'xla',
  'xpu',
  'hip',
  've',
  'fpga',
  'ort',
  'lazy',
  'vulkan',
  'metal',
  'mkldnn',
  'opengl',
  'opencl',
  'ideep',
  'hpu',
  'ipu',
  'mtia',
  'privateuseone',
];

let spec: DeviceSpec | null = null;

/** `registerDevice('jsdev', { allocate, toCpu, fromCpu, dtypes?, kernels? })`: tensors may live on 'jsdev' after it. */
export function registerDevice(name: string, deviceSpec: DeviceSpec): void {
  checkName(name);
  checkSpec(name, deviceSpec);
  const taken = registeredDevice();
  if (taken !== null)
    throw new DuplicateDeviceError('a device is already registered (the runtime has one PrivateUse1 slot)', {
      op: 'registerDevice',
      arg: 'name',
      got: name,
      expected: `no second registerDevice (registered: '${taken}')`,
    });
  setRegisteredDevice(name);
  mapPrivateUse1(name);
  installDeviceMemory(name, deviceSpec);
  spec = deviceSpec;
  for (const [op, kernel] of Object.entries(deviceSpec.kernels ?? {})) impl(op, name, kernel);
}

/** The dtypes the registered device computes (all of them unless its spec says), or [] when none is registered. */
export function deviceDTypes(): readonly DType[] {
  return spec === null ? [] : (spec.dtypes ?? DTYPES);
}

function checkName(name: string): void {
  if (typeof name !== 'string' || !/^[a-z][a-z0-9]*$/.test(name))
    throw new InvalidArgumentError('a device name is lower-case letters and digits', {
      op: 'registerDevice',
      arg: 'name',
      got: typeof name === 'string' ? `'${name}'` : typeof name,
      expected: "a name like 'jsdev' (a device string's index follows a ':', instance ids split on '_')",
    });
  if (RESERVED_DEVICE_NAMES.includes(name))
    throw new ReservedDeviceError(`'${name}' is a built-in or PyTorch device type`, {
      op: 'registerDevice',
      arg: 'name',
      got: name,
      expected: `a name of your own (not ${RESERVED_DEVICE_NAMES.join(', ')})`,
    });
}

function checkSpec(name: string, s: DeviceSpec): void {
  const bad = (arg: string, got: unknown, expected: string): never => {
    throw new InvalidArgumentError('the device spec is malformed', {
      op: `registerDevice('${name}')`,
      arg,
      got: got === null ? 'null' : Array.isArray(got) ? 'an array' : typeof got,
      expected,
    });
  };
  if (s === null || typeof s !== 'object')
    bad('spec', s, 'an object { allocate, toCpu, fromCpu, dtypes?, kernels? }');
  for (const hook of ['allocate', 'toCpu', 'fromCpu'] as const)
    if (typeof s[hook] !== 'function') bad(hook, s[hook], 'a function');
  if (s.dtypes !== undefined) {
    if (!Array.isArray(s.dtypes) || s.dtypes.length === 0)
      bad('dtypes', s.dtypes, 'a non-empty list of dtypes');
    for (const d of s.dtypes)
      if (!isDType(d))
        throw new InvalidArgumentError('the device spec names an unknown dtype', {
          op: `registerDevice('${name}')`,
          arg: 'dtypes',
          got: String(d),
          expected: `one of ${DTYPES.join(', ')}`,
        });
  }
  if (s.kernels !== undefined) {
    if (s.kernels === null || typeof s.kernels !== 'object' || Array.isArray(s.kernels))
      bad('kernels', s.kernels, "an object { 'add.Tensor': kernel, ... }");
    for (const [op, k] of Object.entries(s.kernels)) {
      if (typeof k !== 'function') bad(`kernels['${op}']`, k, 'a function');
      // Every name checked before anything is registered: a typo leaves no half-registered device.
      deviceKernelEntry(op);
    }
  }
}
