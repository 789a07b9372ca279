/** The schema BC/FC gate: snapshot, per-overload comparison, allowlist with expiry, report. */
export {
  type AllowEntry,
  entryMatches,
  isExpired,
  isIsoDate,
  parseAllowlist,
  readAllowlist,
  todayIso,
} from './allowlist.ts';
export {
  BC_KINDS,
  type ChangeKind,
  compareSchemaMaps,
  compareSchemas,
  FC_KINDS,
  INFO_KINDS,
  isSubtype,
  type SchemaChange,
  type SchemaMap,
  type Severity,
  typeText,
} from './compare.ts';
export { type AllowedChange, type BcReport, checkBc, formatBcReport } from './report.ts';
export {
  DEFAULT_ALLOWLIST,
  DEFAULT_SNAPSHOT,
  liveSchemas,
  parseSnapshot,
  readSnapshot,
  SNAPSHOT_VERSION,
  schemaMapOf,
  serializeSnapshot,
  writeSnapshot,
} from './snapshot.ts';
