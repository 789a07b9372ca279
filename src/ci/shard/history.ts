/** Per-instance durations from the results store: the median of the last `window` recorded durations. */
import { durationRows } from '../store/durations.ts';
import { inspectDbFile } from '../store/file.ts';
import { RECENT_SINCE } from '../store/migrations.ts';
import { ResultsReader } from '../store/reader.ts';
import { RECENT_DURATIONS, recentDurations } from '../store/recent.ts';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * The median of each instance's last `window` durations in complete runs. Read from the instances' recent
 * history (one row per instance, whatever the history's length); a file from before that table, which a reader
 * cannot migrate, and a window longer than the table keeps, are read from the results themselves.
 */
export function loadDurations(
  db: string,
  window = 5,
  o: { readonly fromResults?: boolean } = {},
): Map<string, number> {
  const out = new Map<string, number>();
  // A history that cannot be read is an error (E_DB_INVALID / E_DB_SCHEMA_NEWER / E_DB_CORRUPT), never a silent
  // plan without it. It is only read: a shard plans from a history it never changes.
  const { version } = inspectDbFile(db);
  if (version === 0) return out;
  const store = new ResultsReader(db, { brief: true });
  try {
    if (!o.fromResults && version >= RECENT_SINCE && window <= RECENT_DURATIONS) {
      for (const [id, ms] of recentDurations(store)) out.set(id, median(ms.slice(-window)));
      return out;
    }
    let id = '';
    let xs: number[] = [];
    const close = () => {
      if (xs.length) out.set(id, median(xs));
    };
    for (const r of durationRows(store)) {
      if (r.id !== id) {
        close();
        id = r.id;
        xs = [];
      }
      if (xs.length < window) xs.push(r.ms);
    }
    close();
  } finally {
    store.close();
  }
  return out;
}
