export { type Affected, affectedBy, isAffected, sourceFiles } from './affected.ts';
export { changedFiles } from './changed.ts';
