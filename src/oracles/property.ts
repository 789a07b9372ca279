/**
 * Property oracle: fast-check drives the reference oracle with generated samples (shapes incl. zero-size and
 * 0-dim, broadcastable pairs, special values). On failure fast-check shrinks; the message carries the seed, the
 * path and the shrunk input, so `npx opgate repro <id>` (same seed) replays it.
 */
import fc from 'fast-check';
import type { RefTensor, SampleInput } from '../../op_db/index.ts';
import { fromRuntime } from '../../op_db/index.ts';
import { compareValues } from './compare.ts';
import { describeError, type Instance, OracleFailure, type OracleResult, sampleContext } from './instance.ts';
import { sameShapeOf, type Tensor } from './runtime_face.ts';
import { callSample, refSampleFor } from './sample_io.ts';
import { toleranceFor } from './tolerances.ts';

function describeSample(s: SampleInput): string {
  const t = (x: unknown): string => {
    if (x && typeof x === 'object' && 'shape' in x && 'dtype' in x) {
      const tt = x as Tensor;
      return `tensor(${JSON.stringify(tt.tolist(), (_k, v) => (typeof v === 'bigint' ? `${v}n` : Number.isNaN(v) ? 'NaN' : v === Infinity ? 'Inf' : v === -Infinity ? '-Inf' : v))}, ${tt.dtype})`;
    }
    return JSON.stringify(x);
  };
  return `input=${t(s.input)} args=[${s.args.map(t).join(', ')}] kwargs=${JSON.stringify(s.kwargs)}`;
}

/** One property check; returns a failure description or null. */
function check(inst: Instance, s: SampleInput): string | null {
  let out: Tensor[];
  try {
    out = callSample(inst.info, s);
  } catch (e) {
    return `raised ${describeError(e)}`;
  }
  const ref = inst.info.ref!(refSampleFor(inst.info, s, out[0]?.dtype));
  const expected = Array.isArray(ref) ? (ref as RefTensor[]) : [ref as RefTensor];
  for (let j = 0; j < out.length; j++) {
    if (!sameShapeOf(out[j].shape, expected[j].shape))
      return `output ${j} shape [${out[j].shape}] != reference [${expected[j].shape}]`;
    const m = compareValues(
      fromRuntime(out[j]),
      expected[j],
      out[j].dtype,
      toleranceFor(out[j].dtype, inst.info.tolerances),
      inst.info.flags.exactRounding,
    );
    if (m) return `output ${j} index ${m.index}: got ${m.actual}, expected ${m.expected}`;
  }
  return null;
}

export function runProperty(inst: Instance, numRuns = 25): OracleResult {
  const { info } = inst;
  if (!info.arbitrary || !info.ref)
    throw new OracleFailure(inst, null, undefined, 'OpInfo has no arbitrary or no reference');
  const arb = info.arbitrary(sampleContext(inst));
  let checks = 0;
  let lastFailure = '';
  const details = fc.check(
    fc.property(arb, (s) => {
      const why = check(inst, s);
      checks++;
      if (why) {
        lastFailure = `${why}; sample: ${describeSample(s)}`;
        return false;
      }
      return true;
    }),
    { seed: inst.seed, numRuns },
  );
  if (details.failed) {
    throw new OracleFailure(
      inst,
      null,
      undefined,
      `property failed after ${details.numRuns} runs, shrunk ${details.numShrinks} times (fast-check seed ${details.seed}, path ${details.counterexamplePath}): ${lastFailure || describeError(details.errorInstance)}`,
    );
  }
  return { checks };
}
