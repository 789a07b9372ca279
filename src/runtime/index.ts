/**
 * The runtime's public API: torch-like functions, Tensor methods, `callOp` (any op by PyTorch name), dtypes,
 * promotion, scalars, errors and the operator table listing.
 */
import { buildTorchFunctions } from './api/functions.ts';
import { installTensorMethods } from './api/methods.ts';
import { installReadback } from './api/readback.ts';
import { installAutogradMethods, registerAutograd } from './autograd/index.ts';
import { registerAllOps } from './ops/index.ts';

registerAllOps();
registerAutograd();
installTensorMethods();
installReadback();
installAutogradMethods();

export { fromArray, type NestedData, type TensorOptions, tensor } from './api/creation.ts';
export { getitem, type IndexItem, type Slice, slice } from './api/indexing.ts';
export { listOps, type OpListing, type OpVariants, opVariants } from './api/listing.ts';
export { type OpsNamespace, ops } from './api/ops_namespace.ts';
export { type Element, flatValues, type Nested, toHost } from './api/readback.ts';
export {
  type BackwardOptions,
  backward,
  DERIVATIVES,
  enableGrad,
  type GradOptions,
  grad,
  inferenceMode,
  isGradEnabled,
  NONDIFFERENTIABLE,
  Node,
  noGrad,
  opsWithoutDerivative,
  setGradEnabled,
} from './autograd/index.ts';
// torch.set_num_threads / get_num_threads: the cpu thread pool behind large products (backends/cpu/wasm/threads.ts).
export { getNumThreads, setNumThreads } from './backends/cpu/index.ts';
// A registered device's tensors moved whole (layout and aliasing kept) and read back: what the oracles use.
export { hostView, toDevice } from './backends/privateuse1/index.ts';
export {
  type AllocatorStats,
  allocator as webgpuAllocator,
  downloadTensor,
  type GpuPointwise as WebgpuPointwise,
  initWebGPU,
  launchStats as webgpuLaunchStats,
  NO_ADAPTER_MESSAGE,
  // A strided pointwise WGSL kernel from one expression: what an out-of-tree op's webgpu kernel is written with.
  runPointwiseGPU as webgpuPointwise,
  synchronizeWebGPU,
  uploadTensor,
  WEBGPU_DTYPES,
  type WebGPUInfo,
  webgpuInfo,
  webgpuUnavailableReason,
} from './backends/webgpu/index.ts';
export {
  type CompileBackend,
  type CompileCounters,
  type CompiledFunction,
  type CompileOptions,
  compile,
  compileCounters,
  type EntryInfo,
  type Explanation,
  explain,
  type FusedGroup,
  formatGraph,
  fusionHooks,
  stridePattern,
} from './compile/index.ts';
export {
  bool,
  broadcastAll,
  broadcastShapes,
  canCast,
  complex,
  computeViewStrides,
  contiguousStrides,
  DEVICE_TYPES,
  type DeviceType,
  DTYPE_GROUPS,
  DTYPE_INFO,
  DTYPES,
  type DType,
  DTypeUnsupportedError,
  DuplicateDeviceError,
  DuplicateOpError,
  deviceTypes,
  type ErrorCode,
  expandStrides,
  float,
  Generator,
  getDefaultDType,
  getDefaultGenerator,
  InvalidArgumentError,
  int,
  isDType,
  isRegisteredDevice,
  MAX_LIST_OUTPUTS,
  MissingKernelError,
  manualSeed,
  maxAllocationBytes,
  NoAdapterError,
  OpgateError,
  OutOfMemoryError,
  pointwiseOutputStrides,
  promoteTypes,
  ReservedDeviceError,
  ReservedNamespaceError,
  registeredDevice,
  resultType,
  Scalar,
  SchemaMismatchError,
  ShapeMismatchError,
  Storage,
  type StorageArray,
  setDefaultDType,
  setMaxAllocationBytes,
  Tensor,
} from './core/index.ts';
export {
  bindCall,
  callOp,
  computeKeySet,
  DispatchKey,
  DispatchKeySet,
  givenArgNames,
  type Kernel,
  type OperatorEntry,
  operatorTable,
  parseSchema,
  redispatch,
  type Schema,
  takesNumbersAsTensors,
  withExcludedKeys,
  withIncludedKeys,
} from './dispatch/index.ts';
/**
 * Custom ops (torch.library): `library.define('myops::f(Tensor x) -> Tensor')`, `library.impl(...)`,
 * `library.registerAutograd(...)`, `library.registerFake(...)`.
 */
export * as library from './library/index.ts';
export {
  type AutogradContext,
  type Backward,
  type DeviceSpec,
  deviceDTypes,
  type ImplTarget,
  type KernelFn,
  registerDevice,
} from './library/index.ts';
/**
 * Every op declared a function, by its PyTorch name: `torch.add(a, b)`, `torch.var(x)`. A computed object,
 * since ES named exports are static; its type comes from the definitions' `as const` variant declarations.
 */
export const torch = buildTorchFunctions();
export type { TorchFunctions } from './api/functions.ts';
export { type ApiNames, apiNames, type FunctionName, type MethodName } from './api/names.ts';
/** Test knob: the out= write-through for `op(x, out=x)` (tests/unit/oracles_bite.test.ts turns it off). */
/**
 * The order PyTorch 1.13's CPU sort (stable=False) and topk leave equal values in: libstdc++'s std::sort and
 * topk's selection on element ids (op_db's sort and topk references take the tie order from here).
 */
export { introsort, type Less, outAliasing, topkOrder } from './ops/index.ts';
