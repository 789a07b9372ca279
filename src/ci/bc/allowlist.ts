/**
 * The BC allowlist (`op_db/bc_allowlist.json`), after PyTorch's ALLOW_LIST in
 * test/forward_backward_compatibility/check_forward_backward_compatibility.py: entries
 * `{op, until, reason}` where `op` is a qualified overload name (`add.Tensor`) or a regex matched against the
 * whole qualified name (`add(\..*)?`). An entry suppresses that op's breaks and warnings through `until`
 * (inclusive); after that it is expired: reported, and it suppresses nothing.
 */

import { readFileSync } from 'node:fs';
import { CiError } from '../errors.ts';
import { DEFAULT_ALLOWLIST } from './snapshot.ts';

export interface AllowEntry {
  readonly op: string;
  /** `YYYY-MM-DD`: the last day the entry applies. */
  readonly until: string;
  readonly reason: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** True for a real `YYYY-MM-DD` calendar date. */
export function isIsoDate(s: string): boolean {
  if (!DATE.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** Today's local date as `YYYY-MM-DD`. */
export function todayIso(now: Date = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}`;
}

export function parseAllowlist(text: string, source = 'allowlist'): AllowEntry[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new CiError(
      'E_FILE_INVALID',
      `${source}: not JSON (${e instanceof Error ? e.message : String(e)})`,
    );
  }
  if (!Array.isArray(raw))
    throw new CiError('E_FILE_INVALID', `${source}: expected an array of {op, until, reason}`);
  return raw.map((e: unknown, i) => {
    const entry = e as Partial<Record<keyof AllowEntry, unknown>> | null;
    const where = `${source}[${i}]`;
    if (!entry || typeof entry !== 'object')
      throw new CiError('E_FILE_INVALID', `${where}: expected {op, until, reason}`);
    const { op, until, reason } = entry;
    if (typeof op !== 'string' || !op)
      throw new CiError('E_FILE_INVALID', `${where}: "op" must be a non-empty string`);
    if (typeof until !== 'string' || !isIsoDate(until))
      throw new CiError(
        'E_FILE_INVALID',
        `${where}: "until" must be a YYYY-MM-DD date, got ${JSON.stringify(until)}`,
      );
    if (typeof reason !== 'string' || !reason.trim())
      throw new CiError('E_FILE_INVALID', `${where}: "reason" is required`);
    try {
      new RegExp(op);
    } catch {
      throw new CiError(
        'E_FILE_INVALID',
        `${where}: "op" ${JSON.stringify(op)} is neither a name nor a valid regex`,
      );
    }
    return { op, until, reason };
  });
}

export function readAllowlist(path: string = DEFAULT_ALLOWLIST): AllowEntry[] {
  return parseAllowlist(readFileSync(path, 'utf8'), path);
}

/** The op is the entry's name, or the entry's regex matches the whole qualified name. */
export function entryMatches(entry: AllowEntry, op: string): boolean {
  return entry.op === op || new RegExp(`^(?:${entry.op})$`).test(op);
}

/** An entry is expired the day after `until`. */
export function isExpired(entry: AllowEntry, today: string): boolean {
  return today > entry.until;
}
