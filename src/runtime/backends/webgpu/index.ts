export { type AllocatorStats, CachingAllocator, sizeClass } from './allocator.ts';
export {
  gpu,
  initWebGPU,
  NO_ADAPTER_MESSAGE,
  type WebGPUInfo,
  webgpuInfo,
  webgpuUnavailableReason,
} from './device.ts';
export { gridFor, type Launch, launch, launchStats, linearIndex, Params, WORKGROUP } from './launch.ts';
export {
  allocator,
  blockOf,
  downloadTensor,
  readStorage,
  uploadStorage,
  uploadTensor,
  WEBGPU_DTYPES,
  WEBGPU_STORAGE,
  type WgslStorage,
  wgslStorage,
  wordsPer,
} from './memory.ts';
export { copyGPU, type GpuOperand, type GpuPointwise, runPointwiseGPU } from './pointwise.ts';
export {
  computeValue,
  convert,
  helpersFor,
  loadExpr,
  storeStmt,
  stridedOffsets,
  toStorage,
  type WgslValue,
} from './wgsl.ts';
