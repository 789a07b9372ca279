/** The runtime surface the oracles use (one place to see what oracles depend on). */
export {
  bindCall,
  type CompileBackend,
  callOp,
  canCast,
  compile,
  contiguousStrides,
  DTYPE_INFO,
  DTYPES,
  type DType,
  deviceDTypes,
  Generator,
  grad,
  initWebGPU,
  isDType,
  isRegisteredDevice,
  MissingKernelError,
  manualSeed,
  NoAdapterError,
  noGrad,
  OpgateError,
  operatorTable,
  registeredDevice,
  Scalar,
  type Schema,
  Storage,
  stridePattern,
  Tensor,
  tensor,
  toDevice,
  webgpuUnavailableReason,
} from '../runtime/index.ts';

export function sameShapeOf(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
