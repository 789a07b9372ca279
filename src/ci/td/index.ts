export { type Affected, affectedBy, isAffected } from './affected.ts';
export { changedFiles } from './changed.ts';
