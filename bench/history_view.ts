/**
 * One dashboard document computed in a fresh process (bench:history's child): the first request (opening and
 * checking the file included) and warm ones (the fastest of fifteen), the response size and the process's peak RSS.
 * `search:<q>` is the live server's answer to a test-search pattern.
 *   node --import tsx bench/history_view.ts <db> <document|search:<q>> [<sha>]
 */
import { DOCUMENTS, isDocument, openReadOnly, PER_COMMIT, testsData } from '../dashboards/index.ts';

const [db, name, sha] = process.argv.slice(2);
const t0 = performance.now();
const reader = openReadOnly(db);
const compute = () => {
  if (name.startsWith('search:')) return testsData(reader, { q: name.slice('search:'.length) });
  if (sha) return PER_COMMIT[name as keyof typeof PER_COMMIT](reader, sha);
  if (!isDocument(name)) throw new Error(`unknown document ${name}`);
  return DOCUMENTS[name](reader);
};
const bytes = JSON.stringify(compute()).length;
const firstMs = performance.now() - t0;
// Warm: the fastest of fifteen more requests. At the millisecond level one request is mostly timer, JIT and
// GC noise; the fastest is the cost of the work itself, the figure a growth exponent can compare.
const warm: number[] = [];
for (let i = 0; i < 15; i++) {
  const t1 = performance.now();
  JSON.stringify(compute());
  warm.push(performance.now() - t1);
}
const warmMs = Math.min(...warm);
reader.close();
process.stdout.write(
  JSON.stringify({ firstMs, warmMs, bytes, rssMB: process.resourceUsage().maxRSS / 1024 }),
);
