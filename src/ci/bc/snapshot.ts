/**
 * The committed schema snapshot (`op_db/schemas.snapshot.json`): every overload of the operator table by
 * qualified name with its schema text, keys sorted, pretty-printed so a diff reads as a schema change.
 */

import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { listOps, parseSchema } from '../../runtime/index.ts';
import { CiError } from '../errors.ts';
import type { SchemaMap } from './compare.ts';

const REPO = resolve(import.meta.dirname, '../../..');
export const DEFAULT_SNAPSHOT = resolve(REPO, 'op_db/schemas.snapshot.json');
export const DEFAULT_ALLOWLIST = resolve(REPO, 'op_db/bc_allowlist.json');

export const SNAPSHOT_VERSION = 1;

/** The namespace of a qualified name: `myops` for `myops::scale_shift`, `aten` for the built-in ops. */
export const namespaceOf = (qualifiedName: string): string =>
  qualifiedName.includes('::') ? qualifiedName.slice(0, qualifiedName.indexOf('::')) : 'aten';

/**
 * The live operator table as a schema map; with `namespace`, only that namespace's overloads (an extension's own
 * snapshot: `opgate bc check --config opgate.config.ts --namespace myops --snapshot myops.snapshot.json`).
 */
export function liveSchemas(namespace?: string): SchemaMap {
  // A custom op's schema text is the parser's, without its namespace: the snapshot keeps it (myops::scale_shift).
  const all = schemaMapOf(
    listOps().map((o) => (o.name.includes('::') ? `${namespaceOf(o.name)}::${o.schema}` : o.schema)),
  );
  if (namespace === undefined) return all;
  return Object.fromEntries(Object.entries(all).filter(([name]) => namespaceOf(name) === namespace));
}

/** A schema text's key: its qualified name, with its namespace when it has one (not aten's). */
function keyOf(text: string): string {
  const ns = /^\s*(\w+)::/.exec(text)?.[1];
  const name = parseSchema(text).qualifiedName;
  return ns === undefined ? name : `${ns}::${name}`;
}

/** A schema map from schema texts, keyed by qualified name (a duplicate overload is an error). */
export function schemaMapOf(schemas: readonly string[]): SchemaMap {
  const map: Record<string, string> = {};
  for (const text of schemas) {
    const key = keyOf(text);
    if (Object.hasOwn(map, key)) throw new CiError('E_DUPLICATE_OVERLOAD', `duplicate overload ${key}`);
    map[key] = text.trim();
  }
  return sortedMap(map);
}

function sortedMap(map: SchemaMap): SchemaMap {
  const out: Record<string, string> = {};
  for (const k of Object.keys(map).sort()) out[k] = map[k];
  return out;
}

/** The snapshot file's text: `{version, schemas}` with sorted keys, two-space indent, trailing newline. */
export function serializeSnapshot(schemas: SchemaMap): string {
  return `${JSON.stringify({ version: SNAPSHOT_VERSION, schemas: sortedMap(schemas) }, null, 2)}\n`;
}

/** Parses and validates a snapshot's text: every schema parses and its key is its qualified name. */
export function parseSnapshot(text: string, source = 'snapshot'): SchemaMap {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new CiError(
      'E_FILE_INVALID',
      `${source}: not JSON (${e instanceof Error ? e.message : String(e)})`,
    );
  }
  const obj = raw as { version?: unknown; schemas?: unknown };
  if (!obj || typeof obj !== 'object' || obj.version !== SNAPSHOT_VERSION)
    throw new CiError(
      'E_FILE_INVALID',
      `${source}: expected {"version": ${SNAPSHOT_VERSION}, "schemas": {...}}`,
    );
  if (!obj.schemas || typeof obj.schemas !== 'object' || Array.isArray(obj.schemas))
    throw new CiError(
      'E_FILE_INVALID',
      `${source}: "schemas" must be an object of qualified name -> schema text`,
    );
  const map: Record<string, string> = {};
  for (const [key, value] of Object.entries(obj.schemas as Record<string, unknown>)) {
    if (typeof value !== 'string')
      throw new CiError('E_FILE_INVALID', `${source}: schema of ${key} is not a string`);
    let name: string;
    try {
      name = keyOf(value);
    } catch (e) {
      throw new CiError('E_FILE_INVALID', `${source}: ${key}: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (name !== key)
      throw new CiError('E_FILE_INVALID', `${source}: key ${key} holds the schema of ${name}`);
    map[key] = value;
  }
  return map;
}

export function readSnapshot(path: string = DEFAULT_SNAPSHOT): SchemaMap {
  return parseSnapshot(readFileSync(path, 'utf8'), path);
}

export function writeSnapshot(schemas: SchemaMap, path: string = DEFAULT_SNAPSHOT): void {
  writeFileSync(path, serializeSnapshot(schemas));
}
