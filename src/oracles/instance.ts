/** What an oracle run is given (one matrix instance) and how it fails (sample index, seed, repro). */

import type { Layout, Mode, OpInfo, Oracle, SampleContext } from '../../op_db/index.ts';
import type { DeviceType, DType } from '../runtime/index.ts';
import { targetNames } from '../targets/index.ts';

export interface Instance {
  readonly id: string;
  readonly oracle: Oracle;
  readonly info: OpInfo;
  readonly device: DeviceType;
  readonly dtype: DType;
  readonly layout: Layout;
  readonly mode: Mode;
  readonly seed: number;
}

export interface OracleResult {
  /** Sample-level comparisons made. */
  readonly checks: number;
  /** Notes that are not failures (e.g. a layout that did not apply to any sample). */
  readonly notes?: readonly string[];
  /**
   * The numerics fingerprint (golden oracle): the largest error of a floating output against PyTorch's recorded
   * result, in units in the last place of the output dtype; absent when the oracle measures none.
   */
  readonly maxUlp?: number;
  /**
   * Why the instance could not run on its device (a registered device with no kernel for an op the samples
   * reach): reported as a skip with this reason, never as a pass or a failure.
   */
  readonly unsupported?: string;
}

export class OracleFailure extends Error {
  readonly id: string;
  readonly sample: number | null;
  readonly seed: number;

  constructor(
    inst: Pick<Instance, 'id' | 'seed'>,
    sample: number | null,
    sampleName: string | undefined,
    detail: string,
  ) {
    const where = sample === null ? '' : `sample #${sample}${sampleName ? ` (${sampleName})` : ''} `;
    super(
      `${inst.id}: ${where}failed (seed ${inst.seed}): ${detail}\n  repro: ${reproCommand(inst.id, sample)}`,
    );
    this.name = 'OracleFailure';
    this.id = inst.id;
    this.sample = sample;
    this.seed = inst.seed;
  }
}

/** An instance's stable id: `test_<oracle>_<op>_<device>_<dtype>_<layout>_<mode>` (its seed is a hash of it). */
export function instanceId(
  oracle: Oracle,
  opName: string,
  device: string,
  dtype: string,
  layout: Layout,
  mode: Mode,
): string {
  return `test_${oracle}_${opName.replace(/\.|::/g, '_')}_${device}_${dtype}_${layout}_${mode}`;
}

/** The command that reruns one instance (one sample of it when `sample` is given; a target's, with its --target). */
export function reproCommand(id: string, sample: number | null): string {
  const target = targetNames().find((t) => id.includes(`_${t}_`));
  return `npx opgate repro ${id}${sample === null ? '' : ` --sample ${sample}`}${target ? ` --target ${target}` : ''}`;
}

export function describeError(e: unknown): string {
  if (e instanceof Error)
    return `${e.name}${'code' in e ? ` [${String((e as { code: unknown }).code)}]` : ''}: ${e.message}`;
  return String(e);
}

/** The context an instance's samples are made in (samples are a pure function of it). */
export function sampleContext(inst: Instance, device: DeviceType = 'cpu'): SampleContext {
  return { device, dtype: inst.dtype, requiresGrad: false, seed: inst.seed };
}
