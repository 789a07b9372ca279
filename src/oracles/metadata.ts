/**
 * Oracle 5, metadata: the op on the meta device against the op on cpu (same sizes, strides, offsets): shape,
 * dtype, significant strides, storage offset, device, aliasing per the schema's annotations, and inputs not
 * declared mutable left unchanged bit for bit (PyTorch's test_meta + TestFakeTensor + mutation checks). For a
 * webgpu instance the real run is on webgpu (the same cpu-made sample moved with its layouts).
 */

import { noteSkipped } from './crossbackend.ts';
import { describeError, type Instance, OracleFailure, type OracleResult, sampleContext } from './instance.ts';
import { bindCall, Tensor } from './runtime_face.ts';
import {
  callOnDevice,
  callSample,
  mapSample,
  metaMirror,
  onHost,
  sameBytes,
  sampleTensors,
  snapshot,
  withDeviceKeyword,
  withLayout,
} from './sample_io.ts';

function significantStrides(t: Tensor): string {
  if (t.numel === 0) return '';
  return t.shape.map((s, i) => (s > 1 ? String(t.strides[i]) : '*')).join(',');
}

/** For each output position, the input argument it aliases per the schema (`Tensor(a)` on both sides). */
function aliasMap(
  name: string,
  args: unknown[],
  kwargs: Record<string, unknown>,
): { writes: Set<string>; aliases: (string | null)[] } {
  const [entry] = bindCall(name, args, kwargs);
  const writes = new Set<string>();
  const bySet = new Map<string, string>();
  for (const a of entry.schema.args) {
    if (a.type.alias) {
      bySet.set(a.type.alias.set, a.name);
      if (a.type.alias.isWrite) writes.add(a.name);
    }
  }
  const aliases = entry.schema.returns.map((r) =>
    r.type.alias ? (bySet.get(r.type.alias.set) ?? null) : null,
  );
  return { writes, aliases };
}

export async function runMetadata(inst: Instance, only?: number): Promise<OracleResult> {
  const { info } = inst;
  const samples = info.sampleInputs(sampleContext(inst));
  const real = inst.device === 'meta' ? 'cpu' : inst.device;
  let checks = 0;
  let skipped = 0;
  for (const [k, s0] of samples.entries()) {
    if (only !== undefined && k !== only) continue;
    const host = withLayout(s0, inst.layout);
    const before = sampleTensors(host).map(snapshot);
    // Mirrored before the real run (an op may change its input's metadata); the device copy has the host's
    // metadata. Factories have no tensor inputs: the meta run asks for device='meta' instead (and so does a
    // device='cpu' keyword, `x.to(device='cpu')`).
    const meta =
      sampleTensors(host).length > 0
        ? withDeviceKeyword(mapSample(host, metaMirror), 'meta')
        : { ...host, kwargs: { ...host.kwargs, device: 'meta' } };
    const ran = callOnDevice(inst, k, host, real, real);
    if (!ran) {
      skipped++;
      continue;
    }
    const cpu = ran.s;
    const outCpu = ran.out;
    const inputs = sampleTensors(cpu);
    const args = [cpu.input, ...cpu.args];
    const { writes, aliases } = aliasMap(info.op, args, { ...cpu.kwargs });
    let outMeta: Tensor[];
    try {
      outMeta = callSample(info, meta);
    } catch (e) {
      throw new OracleFailure(inst, k, s0.name, `meta raised ${describeError(e)} (${real} succeeded)`);
    }
    if (outCpu.length !== outMeta.length)
      throw new OracleFailure(
        inst,
        k,
        s0.name,
        `meta returned ${outMeta.length} outputs, cpu ${outCpu.length}`,
      );
    outCpu.forEach((c, j) => {
      const m = outMeta[j];
      const diffs: string[] = [];
      if (m.device !== 'meta') diffs.push(`device ${m.device} (expected meta)`);
      if (c.shape.join(',') !== m.shape.join(',')) diffs.push(`shape [${m.shape}] vs ${real} [${c.shape}]`);
      if (c.dtype !== m.dtype) diffs.push(`dtype ${m.dtype} vs ${real} ${c.dtype}`);
      if (significantStrides(c) !== significantStrides(m))
        diffs.push(`strides (${m.strides}) vs ${real} (${c.strides})`);
      if (c.numel > 0 && c.storageOffset !== m.storageOffset)
        diffs.push(`storage offset ${m.storageOffset} vs ${real} ${c.storageOffset}`);
      const aliased = aliases[Math.min(j, aliases.length - 1)] ?? null;
      const cpuInput = aliased === 'self' && cpu.input instanceof Tensor ? cpu.input : null;
      const metaInput = aliased === 'self' && meta.input instanceof Tensor ? meta.input : null;
      // `Tensor(a)` on a view op means "is a view"; on view-or-copy ops (reshape, contiguous, to: isView false)
      // it means "may alias", as in PyTorch's schemas. Either way cpu and meta must agree.
      if (info.flags.isView && cpuInput && c.storage !== cpuInput.storage)
        diffs.push(`cpu output does not alias '${aliased}' as its schema declares`);
      if (info.flags.isView && metaInput && m.storage !== metaInput.storage)
        diffs.push(`meta output does not alias '${aliased}' as its schema declares`);
      if (cpuInput && metaInput && (c.storage === cpuInput.storage) !== (m.storage === metaInput.storage))
        diffs.push(
          `aliasing differs: cpu output ${c.storage === cpuInput.storage ? 'aliases' : 'copies'} '${aliased}', meta output ${m.storage === metaInput.storage ? 'aliases' : 'copies'} it`,
        );
      if (!aliased && inputs.some((t) => t.storage === c.storage))
        diffs.push('cpu output aliases an input its schema does not declare');
      if (diffs.length) throw new OracleFailure(inst, k, s0.name, `output ${j}: ${diffs.join('; ')}`);
    });
    const after = await onHost(inputs);
    after.forEach((t, i) => {
      const declared = i === 0 ? writes.has('self') : false;
      if (!declared && !info.flags.mutates && !sameBytes(before[i], snapshot(t))) {
        throw new OracleFailure(
          inst,
          k,
          s0.name,
          `input ${i} was modified but the schema does not mark it mutable`,
        );
      }
    });
    checks++;
  }
  return noteSkipped(inst, checks, skipped);
}
