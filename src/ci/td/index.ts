export {
  type Affected,
  affectedBy,
  exportedNames,
  isAffected,
  opsServedBy,
  relativeImports,
  runtimeNamesOf,
  sourceFiles,
} from './affected.ts';
export { changedFiles } from './changed.ts';
