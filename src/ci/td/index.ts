export { type Affected, affectedBy, isAffected, runtimeNamesOf, sourceFiles } from './affected.ts';
export { changedFiles } from './changed.ts';
