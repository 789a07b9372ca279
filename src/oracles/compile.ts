/**
 * Oracle 4, eager vs compile: for each sample, a function calling the op is compiled with every backend level
 * ('eager', 'aot_eager', 'fused') and its result compared with eager; a chain (op -> pointwise -> reduction) is
 * compiled 'fused' where the op gives one floating tensor; and a second call with fresh inputs of the same
 * metadata must not compile again (JAX's cache check). Each run gets its own copies of the inputs.
 */

import { fromRuntime, type SampleInput, WEBGPU_DTYPES } from '../../op_db/index.ts';
import { compareValues } from './compare.ts';
import { describeError, type Instance, OracleFailure, type OracleResult, sampleContext } from './instance.ts';
import { type CompileBackend, callOp, compile, DTYPE_INFO, type Tensor } from './runtime_face.ts';
import {
  freshOn,
  mixesUnsupported,
  onHost,
  outputsOf,
  reseed,
  sampleTensors,
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

export async function runCompile(inst: Instance, only?: number): Promise<OracleResult> {
  const { info, device } = inst;
  const samples = info.sampleInputs(sampleContext(inst));
  let checks = 0;
  for (const [k, s0] of samples.entries()) {
    if (only !== undefined && k !== only) continue;
    const host = withLayout(s0, inst.layout);
    if (mixesUnsupported(host, device, WEBGPU_DTYPES)) continue;
    const fail = (what: string) => new OracleFailure(inst, k, s0.name, what);
    const tensorsOf = () => sampleTensors(freshOn(host, device));
    const run = async (f: (...ts: Tensor[]) => unknown, what: string): Promise<Tensor[]> => {
      try {
        // Before the call, so a compiled graph's replayed draws restart from the seed too.
        reseed(info, host.kwargs);
        return await onHost(outputsOf(f(...tensorsOf())));
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
    const fn = asFunction(info.op, host);
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
    }
    // The chain needs one floating tensor result (not a list, like split's).
    if (!Array.isArray(raw) && eager.length === 1 && DTYPE_INFO[eager[0].dtype].kind === 'float') {
      const chain = (r: unknown) => callOp('sum', [callOp('mul', [callOp('add', [r, 1]), 2])]);
      const f2 = asFunction(info.op, host, chain);
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
