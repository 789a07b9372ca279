export {
  type Affected,
  affectedBy,
  exportedNames,
  isAffected,
  opsServedBy,
  runtimeNamesOf,
  sourceFiles,
} from './affected.ts';
export { changedFiles } from './changed.ts';
export { relativeImports } from './imports.ts';
