/**
 * Oracle 3, cross-backend: the op on webgpu against the same op on cpu, same inputs (layouts included) and
 * dtype (PyTorch's test_compare_cpu). Floats within atol = rtol = 1e-3, integers and bool exactly, NaN only
 * matches NaN and ±Inf must match; shapes, dtypes, strides and storage offsets must agree too. Inputs not
 * declared mutable must come back unchanged from the device.
 */

import { fromRuntime, type SampleInput } from '../../op_db/index.ts';
import { compareValues } from './compare.ts';
import { describeError, type Instance, OracleFailure, type OracleResult, sampleContext } from './instance.ts';
import { DTYPE_INFO, type Tensor } from './runtime_face.ts';
import {
  callOnDevice,
  callSample,
  onHost,
  sameBytes,
  sampleTensors,
  snapshot,
  withLayout,
} from './sample_io.ts';

export const CROSS_BACKEND_TOLERANCE = { rtol: 1e-3, atol: 1e-3 } as const;

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
    const dev = callOnDevice(inst, k, sCpu, inst.device, inst.device);
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
      const kind = DTYPE_INFO[a.dtype].kind;
      const tol = kind === 'float' || kind === 'complex' ? CROSS_BACKEND_TOLERANCE : { rtol: 0, atol: 0 };
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
