export {
  type Affected,
  affectedBy,
  isAffected,
  opsServedBy,
  runtimeNamesOf,
  sourceFiles,
} from './affected.ts';
export { changedFiles } from './changed.ts';
