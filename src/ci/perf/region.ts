/**
 * The program valgrind runs for one count: `node --predictable <bundle> <scenario> <iterations>` (`--list` prints
 * the scenarios as JSON). Setup and a fixed warm-up (so the JIT has settled) run outside the region; the region is
 * one call of `Reflect.apply`, whose builtin callgrind toggles collection on (`--toggle-collect=
 * Builtins_ReflectApply`). Nothing inside the scenarios calls Reflect.apply, so the toggle happens exactly twice.
 * bench/callgrind_region.ts runs opgate's own scenarios with it; `opgate perf --scenarios <file>` a project's.
 * It imports only the runtime: the bundle valgrind runs holds the runtime, the scenarios and what they import.
 */
import { setNumThreads } from '../../runtime/index.ts';
import { CiError } from '../errors.ts';

/** A perf scenario: a setup (outside the measured region) and one iteration of a statement, repeated in it. */
export interface PerfScenario {
  readonly name: string;
  readonly description: string;
  /** Iterations per measured region (the count is the K vs 2K difference / K). */
  readonly k: number;
  /**
   * Calls before the region, so the JIT has settled (default 100 K); kernels at size need fewer, but enough that
   * no optimising compile lands in the region (3 left TurboFan's work in the 1M add's count).
   */
  readonly warmup?: number;
  readonly setup: () => () => unknown;
}

/** Runs the scenario that argv names for argv's iterations (or lists them), as the count's process. */
export function runRegion(
  scenarios: readonly PerfScenario[],
  argv: readonly string[] = process.argv.slice(2),
  beforeSetup: () => void = () => {},
): void {
  // Counts are of one thread: worker threads run outside the toggled region, and the pool's size is the machine's.
  setNumThreads(1);
  const [name, n] = argv;
  if (name === '--list') {
    console.log(JSON.stringify(scenarios.map(({ name, k, description }) => ({ name, k, description }))));
    process.exit(0);
  }
  const s = scenarios.find((x) => x.name === name);
  if (!s)
    throw new CiError(
      'E_UNKNOWN_NAME',
      `unknown scenario '${name}' (known: ${scenarios.map((x) => x.name).join(', ')})`,
    );
  beforeSetup();
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
  // A scavenge (minor collection) before the region: both the K and the 2K run start with an empty young
  // generation, so the scavenges inside the region follow from the scenario's own allocation, not from where the
  // warm-up left the heap.
  (globalThis as { gc?: (o: { type: 'minor' }) => void }).gc?.({ type: 'minor' });
  Reflect.apply(repeat, null, [iterations]);
}
