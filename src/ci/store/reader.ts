/**
 * The read-only side of the store, for the dashboards and for anything that watches a database another process
 * writes: opened read-only (a running `opgate run` keeps writing it in WAL mode), never migrated, never reaped.
 * A reader cannot write 'aborted' into a run whose process died, so its connection gets the
 * `opgate_run_status(...)` SQL function and every query that asks whether a run is going calls it.
 */
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { CiError } from '../errors.ts';
import { type ResultsSource, SQL, type Sql } from './connection.ts';
import { dbError } from './db_errors.ts';
import { checkWal, openForReading } from './file.ts';
import { defineRunStatusFunction } from './liveness.ts';
import { checkOpened } from './open.ts';
import { allRuns, lastRunIdOf, type ResultRow, resultsOf, runById, type StoredRun } from './runs.ts';

export class ResultsReader implements ResultsSource {
  readonly [SQL]: Sql;

  /**
   * Throws E_FILE_NOT_FOUND when there is no file at `path` (a reader never creates one). `brief`: a short read
   * (a shard plan's history) that leaves no -wal/-shm behind (file.ts's openForReading); a long-lived reader
   * (the dashboards) stays read-only, so its close never checkpoints a running writer's -wal.
   */
  constructor(
    readonly path: string,
    o: { readonly brief?: boolean } = {},
  ) {
    if (!existsSync(path)) throw new CiError('E_FILE_NOT_FOUND', `${path}: no such results database`);
    // A reader is checked like a writer (open.ts): damage is reported, never read as if it were results.
    checkWal(path);
    let db: Sql | null = null;
    try {
      db = o.brief ? openForReading(path) : new Database(path, { readonly: true, fileMustExist: true });
      // SQLite reads the header lazily: a damaged or foreign file fails here, not at the first view.
      db.pragma('user_version');
      checkOpened(db, path, { pages: true, runs: true });
    } catch (e) {
      db?.close();
      throw dbError(e, path, 'opening for reading');
    }
    this[SQL] = db;
    defineRunStatusFunction(db);
  }

  /** user_version: 0 for a database no writer has migrated yet (it has no tables to query). */
  get schemaVersion(): number {
    return this[SQL].pragma('user_version', { simple: true }) as number;
  }

  run(runId: number): StoredRun | null {
    return runById(this, runId);
  }

  /** Every run, oldest first, each status as readers see it. */
  runs(): StoredRun[] {
    return allRuns(this);
  }

  results(runId: number): ResultRow[] {
    return resultsOf(this, runId);
  }

  lastRunId(): number | null {
    return lastRunIdOf(this);
  }

  close(): void {
    this[SQL].close();
  }
}

/** A read-only handle on an existing results database. */
export const openReadOnly = (path: string): ResultsReader => new ResultsReader(path);
