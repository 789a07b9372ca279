/**
 * Expands the op_db matrix for one oracle into vitest tests: one test per instance, named by its stable id.
 * Skips become test.skip, xfails test.fails (an unexpected pass fails the run); the number of sample-level
 * checks and the instance's axes go into task.meta for the results reporter.
 */
import { test } from 'vitest';
import type { Oracle } from '../../op_db/index.ts';
import {
  disabledBy,
  disabledMessage,
  expandMatrix,
  filtersFromEnv,
  idsIn,
  readDisabled,
  ruleMessage,
  tierFromEnv,
} from '../../src/ci/index.ts';
import { runOracle } from '../../src/oracles/index.ts';
import { initWebGPU, webgpuUnavailableReason } from '../../src/runtime/index.ts';
import { collectFault, fixtureFault } from './fixtures.ts';

declare module 'vitest' {
  interface TaskMeta {
    opgate?: {
      oracle: string;
      op: string;
      device: string;
      dtype: string;
      layout: string;
      mode: string;
      seed: number;
      checks: number;
      /** rerun-disabled mode: how many of the reruns passed / failed. */
      rerunPasses?: number;
      rerunFailures?: number;
      expected: 'pass' | 'fail' | 'skip';
      /** Why a skip/xfail rule applies (stored with the result). */
      reason?: string;
      sample?: number | null;
    };
  }
}

export function defineMatrixTests(oracle: Oracle): void {
  collectFault(oracle);
  const filters = filtersFromEnv();
  if (filters.oracle && filters.oracle.length > 0 && !filters.oracle.includes(oracle)) {
    test.skip(`no ${oracle} instances selected`, () => {});
    return;
  }
  const expanded = expandMatrix(tierFromEnv(), { ...filters, oracle: [oracle] });
  // Target determination's `--td order`: the affected instances run first (vitest runs a file's tests in order).
  const first = filters.priorityFile ? idsIn(filters.priorityFile) : null;
  const instances = first
    ? [...expanded.filter((i) => first.has(i.id)), ...expanded.filter((i) => !first.has(i.id))]
    : expanded;
  if (instances.length === 0) test.skip(`no ${oracle} instances selected`, () => {});
  // Quarantine: disabled instances are skipped with their issue, except in rerun-disabled mode, which runs
  // each of them `reruns` times and records how many passed.
  const disabled = filters.disabledFile ? readDisabled(filters.disabledFile) : [];
  const reruns = filters.reruns ?? 0;
  for (const inst of instances) {
    const expected = inst.rule?.kind === 'xfail' ? 'fail' : inst.rule?.kind === 'skip' ? 'skip' : 'pass';
    const meta = {
      oracle,
      op: inst.op,
      device: inst.device,
      dtype: inst.dtype,
      layout: inst.layout,
      mode: inst.mode,
      seed: inst.seed,
      checks: 0,
      expected,
      // The rule's issue travels with its reason, so the results store (and the coverage dashboard) keep both.
      reason: inst.rule ? ruleMessage(inst.rule) : undefined,
    } as const;
    test(inst.id, {
      meta: { opgate: { ...meta } },
      skip: expected === 'skip',
      fails: expected === 'fail',
    }, async (ctx) => {
      const m = ctx.task.meta.opgate!;
      if (inst.device === 'webgpu' && !(await initWebGPU())) {
        ctx.skip(webgpuUnavailableReason());
        return;
      }
      const off = reruns ? null : disabledBy(disabled, inst);
      if (off) {
        ctx.skip(disabledMessage(off));
        return;
      }
      if (reruns) {
        let passes = 0;
        let last: unknown = null;
        for (let k = 0; k < reruns; k++) {
          try {
            fixtureFault(inst.id);
            m.checks += (await runOracle(inst)).checks;
            passes++;
          } catch (e) {
            last = e;
          }
        }
        m.rerunPasses = passes;
        m.rerunFailures = reruns - passes;
        if (last)
          throw new Error(
            `rerun-disabled: ${reruns - passes}/${reruns} reruns failed; last: ${(last as Error).message}`,
          );
        return;
      }
      try {
        fixtureFault(inst.id);
        m.checks = (await runOracle(inst)).checks;
      } catch (e) {
        const sample = (e as { sample?: number | null }).sample;
        if (sample !== undefined) m.sample = sample;
        throw e;
      }
    });
  }
}
