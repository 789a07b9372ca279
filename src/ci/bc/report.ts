/**
 * The BC gate's verdict: the schema changes between the snapshot and the live table, split into unallowed BC
 * breaks (fail), unallowed FC breaks (warn), allowlisted changes, new overloads, and the allowlist's expired and
 * unused entries. `ok` is false exactly when some BC break is not allowlisted.
 */
import { type AllowEntry, entryMatches, isExpired } from './allowlist.ts';
import { compareSchemaMaps, type SchemaChange, type SchemaMap } from './compare.ts';

export interface AllowedChange {
  readonly change: SchemaChange;
  readonly entry: AllowEntry;
}

export interface BcReport {
  readonly ok: boolean;
  readonly today: string;
  readonly overloads: { readonly snapshot: number; readonly live: number };
  /** Unallowed BC breaks: the gate fails on these. */
  readonly breaks: readonly SchemaChange[];
  /** Unallowed FC breaks: warnings. */
  readonly warnings: readonly SchemaChange[];
  /** BC and FC breaks suppressed by an active allowlist entry. */
  readonly allowed: readonly AllowedChange[];
  /** New overloads (the snapshot needs `opgate bc update`). */
  readonly added: readonly SchemaChange[];
  /** Allowlist entries past their date: reported, and they suppress nothing. */
  readonly expired: readonly AllowEntry[];
  /** Active allowlist entries that match no change. */
  readonly unused: readonly AllowEntry[];
  /** The live table differs from the snapshot in any way. */
  readonly stale: boolean;
}

export function checkBc(
  snapshot: SchemaMap,
  live: SchemaMap,
  allowlist: readonly AllowEntry[],
  today: string,
): BcReport {
  const changes = compareSchemaMaps(snapshot, live);
  const active = allowlist.filter((e) => !isExpired(e, today));
  const used = new Set<AllowEntry>();
  const breaks: SchemaChange[] = [];
  const warnings: SchemaChange[] = [];
  const allowed: AllowedChange[] = [];
  for (const c of changes) {
    if (c.severity === 'info') continue;
    const entry = active.find((e) => entryMatches(e, c.op));
    if (entry) {
      used.add(entry);
      allowed.push({ change: c, entry });
    } else (c.severity === 'bc' ? breaks : warnings).push(c);
  }
  return {
    ok: breaks.length === 0,
    today,
    overloads: { snapshot: Object.keys(snapshot).length, live: Object.keys(live).length },
    breaks,
    warnings,
    allowed,
    added: changes.filter((c) => c.severity === 'info'),
    expired: allowlist.filter((e) => isExpired(e, today)),
    unused: active.filter((e) => !used.has(e)),
    stale: changes.length > 0,
  };
}

const detail = (c: SchemaChange): string =>
  c.old !== null || c.new !== null
    ? `\n      old: ${c.old ?? '(none)'}\n      new: ${c.new ?? '(none)'}`
    : '';

/** The human-readable report `opgate bc check` prints. */
export function formatBcReport(r: BcReport): string {
  const lines: string[] = [
    `schema BC check (${r.today}): ${r.overloads.snapshot} overloads in the snapshot, ${r.overloads.live} live`,
  ];
  for (const c of r.breaks) lines.push(`  error   BC ${c.op} [${c.kind}]: ${c.message}${detail(c)}`);
  for (const c of r.warnings) lines.push(`  warning FC ${c.op} [${c.kind}]: ${c.message}${detail(c)}`);
  for (const { change: c, entry } of r.allowed)
    lines.push(
      `  allowed ${c.severity.toUpperCase()} ${c.op} [${c.kind}]: ${c.message} (allowlisted until ${entry.until}: ${entry.reason})`,
    );
  for (const c of r.added) lines.push(`  info    ${c.op} [${c.kind}]`);
  for (const e of r.expired)
    lines.push(
      `  expired allowlist entry ${JSON.stringify(e.op)} (until ${e.until}: ${e.reason}): remove it`,
    );
  for (const e of r.unused)
    lines.push(`  unused  allowlist entry ${JSON.stringify(e.op)} (until ${e.until}) matches no change`);
  const counts = `${r.breaks.length} BC break(s), ${r.warnings.length} FC warning(s), ${r.allowed.length} allowlisted, ${r.added.length} new overload(s)`;
  if (!r.ok)
    lines.push(
      `FAIL: ${counts}.`,
      'A BC break fails old callers. Restore the schema, or (if intended) add an entry with an expiry date to ' +
        'op_db/bc_allowlist.json and refresh the snapshot with `opgate bc update`.',
    );
  else {
    lines.push(`OK: ${counts}.`);
    if (r.stale) lines.push('The snapshot differs from the live operator table: run `opgate bc update`.');
  }
  return lines.join('\n');
}
