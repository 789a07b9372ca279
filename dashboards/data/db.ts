/**
 * The dashboards read the results store and never write it: the file is opened through the store's read-only
 * reader (a running `opgate run` can keep writing to it in WAL mode), and must already exist at the current
 * schema version. Every query is the store's; the data layer only shapes the documents.
 */
import { existsSync } from 'node:fs';
import { openReadOnly as openReader, type ResultsReader, SCHEMA_VERSION } from '../../src/ci/index.ts';
import { DashboardError } from '../errors.ts';

export type ReadDb = ResultsReader;

export function openReadOnly(path: string): ReadDb {
  if (!existsSync(path))
    throw new DashboardError(
      'E_DB_NOT_FOUND',
      `--db: no results database at ${path} (expected a file written by \`opgate run\` or \`opgate merge\`)`,
    );
  const db = openReader(path);
  const version = db.schemaVersion;
  if (version > SCHEMA_VERSION) {
    db.close();
    throw new DashboardError(
      'E_DB_SCHEMA',
      `--db: ${path} is at schema version ${version}, newer than this opgate's ${SCHEMA_VERSION} (it was written by a newer opgate: upgrade opgate to read it)`,
    );
  }
  if (version !== SCHEMA_VERSION) {
    db.close();
    throw new DashboardError(
      'E_DB_SCHEMA',
      `--db: ${path} is at schema version ${version}, expected ${SCHEMA_VERSION} (open it once with this opgate's writer, e.g. \`npx opgate flaky list --db ${path}\`, which migrates it in place)`,
    );
  }
  return db;
}
