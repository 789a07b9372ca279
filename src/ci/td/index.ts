export {
  type Affected,
  affectedBy,
  isAffected,
  opsServedBy,
  relativeImports,
  runtimeNamesOf,
  sourceFiles,
} from './affected.ts';
export { changedFiles } from './changed.ts';
