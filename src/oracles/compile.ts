/**
 * Oracle 4, eager vs compile: for each sample, a function calling the op is compiled with every backend level
 * ('eager', 'aot_eager', 'fused') and its result compared with eager; a chain (op -> pointwise -> reduction) is
 * compiled 'fused' where the op gives one floating tensor; and a second call with fresh inputs of the same
 * metadata must not compile again (JAX's cache check), while a third with the same shapes in another layout must
 * (its stride guard) and still equal eager. Each run gets its own copies of the inputs.
 */

import { fromRuntime, type Layout, type SampleInput, WEBGPU_DTYPES } from '../../op_db/index.ts';
import { compareValues } from './compare.ts';
import { describeError, type Instance, OracleFailure, type OracleResult, sampleContext } from './instance.ts';
import {
  type CompileBackend,
  callOp,
  compile,
  DTYPE_INFO,
  stridePattern,
  type Tensor,
} from './runtime_face.ts';
import {
  freshOn,
  mixesUnsupported,
  notOnDevice,
  onHost,
  outputsOf,
  reseed,
  sampleTensors,
  withDeviceKeyword,
  withLayout,
} from './sample_io.ts';
import { toleranceFor } from './tolerances.ts';

const BACKENDS: readonly CompileBackend[] = ['eager', 'aot_eager', 'fused'];

/** The sample as a function of its tensors (in sampleTensors order). */
function asFunction(op: string, s: SampleInput, then?: (r: unknown) => unknown) {
  const template = s;
  return (...ts: Tensor[]) => {
    let i = 0;
    const swap = (x: unknown): unknown =>
      x && typeof x === 'object' && 'storage' in x ? ts[i++] : Array.isArray(x) ? x.map(swap) : x;
    const input = swap(template.input);
    const args = template.args.map(swap);
    const kwargs = Object.fromEntries(Object.entries(template.kwargs).map(([k, v]) => [k, swap(v)]));
    const r = callOp(op, [input, ...args], kwargs);
    return then ? then(r) : r;
  };
}

/**
 * The sample in a layout whose stride pattern differs from `layout`'s (the compile cache guards it), or null when
 * no tensor's pattern changes (0/1-d samples). On cpu only: the guards are device-independent, and a webgpu
 * compile costs several times a cpu one.
 */
function otherLayout(s0: SampleInput, layout: Layout, device: Instance['device']) {
  if (device !== 'cpu') return null;
  const other: Layout = layout === 'contiguous' ? 'transposed' : 'contiguous';
  const sample = withLayout(s0, other);
  const here = sampleTensors(withLayout(s0, layout)).map(stridePattern);
  const there = sampleTensors(sample).map(stridePattern);
  return here.every((p, i) => p === there[i]) ? null : { layout: other, sample };
}

export async function runCompile(inst: Instance, only?: number): Promise<OracleResult> {
  const { info, device } = inst;
  const samples = info.sampleInputs(sampleContext(inst));
  let checks = 0;
  for (const [k, s0] of samples.entries()) {
    if (only !== undefined && k !== only) continue;
    const host = withLayout(s0, inst.layout);
    if (mixesUnsupported(host, device, WEBGPU_DTYPES) || notOnDevice(host, device)) continue;
    const fail = (what: string) => new OracleFailure(inst, k, s0.name, what);
    const run = async (f: (...ts: Tensor[]) => unknown, what: string, from = host): Promise<Tensor[]> => {
      try {
        // Before the call, so a compiled graph's replayed draws restart from the seed too.
        reseed(info, host.kwargs);
        return await onHost(outputsOf(f(...sampleTensors(freshOn(from, device)))));
      } catch (e) {
        throw fail(`${what} raised ${describeError(e)}`);
      }
    };
    const compare = (got: Tensor[], want: Tensor[], what: string) => {
      if (got.length !== want.length)
        throw fail(`${what}: ${got.length} outputs, eager gives ${want.length}`);
      got.forEach((g, j) => {
        const w = want[j];
        if (g.shape.join(',') !== w.shape.join(',') || g.dtype !== w.dtype)
          throw fail(`${what} output ${j}: ${g.dtype}[${g.shape}] vs eager ${w.dtype}[${w.shape}]`);
        if (info.flags.nondeterministicValues) return;
        const tol = toleranceFor(g.dtype, info.tolerances, device);
        const m = compareValues(fromRuntime(g), fromRuntime(w), g.dtype, tol);
        if (m)
          throw fail(
            `${what} output ${j} (${g.dtype}): ${m.count}/${m.total} elements differ from eager; first at index ${m.index}: compiled ${m.actual}, eager ${m.expected}`,
          );
      });
    };
    // The call's own arguments as eager runs them on the device (a `device='cpu'` keyword names the device).
    const call = withDeviceKeyword(host, device);
    const fn = asFunction(info.op, call);
    const relaid = otherLayout(s0, inst.layout, device);
    let raw: unknown;
    const eager = await run((...ts) => {
      raw = fn(...ts);
      return raw;
    }, 'eager');
    for (const backend of BACKENDS) {
      const c = compile(fn, { backend, dynamic: false });
      compare(await run(c, `compile(${backend})`), eager, `compile(${backend})`);
      const compiles = c.stats.compiles;
      await run(c, `compile(${backend}) second call`);
      if (c.stats.compiles !== compiles || c.stats.cacheHits !== 1)
        throw fail(
          `compile(${backend}): a second call with inputs of the same metadata compiled again (${compiles} -> ${c.stats.compiles} compiles, ${c.stats.cacheHits} cache hits)`,
        );
      checks += 2;
      if (backend === 'fused' && relaid) {
        const { recompiles, cacheHits } = c.stats;
        const what = `compile(fused) on the ${relaid.layout} layout`;
        const got = await run(c, what, relaid.sample);
        if (c.stats.recompiles !== recompiles + 1 || c.stats.cacheHits !== cacheHits)
          throw fail(
            `${what}: inputs of the same shapes in another stride pattern reused the ${inst.layout} layout's entry (${recompiles} -> ${c.stats.recompiles} recompiles, ${cacheHits} -> ${c.stats.cacheHits} cache hits)`,
          );
        compare(got, await run(fn, `eager on the ${relaid.layout} layout`, relaid.sample), what);
        checks++;
      }
    }
    // The chain needs one floating tensor result (not a list, like split's).
    if (!Array.isArray(raw) && eager.length === 1 && DTYPE_INFO[eager[0].dtype].kind === 'float') {
      const chain = (r: unknown) => callOp('sum', [callOp('mul', [callOp('add', [r, 1]), 2])]);
      const f2 = asFunction(info.op, call, chain);
      const want = await run(f2, 'eager chain');
      compare(
        await run(compile(f2, { backend: 'fused', dynamic: false }), 'compiled chain'),
        want,
        'compile(fused) chain op -> add -> mul -> sum',
      );
      checks++;
    }
  }
  return { checks };
}
