/** Runs a compiled pointwise row loop over an output and its (broadcast, strided, any-dtype) inputs. */
import { broadcastStridesFor, DeviceMismatchError, DTYPE_INFO, type Tensor } from '../../core/index.ts';
import { compileRowLoop, type LoopSpec, type ScalarFn } from './codegen.ts';
import { forEachRow } from './iterator.ts';

export interface PointwiseCall {
  /** The scalar function; compiled loops are cached by its identity. */
  readonly fn: ScalarFn;
  readonly targets: readonly import('../../core/index.ts').DType[];
  readonly value: import('../../core/index.ts').DType;
  readonly scalars: readonly unknown[];
  readonly scalarDomainComplex: boolean;
}

export function runPointwise(call: PointwiseCall, out: Tensor, inputs: readonly Tensor[]): void {
  const spec: LoopSpec = {
    fn: call.fn,
    inputs: inputs.map((t) => t.dtype),
    targets: call.targets,
    value: call.value,
    out: out.dtype,
    nScalars: call.scalars.length,
    scalarDomainComplex: call.scalarDomainComplex,
  };
  const loop = compileRowLoop(spec);
  const all = [out, ...inputs];
  // Backstop for the ops' device checks: a meta / webgpu operand has no host data to loop over.
  const arrays = all.map((t) => t.storage.data ?? noHostData(all));
  const lanes = all.map((t) => DTYPE_INFO[t.dtype].lanes);
  const strides = all.map((t, k) => {
    const s = k === 0 ? t.strides : broadcastStridesFor(t.shape, t.strides, out.shape);
    return lanes[k] === 1 ? s : s.map((x) => x * lanes[k]);
  });
  const offsets = all.map((t, k) => t.storageOffset * lanes[k]);
  forEachRow(out.shape, strides, offsets, (n, offs, st) =>
    loop(n, arrays, offs, st, call.scalars as unknown[]),
  );
}

function noHostData(all: readonly Tensor[]): never {
  const t = all.find((x) => x.storage.data === null)!;
  throw new DeviceMismatchError('Expected all tensors to be on the same device', {
    arg: t === all[0] ? 'out' : 'input',
    got: t.device,
    expected: 'cpu',
  });
}
