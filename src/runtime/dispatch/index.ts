export { BindFailure, type BoundArgs, bindArgs, givenArgNames, takesNumbersAsTensors } from './binding.ts';
export { bindCall, callEntry, callOp, computeKeySet, redispatch, setKeyFallback } from './dispatcher.ts';
export {
  BACKEND_KEYS,
  DEVICE_KEY,
  DispatchKey,
  DispatchKeySet,
  isBackendKey,
  KEY_NAMES,
  localExcluded,
  localIncluded,
  mapPrivateUse1,
  replaceExcludedKeys,
  TENSOR_WRAPPER_KEYS,
  withExcludedKeys,
  withIncludedKeys,
} from './keys.ts';
export { parseSchema, parseType } from './schema.ts';
export { formatSchema, formatType } from './schema_format.ts';
export type { AliasInfo, ArgType, Argument, BaseType, Return, Schema } from './schema_types.ts';
export { type Kernel, OperatorEntry, OperatorTable, type OpTags, operatorTable } from './table.ts';
export {
  type ApiDecl,
  type ApiEntry,
  type FunctionNames,
  type ListNames,
  type MethodNames,
  type OpSurface,
  surfaceOf,
  type Variants,
} from './variants.ts';
