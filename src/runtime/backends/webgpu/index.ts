export { type AllocatorStats, CachingAllocator, sizeClass } from './allocator.ts';
export { type Extreme, runArgReduceGPU } from './arg_reduce.ts';
export { convGPU, type GpuConvParams } from './conv.ts';
export {
  gpu,
  initWebGPU,
  NO_ADAPTER_MESSAGE,
  synchronizeWebGPU,
  type WebGPUInfo,
  webgpuInfo,
  webgpuUnavailableReason,
} from './device.ts';
export { fillGPU, type Sequence, sequenceGPU } from './fill.ts';
export { gatherGPU, maskedFillGPU } from './gather.ts';
export { gridFor, type Launch, launch, launchStats, linearIndex, Params, WORKGROUP } from './launch.ts';
export { type GpuMatrix, matmulGPU } from './matmul.ts';
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
export { type PadDim, type PadMode, padGPU } from './pad.ts';
export { copyGPU, type GpuOperand, type GpuPointwise, runPointwiseGPU } from './pointwise.ts';
export {
  adaptiveWindowsGPU,
  type GpuDivide,
  type GpuPool,
  type GpuWindows,
  poolGPU,
  slidingWindowsGPU,
} from './pool.ts';
export { flush as flushWebGPU, queueStats } from './queue.ts';
export { type GpuFold, type GpuReduce, runReduceGPU } from './reduce.ts';
export type { GpuAcc, GpuLoad } from './reduce_wgsl.ts';
export { type GpuTaps, resampleGPU } from './resample.ts';
export { type GpuScan, runScanGPU } from './scan.ts';
export { type ScatterReduce, scatterGPU } from './scatter.ts';
export { rollFlatGPU, triangleGPU } from './shape_kernels.ts';
export { runSoftmaxGPU, type SoftmaxKind } from './softmax.ts';
export { sortGPU } from './sort.ts';
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
