/**
 * The program valgrind runs for one count: `node --predictable callgrind_region.js <scenario> <iterations>`
 * (`--list` prints the scenarios as JSON).
 * Setup and a fixed warm-up (so the JIT has settled) run outside the region; the region is one call of
 * `Reflect.apply`, whose builtin callgrind toggles collection on (`--toggle-collect=Builtins_ReflectApply`).
 * Nothing inside the scenarios calls Reflect.apply, so the toggle happens exactly twice.
 * OPGATE_PERF_INJECT registers the perf gate's deliberate regressions first (perf_inject.ts; its tests only).
 */
import { setNumThreads } from '../src/runtime/index.ts';
import { applyPerfInjections } from './perf_inject.ts';
import { SCENARIOS, scenario } from './scenarios.ts';

// Counts are of one thread: worker threads run outside the toggled region, and the pool's size is the machine's.
setNumThreads(1);

const [name, n] = process.argv.slice(2);
if (name === '--list') {
  console.log(JSON.stringify(SCENARIOS.map(({ name, k, description }) => ({ name, k, description }))));
  process.exit(0);
}
const s = scenario(name);
applyPerfInjections();
const step = s.setup();
const iterations = Number(n);
// Warm-up: the same number of calls whatever `iterations` is, so K and 2K runs compile the same code.
const warm = Number(process.env.OPGATE_PERF_WARMUP ?? s.warmup ?? s.k * 100);
const repeat = (n: number) => {
  for (let i = 0; i < n; i++) step();
};
// The loops live in a function: a hot loop at top level would be optimised (OSR) together with the
// Reflect.apply call below, which would then be inlined and never enter the builtin callgrind watches.
repeat(warm);
// A scavenge (minor collection) before the region: both the K and the 2K run start with an empty young generation, so the
// scavenges inside the region follow from the scenario's own allocation, not from where the warm-up left the heap.
(globalThis as { gc?: (o: { type: 'minor' }) => void }).gc?.({ type: 'minor' });
Reflect.apply(repeat, null, [iterations]);
