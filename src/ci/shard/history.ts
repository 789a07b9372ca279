/** Per-instance durations from the results store: the median of the last `window` recorded durations. */
import { durationRows } from '../store/durations.ts';
import { ResultsStore } from '../store/store.ts';

export function loadDurations(db: string, window = 5): Map<string, number> {
  const out = new Map<string, number>();
  // A history that cannot be read is an error (E_DB_INVALID / E_DB_SCHEMA_NEWER), never a silent plan without it.
  const store = new ResultsStore(db);
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
