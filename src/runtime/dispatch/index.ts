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
  replaceExcludedKeys,
  TENSOR_WRAPPER_KEYS,
  withExcludedKeys,
  withIncludedKeys,
} from './keys.ts';
export {
  type AliasInfo,
  type ArgType,
  type Argument,
  type BaseType,
  formatSchema,
  formatType,
  parseSchema,
  parseType,
  type Return,
  type Schema,
} from './schema.ts';
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
