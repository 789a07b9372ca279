/**
 * Deliberate regressions for the perf gate's own tests (tests/unit/perf.test.ts), made by the scenario program
 * (callgrind_region.ts) through the runtime's operator table, so that the runtime itself carries no test hook.
 * `OPGATE_PERF_INJECT` lists them, comma-separated:
 * - `kernel:<overload>` registers a CPU kernel for the overload that runs its kernel twice per call: a 2x slower
 *   kernel (the second run's result is returned; for functional and out= overloads, which a rerun leaves as the
 *   first run did).
 * - `dispatch:<overload>[:<steps>]` wraps the kernel the dispatcher calls first for the overload (its Autograd
 *   kernel, or its CPU one) in a loop of `steps` steps (default 2) before it: a few dozen instructions more on every
 *   call's dispatch path, as a slower dispatcher would add.
 * Unset (the perf job's measurements, `npm run bench`): nothing is registered.
 */
import { DispatchKey, type Kernel, operatorTable } from '../src/runtime/index.ts';

export const ENV_PERF_INJECT = 'OPGATE_PERF_INJECT';

/** Where the injected loop's steps go, so that no compiler drops them. */
let sink = 0;

const INJECTIONS: Record<string, (overload: string, arg?: string) => void> = {
  kernel: (overload) => {
    const cpu = operatorTable.get(overload).kernels.get(DispatchKey.CPU);
    if (!cpu) throw new Error(`${ENV_PERF_INJECT}: ${overload} has no CPU kernel to slow down`);
    const twice: Kernel = (ks, args, op) => {
      cpu(ks, args, op);
      return cpu(ks, args, op);
    };
    operatorTable.impl(overload, DispatchKey.CPU, twice);
  },
  dispatch: (overload, steps = '2') => {
    const entry = operatorTable.get(overload);
    const key = entry.kernels.has(DispatchKey.Autograd) ? DispatchKey.Autograd : DispatchKey.CPU;
    const first = entry.kernels.get(key);
    if (!first) throw new Error(`${ENV_PERF_INJECT}: ${overload} has no CPU or Autograd kernel`);
    const n = Number(steps) | 0;
    operatorTable.impl(overload, key, (ks, args, op) => {
      for (let i = 0; i < n; i++) sink = (sink + i) | 0;
      return first(ks, args, op);
    });
  },
};

/** Registers the regressions `spec` asks for (`kernel:add.out,dispatch:add.Tensor`); returns what it applied. */
export function applyPerfInjections(spec = process.env[ENV_PERF_INJECT] ?? ''): string[] {
  const applied: string[] = [];
  for (const item of spec.split(',').filter(Boolean)) {
    const [kind, overload, arg] = item.split(':');
    const inject = INJECTIONS[kind];
    if (!inject || !overload)
      throw new Error(
        `${ENV_PERF_INJECT}: got '${item}', expected ${Object.keys(INJECTIONS)
          .map((k) => `${k}:<overload>`)
          .join(' or ')} (dispatch:<overload>:<steps>)`,
      );
    inject(overload, arg);
    applied.push(item);
  }
  return applied;
}
