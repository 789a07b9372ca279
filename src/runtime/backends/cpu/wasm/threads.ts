/**
 * The cpu thread pool (torch.set_num_threads / get_num_threads): worker threads that run a kernel exported by a
 * module over the caller's shared memory, each on its own range of output panels, while the calling thread runs
 * the first range and then waits (Atomics.wait) for the others. Each panel is computed by exactly one thread in
 * the same order whatever the thread count, so results do not depend on it. The default is the machine's core
 * count (OPGATE_NUM_THREADS overrides it); the pool starts on the first kernel large enough to use it. Where
 * worker threads or a blocking wait are unavailable (a browser's main thread), kernels stay single-threaded.
 */
import { InvalidArgumentError } from '../../../core/index.ts';

type NodeWorker = {
  postMessage(value: unknown): void;
  unref(): void;
  terminate(): Promise<number>;
  on(event: 'error', listener: (e: unknown) => void): void;
};
type WorkerThreads = {
  Worker: new (src: string, options: { eval: true; workerData: unknown }) => NodeWorker;
};
type OsModule = { availableParallelism(): number };

const builtin = (name: string): unknown =>
  (globalThis as { process?: { getBuiltinModule?: (n: string) => unknown } }).process?.getBuiltinModule?.(
    name,
  );

function defaultThreads(): number {
  const env = Number(
    (globalThis as { process?: { env?: Record<string, string> } }).process?.env?.OPGATE_NUM_THREADS,
  );
  if (Number.isInteger(env) && env >= 1) return env;
  return (builtin('node:os') as OsModule | undefined)?.availableParallelism() ?? 1;
}

let numThreads = defaultThreads();

/** torch.set_num_threads: the threads cpu kernels may use (1 = the calling thread only). */
export function setNumThreads(n: number): void {
  if (!Number.isInteger(n) || n < 1 || n > 256)
    throw new InvalidArgumentError('set_num_threads expects a positive number of threads', {
      op: 'set_num_threads',
      arg: 'nthreads',
      got: n,
      expected: 'an integer in [1, 256]',
    });
  numThreads = n;
}

/** torch.get_num_threads. */
export const getNumThreads = (): number => numThreads;

// Each worker instantiates the module over the shared memory, runs the kernel on the ranges it is sent and
// counts itself done (an error is reported through the second word, so the caller never waits forever).
const WORKER_SRC = `
const { parentPort, workerData } = require('node:worker_threads');
const { module, memory, flags, fn } = workerData;
const kernel = new WebAssembly.Instance(module, { env: { mem: memory } }).exports[fn];
const done = new Int32Array(flags);
parentPort.on('message', (args) => {
  try { kernel(...args); } catch { Atomics.store(done, 1, 1); }
  Atomics.add(done, 0, 1);
  Atomics.notify(done, 0);
});`;

export interface ThreadPool {
  /**
   * Runs `panels` panels: [0, panels) split into one contiguous range per thread; the workers call the kernel
   * with `args` followed by the range (and `panels`), the caller runs its own range through `own`.
   */
  run(args: readonly number[], panels: number, own: (j0: number, j1: number) => void): void;
}

let poison = false;
/** Test hook: the next pooled run's workers fail (their kernels trap), so the fallback path runs for real. */
export function failNextRunForTest(): void {
  poison = true;
}
/** Whether the pool is in use (false after a worker failed, until `resetPoolForTest`). */
export const threadPoolHealthy = (): boolean => !unavailable;
/** Test hook: the pool may start again after a failure. */
export function resetPoolForTest(): void {
  unavailable = false;
}

let pool: { module: WebAssembly.Module; workers: NodeWorker[]; done: Int32Array } | null = null;
let unavailable = false;

/** The pool for `module` (its kernel named 'gemm') over `memory`, or null when one thread is all there is. */
export function threadPool(module: WebAssembly.Module, memory: WebAssembly.Memory): ThreadPool | null {
  if (numThreads < 2 || unavailable) return null;
  const wt = builtin('node:worker_threads') as WorkerThreads | undefined;
  if (!wt) {
    unavailable = true;
    return null;
  }
  if (pool && pool.module !== module) void shutdown();
  if (!pool) pool = { module, workers: [], done: new Int32Array(new SharedArrayBuffer(8)) };
  const p = pool;
  while (p.workers.length < numThreads - 1) {
    const w = new wt.Worker(WORKER_SRC, {
      eval: true,
      workerData: { module, memory, flags: p.done.buffer, fn: 'gemm' },
    });
    w.on('error', () => {
      Atomics.store(p.done, 1, 1);
    });
    w.unref();
    p.workers.push(w);
  }
  return {
    run(args, panels, own) {
      const threads = Math.min(numThreads, panels);
      const step = Math.ceil(panels / threads);
      Atomics.store(p.done, 0, 0);
      Atomics.store(p.done, 1, 0);
      const ranges: [number, number][] = [];
      for (let t = 1; t * step < panels; t++) ranges.push([t * step, Math.min(panels, (t + 1) * step)]);
      ranges.forEach(([j0, j1], t) => {
        // A poisoned range (the failure test's): operand addresses past the memory, so the worker's kernel traps on
        // its first read, before writing anything.
        const at = poison ? [0x7fff0000, 0x7fff0000, ...args.slice(2)] : args;
        p.workers[t].postMessage([...at, j0, j1, panels]);
      });
      poison = false;
      own(0, Math.min(step, panels));
      if (!waitFor(p.done, ranges.length)) {
        // A worker failed or hung: this thread computes every range itself (the same values, so a late worker
        // writing its range too changes nothing) and later products stay single-threaded.
        unavailable = true;
        void shutdown();
        for (const [j0, j1] of ranges) own(j0, j1);
      }
    },
  };
}

/** Waits until `count` ranges are done; false on a worker's error, a minute without progress or no blocking wait. */
function waitFor(done: Int32Array, count: number): boolean {
  try {
    for (let got = Atomics.load(done, 0); got < count; got = Atomics.load(done, 0)) {
      if (Atomics.load(done, 1) !== 0 || Atomics.wait(done, 0, got, 60_000) === 'timed-out') return false;
    }
  } catch {
    return false; // Atomics.wait is not allowed on this thread
  }
  return Atomics.load(done, 1) === 0;
}

/** Stops the pool's workers (the next large product starts a new pool over its own module's memory). */
export function releasePool(): void {
  void shutdown();
}

async function shutdown(): Promise<void> {
  const p = pool;
  pool = null;
  if (p) await Promise.all(p.workers.map((w) => w.terminate()));
}
