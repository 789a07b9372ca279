/**
 * The store's SQLite handle, kept where only the store's own files can reach it. Every SQL statement of opgate
 * lives under src/ci/store/ (tests/unit/sql_owner.test.ts checks it): the writer (ResultsStore) and the
 * read-only reader (ResultsReader) carry their connection under a symbol that the ci face does not export, and
 * the query functions next to them take either one.
 */
import type Database from 'better-sqlite3';

export type Sql = Database.Database;

/** Where a store object keeps its connection. */
export const SQL: unique symbol = Symbol('opgate.store.sql');

/** A results database open for reading: the writer or the read-only reader. */
export interface ResultsSource {
  readonly [SQL]: Sql;
}

/** `?, ?, ?` for an IN list. */
export const marks = (n: number): string => Array.from({ length: n }, () => '?').join(', ');
