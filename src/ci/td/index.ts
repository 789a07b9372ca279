export { type Affected, affectedBy, isAffected, opsServedBy, sourceFiles } from './affected.ts';
export { changedFiles } from './changed.ts';
