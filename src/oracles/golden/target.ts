/**
 * The golden oracle on a foreign runtime (a target, src/targets): PyTorch's recorded results for op_db's samples
 * and error inputs of an (op, dtype), replayed through the target's op row. Per sample: PyTorch raised <-> the
 * target raises; the outputs' count, dtypes and shapes; values within the dtype's tolerance. A sample the target's
 * API cannot express (an argument, a dtype it has no tensors of) is left out; when none is left, the instance is
 * unsupported there. Each failure names its class first, for the report: [refuses] [accepts] [known-bug] [dtype]
 * [shape] [values] [outputs].
 */
import { fromRuntime } from '../../../op_db/index.ts';
import { callOnTarget, KnownBug, NotExpressible } from '../../targets/index.ts';
import { compareValues } from '../compare.ts';
import { describeError, type Instance, OracleFailure, type OracleResult } from '../instance.ts';
import type { DType, Tensor } from '../runtime_face.ts';
import { toleranceFor } from '../tolerances.ts';
import { decodeValues, type GoldenEntry, type GoldenFile, readGolden, recordCommand } from './files.ts';
import { type GoldenRequest, goldenRequests } from './requests.ts';

const fmt = (xs: readonly number[]) => `[${xs.join(', ')}]`;

function fail(inst: Instance, r: GoldenRequest, cls: string, detail: string): never {
  throw new OracleFailure(inst, r.k, `${r.kind} ${r.sample.name ?? ''}`.trim(), `[${cls}] ${detail}`);
}

function checkOutputs(inst: Instance, g: GoldenFile, r: GoldenRequest, e: GoldenEntry, outs: Tensor[]): void {
  const want = e.out ?? [];
  const who = inst.device;
  if (outs.length !== want.length)
    fail(inst, r, 'outputs', `${who} gives ${outs.length} outputs, PyTorch ${want.length}`);
  outs.forEach((t, j) => {
    const w = want[j];
    if (t.dtype !== w.dtype)
      fail(inst, r, 'dtype', `output ${j} dtype ${t.dtype} on ${who}, PyTorch gives ${w.dtype}`);
    if (fmt(t.shape) !== fmt(w.shape))
      fail(inst, r, 'shape', `output ${j} shape ${fmt(t.shape)} on ${who}, PyTorch gives ${fmt(w.shape)}`);
    if (w.values === null || inst.info.flags.nondeterministicValues || r.sample.draws) return;
    const tol = toleranceFor(t.dtype, inst.info.tolerances, 'cpu');
    const m = compareValues(
      fromRuntime(t),
      decodeValues(g, w.values, w.dtype as DType, w.shape),
      t.dtype,
      tol,
      false,
    );
    if (m)
      fail(
        inst,
        r,
        'values',
        `output ${j} (${t.dtype}): ${m.count}/${m.total} elements differ from PyTorch; first at index ${m.index} (${m.part}): ${who} gives ${m.actual}, PyTorch ${m.expected} (rtol ${tol.rtol}, atol ${tol.atol})`,
      );
  });
}

export async function runGoldenOnTarget(inst: Instance, only?: number): Promise<OracleResult> {
  const { info } = inst;
  const golden = readGolden(info.name);
  if (!golden)
    throw new OracleFailure(
      inst,
      null,
      undefined,
      `no goldens recorded for ${info.name}: run \`${recordCommand(info.name)}\``,
    );
  let checks = 0;
  let inexpressible = 0;
  let why = '';
  for (const r of goldenRequests(info, inst.dtype, 'contiguous', ['sample', 'error'])) {
    if (only !== undefined && r.k !== only) continue;
    const e = golden.entries[r.fp];
    // A sample recorded unstable (or not at all: a stale golden, which the cpu instance reports) has nothing to judge.
    if (!e || e.unstable) continue;
    let outs: Tensor[];
    try {
      outs = await callOnTarget(inst.device, info.name, info.op, [r.sample.input, ...r.sample.args], {
        ...r.sample.kwargs,
      });
    } catch (err) {
      if (err instanceof NotExpressible) {
        inexpressible++;
        why ||= err.message;
        continue;
      }
      checks++;
      if (err instanceof KnownBug) fail(inst, r, 'known-bug', `${inst.device} is not called: ${err.message}`);
      if (e.raises !== undefined) continue;
      fail(inst, r, 'refuses', `${inst.device} raised ${describeError(err)}; PyTorch returns a result`);
    }
    checks++;
    if (e.raises !== undefined)
      fail(
        inst,
        r,
        'accepts',
        `PyTorch raises ${e.raises}; ${inst.device} returned ${outs.length} output(s)`,
      );
    checkOutputs(inst, golden, r, e, outs);
  }
  if (checks === 0 && inexpressible > 0)
    return {
      checks: 0,
      unsupported: `not expressible on ${inst.device}: ${why} (all ${inexpressible} samples)`,
    };
  return {
    checks,
    notes: inexpressible
      ? [`${inexpressible} sample(s) not expressible on ${inst.device} (${why})`]
      : undefined,
  };
}
