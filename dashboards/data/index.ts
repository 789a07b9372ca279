/**
 * The dashboards' data as named JSON documents: `data/<name>.json` plus one file per non-green grid cell. The
 * live server computes a document per request; the static build writes them all once.
 */

import { commitStamp, mutationRuns, previousUlpCommit, recentCommits } from '../../src/ci/index.ts';
import { cellPath, commitDocPath, mutationRunPath } from '../shared.ts';
import { coverageData } from './coverage.ts';
import type { ReadDb } from './db.ts';
import { flakyData } from './flaky.ts';
import { cellData, gridData } from './grid.ts';
import { type MutationData, mutationData, mutationRunIds } from './mutation.ts';
import { numericsData } from './numerics.ts';
import { perfData } from './perf.ts';
import { schemaData } from './schema.ts';
import { shardsData } from './shards.ts';
import { targetsData } from './targets.ts';
import { testsData } from './tests.ts';

export { recentCommits } from '../../src/ci/index.ts';
export { DEVICE_TYPES as DEVICES } from '../../src/runtime/index.ts';
export { openReadOnly, type ReadDb } from './db.ts';
export { cellData } from './grid.ts';
export { type TestsData, testsData } from './tests.ts';

/** One mutation run's document (`data/mutation/<id>.json`); null for a run that does not exist. */
export function mutationRunDoc(db: ReadDb, mrunId: number): MutationData | null {
  const doc = mutationData(db, mrunId);
  return doc.run ? doc : null;
}

export interface SiteMeta {
  /** `owner/name` on GitHub, for issue links; null when unknown. */
  readonly repo: string | null;
  readonly generatedAt: string;
  readonly mode: 'live' | 'static';
  /** The commits that have per-commit documents (the static site's newest few); null: any commit (live). */
  readonly perCommit: readonly string[] | null;
}

export const DOCUMENTS = {
  grid: (db: ReadDb) => gridData(db),
  coverage: (db: ReadDb) => coverageData(db, undefined, 20),
  flaky: (db: ReadDb) => flakyData(db),
  perf: (db: ReadDb) => perfData(db),
  shards: (db: ReadDb) => shardsData(db),
  tests: (db: ReadDb) => testsData(db),
  numerics: (db: ReadDb) => numericsData(db),
  mutation: (db: ReadDb) => mutationData(db),
  // Foreign runtimes (--target): each one's newest run.
  targets: (db: ReadDb) => targetsData(db),
  // Schema coverage: op_db and the runtime's, not the store's (the coverage view shows it under its matrix).
  schema: (_db: ReadDb) => schemaData(),
} as const satisfies Record<string, (db: ReadDb) => unknown>;

export type DocumentName = keyof typeof DOCUMENTS;

/** Views that can show any commit: `data/<name>/<slug(sha)>.json`. */
export const PER_COMMIT = {
  coverage: (db: ReadDb, sha: string) => coverageData(db, sha),
  // Without the window's history, which every commit's page would repeat (and a build could not keep).
  shards: (db: ReadDb, sha: string) => shardsData(db, sha, 0),
  numerics: (db: ReadDb, sha: string) => numericsData(db, sha),
} as const satisfies Record<string, (db: ReadDb, sha: string) => unknown>;

export const isPerCommit = (name: string): name is keyof typeof PER_COMMIT => Object.hasOwn(PER_COMMIT, name);

/** How many of the newest commits the static site carries per-commit documents for. */
export const STATIC_PER_COMMIT = 10;

export const isDocument = (name: string): name is DocumentName => Object.hasOwn(DOCUMENTS, name);

/** A file of the static site's data: its document, computed when asked, and what it is computed from. */
export interface DataFile {
  /** Equal stamps, equal documents (null: computed every build, as the window's documents are). */
  readonly stamp: string | null;
  readonly doc: () => unknown;
}

/**
 * Every file of the static site's data: the documents, the per-commit documents of the newest commits, each
 * listed mutation run's document and the failures of each non-green grid cell. A per-commit document, a cell and
 * a mutation run's document carry a stamp (its commit's runs as they stand; a numerics document's previous
 * commit's too), so a build may keep what an earlier build wrote.
 */
export function allDataFiles(db: ReadDb, base: Omit<SiteMeta, 'perCommit'>): Map<string, DataFile> {
  const perCommit = recentCommits(db, STATIC_PER_COMMIT).map((c) => c.sha);
  const files = new Map<string, DataFile>([
    ['data/meta.json', { stamp: null, doc: () => ({ ...base, perCommit }) satisfies SiteMeta }],
  ]);
  const stamps = new Map<string, string>();
  const stampOf = (sha: string) => {
    const s = stamps.get(sha) ?? commitStamp(db, sha);
    stamps.set(sha, s);
    return s;
  };
  for (const sha of perCommit)
    for (const name of Object.keys(PER_COMMIT) as (keyof typeof PER_COMMIT)[]) {
      const before = name === 'numerics' ? previousUlpCommit(db, sha) : null;
      files.set(commitDocPath(name, sha), {
        stamp: `${stampOf(sha)}${before ? ` after ${before} ${stampOf(before)}` : ''}`,
        doc: () => PER_COMMIT[name](db, sha),
      });
    }
  const runs = new Map(mutationRuns(db).map((r) => [r.mrunId, JSON.stringify(r)]));
  for (const id of mutationRunIds(db))
    files.set(mutationRunPath(id), { stamp: runs.get(id) ?? null, doc: () => mutationData(db, id) });
  for (const name of Object.keys(DOCUMENTS) as DocumentName[]) {
    // The static search document holds every id of the window: no server answers patterns there.
    const doc = name === 'tests' ? testsData(db, { all: true }) : DOCUMENTS[name](db);
    files.set(`data/${name}.json`, { stamp: null, doc: () => doc });
    if (name === 'grid') {
      const grid = doc as ReturnType<typeof gridData>;
      for (const [key, cell] of Object.entries(grid.cells)) {
        if (cell.status === 'green') continue;
        const at = key.indexOf(' ');
        const sha = key.slice(0, at);
        const job = key.slice(at + 1);
        files.set(cellPath(sha, job), { stamp: stampOf(sha), doc: () => cellData(db, sha, job) });
      }
    }
  }
  return files;
}
