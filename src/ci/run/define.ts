/**
 * The per-instance vitest tests of one oracle, defined from the run's plan (see channel.ts): one test per
 * planned instance, named by its id. Skips become test.skip, xfails test.fails (an unexpected pass fails the
 * run); the worker fills the instance's InstanceRecord (checks, failing sample, rerun counts, the numerics
 * fingerprint's max ulp) in task meta.
 * The template files under tests/templates call this with the oracle's name and, for the flaky-machinery
 * tests, the fault injection they own. Under plain vitest (`npm test`) they run the stratified slice of the pull
 * tier (slice.ts); OPGATE_TEMPLATE_SLICE=full runs the whole tier.
 */
import { type Layout, type OpInfo, type Oracle, opDb } from '../../../op_db/index.ts';
import { runOracle } from '../../oracles/index.ts';
import type { DeviceType, DType } from '../../runtime/index.ts';
import { initWebGPU, webgpuUnavailableReason } from '../../runtime/index.ts';
import { loadConfigFromEnv } from '../config.ts';
import { CiError } from '../errors.ts';
import { type MatrixInstance, matrixInstance, ruleMessage } from '../matrix.ts';
import { foldMaxUlp, type InstanceRecord, PLAN_KEY, type PlanEntry, type RunPlan } from './channel.ts';
import { oraclePlan } from './plan.ts';
import { templateSlice } from './slice.ts';

/** Fault injection for tests of the run machinery (tests/templates/fixtures.ts); none in a real run. */
export interface MatrixFaults {
  /** Called as the oracle's template file is collected: throwing fails the whole file, as a broken import would. */
  readonly collect?: (oracle: Oracle) => void;
  /** Called before each attempt of an instance: throwing fails that attempt. */
  readonly attempt?: (id: string) => void;
}

let byName: Map<string, OpInfo> | null = null;

function plannedInstance(oracle: Oracle, [op, device, dtype, layout]: PlanEntry): MatrixInstance {
  byName ??= new Map(opDb.map((i) => [i.name, i]));
  const info = byName.get(op);
  if (!info)
    throw new CiError('E_UNKNOWN_NAME', `the run's plan names op '${op}', which op_db does not have`);
  return matrixInstance(info, oracle, device as DeviceType, dtype as DType, layout as Layout);
}

/**
 * Defines `oracle`'s tests of the provided plan (`opgate run`: all of what it selected), or, when vitest runs
 * without `opgate run` (`npm test`), of the pull tier's template slice: stratified unless
 * OPGATE_TEMPLATE_SLICE=full (slice.ts).
 */
export async function defineMatrixTests(oracle: Oracle, faults: MatrixFaults = {}): Promise<void> {
  // Loaded here, not at the top: this module is part of ci's face, which processes outside vitest import too.
  const { inject, test } = await import('vitest');
  faults.collect?.(oracle);
  // A project's opgate.config.ts (`opgate run --config`): its ops and OpInfos, before the plan's ops are looked up.
  await loadConfigFromEnv();
  const plan: RunPlan = inject(PLAN_KEY) ?? oraclePlan('pull', oracle, templateSlice());
  const entries = plan.oracles[oracle] ?? [];
  if (entries.length === 0) test.skip(`no ${oracle} instances selected`, () => {});
  for (const entry of entries) {
    const inst = plannedInstance(oracle, entry);
    const expected = inst.rule?.kind === 'xfail' ? 'fail' : inst.rule?.kind === 'skip' ? 'skip' : 'pass';
    const record: InstanceRecord = {
      op: inst.op,
      oracle,
      device: inst.device,
      dtype: inst.dtype,
      layout: inst.layout,
      mode: inst.mode,
      seed: inst.seed,
      checks: 0,
      expected,
      reason: inst.rule ? ruleMessage(inst.rule) : undefined,
    };
    const off = plan.disabled[inst.id];
    test(inst.id, {
      meta: { opgate: record },
      skip: expected === 'skip',
      fails: expected === 'fail',
    }, async (ctx) => {
      const m = ctx.task.meta.opgate as InstanceRecord;
      if (inst.device === 'webgpu' && !(await initWebGPU())) {
        ctx.skip(webgpuUnavailableReason());
        return;
      }
      if (off) {
        ctx.skip(off);
        return;
      }
      if (plan.reruns) {
        await rerun(inst, plan.reruns, m, faults);
        return;
      }
      try {
        faults.attempt?.(inst.id);
        const r = await runOracle(inst);
        m.checks = r.checks;
        // A registered device without a kernel the samples reach: unsupported there, reported as a skip.
        if (r.unsupported !== undefined) {
          ctx.skip(r.unsupported);
          return;
        }
        // Retries share the record: the fingerprint keeps the worst attempt that measured one.
        m.maxUlp = foldMaxUlp(m.maxUlp, r.maxUlp);
      } catch (e) {
        const sample = (e as { sample?: number | null }).sample;
        if (sample !== undefined) m.sample = sample;
        throw e;
      }
    });
  }
}

/** rerun-disabled mode: `reruns` runs of a quarantined instance, counted; any failure fails the test. */
async function rerun(inst: MatrixInstance, reruns: number, m: InstanceRecord, faults: MatrixFaults) {
  let passes = 0;
  let last: unknown = null;
  for (let k = 0; k < reruns; k++) {
    try {
      faults.attempt?.(inst.id);
      const r = await runOracle(inst);
      m.checks += r.checks;
      m.maxUlp = foldMaxUlp(m.maxUlp, r.maxUlp);
      passes++;
    } catch (e) {
      last = e;
    }
  }
  m.rerunPasses = passes;
  m.rerunFailures = reruns - passes;
  if (last)
    throw new CiError(
      'E_RERUNS_FAILED',
      `rerun-disabled: ${reruns - passes}/${reruns} reruns failed; last: ${(last as Error).message}`,
    );
}
