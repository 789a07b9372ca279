/** Per-instance durations from the results store: the median of the last `window` recorded durations. */
import { durationRows } from '../store/durations.ts';
import { inspectDbFile } from '../store/file.ts';
import { ResultsReader } from '../store/reader.ts';

export function loadDurations(db: string, window = 5): Map<string, number> {
  const out = new Map<string, number>();
  // A history that cannot be read is an error (E_DB_INVALID / E_DB_SCHEMA_NEWER / E_DB_CORRUPT), never a silent
  // plan without it. It is only read: a shard plans from a history it never changes.
  if (inspectDbFile(db).version === 0) return out;
  const store = new ResultsReader(db, { brief: true });
  try {
    const rows = durationRows(store);
    let id = '';
    let xs: number[] = [];
    const close = () => {
      if (xs.length) {
        xs.sort((a, b) => a - b);
        out.set(id, xs[Math.floor(xs.length / 2)]);
      }
    };
    for (const r of rows) {
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
