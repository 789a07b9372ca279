/**
 * Oracle 3, cross-backend: the op on webgpu, or on a registered device (registerDevice), against the same op on
 * cpu, same inputs (layouts included) and dtype (PyTorch's test_compare_cpu). A registered device without a
 * kernel for an op a sample reaches is unsupported there (reported as a skip, never a failure). Floats within the sum of the two backends' tolerances, integers and bool
 * exactly, NaN only matches NaN and ±Inf must match; shapes, dtypes, strides and storage offsets must agree too. Inputs not
 * declared mutable must come back unchanged from the device.
 */

import { fromRuntime, type OpInfo, type SampleInput, type Tolerance } from '../../op_db/index.ts';
import type { DeviceType } from '../runtime/index.ts';
import { compareValues } from './compare.ts';
import { describeError, type Instance, OracleFailure, type OracleResult, sampleContext } from './instance.ts';
import type { DType, Tensor } from './runtime_face.ts';
import {
  callOnDevice,
  callSample,
  missingDeviceKernel,
  onHost,
  sameBytes,
  sampleTensors,
  snapshot,
  withLayout,
} from './sample_io.ts';
import { toleranceFor } from './tolerances.ts';

/**
 * How far the device's result may be from cpu's: each backend may be off from the exact result by its own tolerance
 * (the reference oracle holds each to it), so together by their sum. No constant of its own: the tolerances are
 * PyTorch's defaults, the OpInfo's earned overrides and the device's floor.
 */
export function crossBackendTolerance(dtype: DType, info: OpInfo, device: DeviceType): Tolerance {
  const cpu = toleranceFor(dtype, info.tolerances, 'cpu');
  const dev = toleranceFor(dtype, info.tolerances, device);
  return { rtol: cpu.rtol + dev.rtol, atol: cpu.atol + dev.atol };
}

function run(inst: Instance, k: number, s: SampleInput, where: string): Tensor[] {
  try {
    return callSample(inst.info, s);
  } catch (e) {
    throw new OracleFailure(inst, k, s.name, `${where} raised ${describeError(e)}`);
  }
}

const significant = (t: Tensor) => t.shape.map((n, i) => (n > 1 ? t.strides[i] : '*')).join(',');

export async function runCrossBackend(inst: Instance, only?: number): Promise<OracleResult> {
  const { info } = inst;
  const samples = info.sampleInputs(sampleContext(inst));
  let checks = 0;
  let skipped = 0;
  for (const [k, s0] of samples.entries()) {
    if (only !== undefined && k !== only) continue;
    const sCpu = withLayout(s0, inst.layout);
    const before = sampleTensors(sCpu).map(snapshot);
    // The device runs first, on its own copies: an op that mutates its input sees the same values on both.
    let dev: ReturnType<typeof callOnDevice>;
    try {
      dev = callOnDevice(inst, k, sCpu, inst.device, inst.device);
    } catch (e) {
      const op = missingDeviceKernel(e, inst.device);
      if (op === null) throw e;
      return { checks, unsupported: `unsupported on ${inst.device}: no kernel for ${op}` };
    }
    if (!dev) {
      skipped++;
      continue;
    }
    const sDev = dev.s;
    const expected = run(inst, k, sCpu, 'cpu');
    const actual = await onHost(dev.out);
    if (actual.length !== expected.length)
      throw new OracleFailure(inst, k, s0.name, `${actual.length} outputs, cpu has ${expected.length}`);
    actual.forEach((a, j) => {
      const e = expected[j];
      const what = `${inst.device} output ${j}`;
      if (a.shape.join(',') !== e.shape.join(','))
        throw new OracleFailure(inst, k, s0.name, `${what}: shape [${a.shape}] vs cpu [${e.shape}]`);
      if (a.dtype !== e.dtype)
        throw new OracleFailure(inst, k, s0.name, `${what}: dtype ${a.dtype} vs cpu ${e.dtype}`);
      if (a.numel > 0 && (significant(a) !== significant(e) || a.storageOffset !== e.storageOffset))
        throw new OracleFailure(
          inst,
          k,
          s0.name,
          `${what}: strides (${a.strides}) offset ${a.storageOffset} vs cpu (${e.strides}) offset ${e.storageOffset}`,
        );
      if (info.flags.nondeterministicValues) return;
      const tol = crossBackendTolerance(a.dtype, info, inst.device);
      const m = compareValues(fromRuntime(a), fromRuntime(e), a.dtype, tol);
      if (m)
        throw new OracleFailure(
          inst,
          k,
          s0.name,
          `${what} (${a.dtype}): ${m.count}/${m.total} elements differ from cpu; first at index ${m.index}: ${inst.device} ${m.actual}, cpu ${m.expected} (rtol ${tol.rtol}, atol ${tol.atol})`,
        );
    });
    if (!info.flags.mutates) {
      const after = await onHost(sampleTensors(sDev));
      after.forEach((t, i) => {
        if (!sameBytes(before[i], snapshot(t)))
          throw new OracleFailure(
            inst,
            k,
            s0.name,
            `${inst.device} modified input ${i}, which is not declared mutable`,
          );
      });
    }
    checks++;
  }
  return noteSkipped(inst, checks, skipped);
}

/** Samples mixing in a dtype the device does not compute are skipped; an instance must still check something. */
export function noteSkipped(inst: Instance, checks: number, skipped: number, ran = checks): OracleResult {
  if (skipped === 0) return { checks };
  if (ran === 0)
    throw new OracleFailure(
      inst,
      null,
      undefined,
      `no sample applies on ${inst.device}: all ${skipped} mix in unsupported dtypes`,
    );
  return {
    checks,
    notes: [`${skipped} sample(s) mix in a dtype ${inst.device} does not compute (not applicable)`],
  };
}
