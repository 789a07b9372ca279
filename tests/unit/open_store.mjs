// Opens (and so creates and migrates) the results database at argv[2] with the store's writer, at the epoch
// millisecond argv[3] (so that processes started one by one open together), and prints its schema version: one
// of the processes that tests/unit/store_boundaries.test.ts starts at once on a new file.
import { register } from 'tsx/esm/api';

register();
const { ResultsStore } = await import('../../src/ci/store/store.ts');
const at = Number(process.argv[3] ?? 0);
while (Date.now() < at) {} // a spin, not a timer: the opens start within a millisecond of each other
const store = new ResultsStore(process.argv[2]);
process.stdout.write(String(store.schemaVersion));
store.close();
