export { DEVICE_TYPES, type DeviceType, parseDevice } from './device.ts';
export {
  type ComputeDomain,
  CPP_TYPE_NAMES,
  DTYPE_GROUPS,
  DTYPE_INFO,
  DTYPES,
  type DType,
  type DTypeInfo,
  type DTypeKind,
  integralRange,
  isComplexDType,
  isDType,
  isFloatingDType,
  isIntegralDType,
  type StorageArray,
  toComplexDType,
  toRealDType,
} from './dtype.ts';
export {
  AutogradError,
  DeviceMismatchError,
  DimOutOfRangeError,
  DTypeUnsupportedError,
  type ErrorCode,
  type ErrorDetails,
  GraphFreedError,
  IndexOutOfRangeError,
  InplaceBroadcastError,
  InplaceVersionError,
  InternalOverlapError,
  InvalidArgumentError,
  InvalidViewError,
  NoAdapterError,
  NoOverloadError,
  NotImplementedError,
  OpgateError,
  ResultTypeError,
  SchemaParseError,
  ShapeMismatchError,
  SyncReadbackError,
  UnknownOpError,
  ZeroDivisionError,
} from './errors.ts';
export { bf16BitsToNumber, f16BitsToNumber, numberToBf16Bits, numberToF16Bits } from './half.ts';
export { broadcastStridesFor, iterationOrder, pointwiseOutputStrides, stridesInOrder } from './layout.ts';
export {
  canCast,
  getDefaultDType,
  type PromotionOperand,
  promoteTypes,
  resultType,
  type ScalarKind,
  scalarDType,
  setDefaultDType,
} from './promotion.ts';
export { bool, complex, float, int, isScalarLike, Scalar, type ScalarLike, toScalar } from './scalar.ts';
export {
  broadcastAll,
  broadcastShapes,
  channelsLastStrides,
  computeViewStrides,
  contiguousStrides,
  expandStrides,
  inferSize,
  isContiguousLayout,
  isNonOverlappingAndDense,
  numelOf,
  type Shape,
  sameShape,
  viewError,
  wrapDim,
} from './shape.ts';
export { type DeviceMemory, registerDeviceMemory, Storage } from './storage.ts';
export { type AutogradMeta, storageSpan, Tensor } from './tensor.ts';
export { promotionOperand, scalarToTensor } from './wrap.ts';
