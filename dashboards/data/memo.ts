/**
 * What the live server remembers between requests: a value computed from one commit's runs, per commit stamp
 * (its runs as they stand: ids, statuses, last writes). Equal stamps, equal values, so a finished commit's value
 * is computed once per process and a warm request reads only what changed. A commit with a run in progress is
 * computed every time and not remembered. Bounded: the oldest entries leave first.
 */
import { commitStamps } from '../../src/ci/index.ts';
import type { ReadDb } from './db.ts';

const ALL = new Set<Map<string, unknown>>();

/** Stores `value` under `key` as the newest entry of `values`, dropping the oldest past `limit`. */
function remember<V>(values: Map<string, V>, key: string, value: V, limit: number): void {
  values.delete(key);
  values.set(key, value);
  if (values.size > limit) values.delete(values.keys().next().value as string);
}

export class CommitMemo<T> {
  readonly #values = new Map<string, T>();

  constructor(readonly limit = 500) {
    ALL.add(this.#values);
  }

  /** Forgets every memo's values (the tests compare a remembered document with one computed afresh). */
  static forgetAll(): void {
    for (const m of ALL) m.clear();
  }

  /**
   * Each of `shas`' value; `compute` gets the commits not remembered (all at once) and returns each one's. `stamps`:
   * the commits' stamps when the caller has them already.
   */
  of(
    db: ReadDb,
    shas: readonly string[],
    compute: (missing: string[]) => Map<string, T>,
    stamps: ReadonlyMap<string, string> = commitStamps(db, shas),
  ): Map<string, T> {
    const key = (sha: string) => `${db.path}\0${sha}\0${stamps.get(sha)}`;
    const out = new Map<string, T>();
    const missing: string[] = [];
    for (const sha of shas) {
      const v = this.#values.get(key(sha));
      if (v === undefined) missing.push(sha);
      else out.set(sha, v);
    }
    if (missing.length === 0) return out;
    const computed = compute(missing);
    for (const sha of missing) {
      const v = computed.get(sha);
      if (v === undefined) throw new Error(`CommitMemo: no value computed for ${sha}`);
      out.set(sha, v);
      if (/ running /.test(`${stamps.get(sha)} `)) continue;
      remember(this.#values, key(sha), v, this.limit);
    }
    return out;
  }

  /** One commit's value. */
  one(db: ReadDb, sha: string, compute: () => T): T {
    return this.of(db, [sha], () => new Map([[sha, compute()]])).get(sha) as T;
  }
}

/**
 * A value computed from a window of commits (or a table) as a whole, remembered per key: the caller's key names
 * everything it is computed from (the window's commit stamps, a table's row ids). Bounded: a few windows.
 */
export class KeyedMemo<T> {
  readonly #values = new Map<string, T>();

  constructor(readonly limit = 8) {
    ALL.add(this.#values);
  }

  get(key: string, compute: () => T): T {
    const hit = this.#values.get(key);
    if (hit !== undefined) return hit;
    const v = compute();
    remember(this.#values, key, v, this.limit);
    return v;
  }
}

/**
 * A value remembered per key with the place its input starts (e.g. a window's first row id) and the input's
 * stamp there: a warm request stamps that place again and, when nothing changed, reads nothing else.
 */
export class WindowMemo<T, W> {
  readonly #values = new Map<string, { where: W; stamp: string; value: T }>();

  constructor(readonly limit = 4) {
    ALL.add(this.#values);
  }

  /** The stamp is read before the value is computed: a write between the two makes the next request compute again. */
  get(key: string, start: () => W, stampAt: (where: W) => string, compute: (where: W) => T): T {
    const last = this.#values.get(key);
    if (last && stampAt(last.where) === last.stamp) return last.value;
    const where = start();
    const stamp = stampAt(where);
    const value = compute(where);
    remember(this.#values, key, { where, stamp, value }, this.limit);
    return value;
  }
}

/** The stamps of `shas`, as one key (a window with a run in progress never repeats: its heartbeat moves). */
export function windowKey(
  db: ReadDb,
  shas: readonly string[],
  stamps: ReadonlyMap<string, string> = commitStamps(db, shas),
): string {
  return `${db.path}\0${shas.map((s) => `${s} ${stamps.get(s)}`).join('\n')}`;
}

/** Rows grouped by their commit, every one of `shas` present. */
export function byCommit<R extends { readonly sha: string }>(
  shas: readonly string[],
  rows: Iterable<R>,
): Map<string, R[]> {
  const out = new Map<string, R[]>(shas.map((s) => [s, []]));
  for (const r of rows) out.get(r.sha)?.push(r);
  return out;
}
