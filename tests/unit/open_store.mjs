// Opens (and so creates and migrates) the results database at argv[2] with the store's writer, and prints its
// schema version: one of the processes that tests/unit/store_boundaries.test.ts starts on a new file. It loads
// the store, says `ready` on stderr and opens on SIGUSR2, which the test sends to every process at once when all
// are ready: the opens race, and none burns a core while it waits.
import { register } from 'tsx/esm/api';

register();
const { ResultsStore } = await import('../../src/ci/store/store.ts');
await new Promise((go) => {
  // A signal listener does not keep node alive: the timer does, until the signal.
  const wait = setInterval(() => {}, 60_000);
  process.once('SIGUSR2', () => go(clearInterval(wait)));
  process.stderr.write('ready\n');
});
const store = new ResultsStore(process.argv[2]);
process.stdout.write(String(store.schemaVersion));
store.close();
