/**
 * The dashboards' data as named JSON documents: `data/<name>.json` plus one file per non-green grid cell. The
 * live server computes a document per request; the static build writes them all once.
 */
import { cellPath } from '../shared.ts';
import { coverageData } from './coverage.ts';
import type { ReadDb } from './db.ts';
import { flakyData } from './flaky.ts';
import { cellData, gridData } from './grid.ts';
import { perfData } from './perf.ts';
import { shardsData } from './shards.ts';
import { testsData } from './tests.ts';

export { DEVICE_TYPES as DEVICES } from '../../src/runtime/index.ts';
export { openReadOnly, type ReadDb } from './db.ts';
export { cellData } from './grid.ts';

export interface SiteMeta {
  /** `owner/name` on GitHub, for issue links; null when unknown. */
  readonly repo: string | null;
  readonly generatedAt: string;
  readonly mode: 'live' | 'static';
}

export const DOCUMENTS = {
  grid: (db: ReadDb) => gridData(db),
  coverage: (db: ReadDb) => coverageData(db),
  flaky: (db: ReadDb) => flakyData(db),
  perf: (db: ReadDb) => perfData(db),
  shards: (db: ReadDb) => shardsData(db),
  tests: (db: ReadDb) => testsData(db),
} as const satisfies Record<string, (db: ReadDb) => unknown>;

export type DocumentName = keyof typeof DOCUMENTS;

export const isDocument = (name: string): name is DocumentName => Object.hasOwn(DOCUMENTS, name);

/** Every file of the static site's data: the documents and the failures of each non-green grid cell. */
export function allDataFiles(db: ReadDb, meta: SiteMeta): Map<string, unknown> {
  const files = new Map<string, unknown>([['data/meta.json', meta]]);
  for (const name of Object.keys(DOCUMENTS) as DocumentName[]) {
    const doc = DOCUMENTS[name](db);
    files.set(`data/${name}.json`, doc);
    if (name === 'grid') {
      const grid = doc as ReturnType<typeof gridData>;
      for (const [key, cell] of Object.entries(grid.cells)) {
        if (cell.status === 'green') continue;
        const at = key.indexOf(' ');
        const sha = key.slice(0, at);
        const job = key.slice(at + 1);
        files.set(cellPath(sha, job), cellData(db, sha, job));
      }
    }
  }
  return files;
}
